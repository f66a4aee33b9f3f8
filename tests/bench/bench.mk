# make bench: apmoff's images against a Syslinux poweroff.c32 ISO and a GRUB halt ISO,
# booted side by side in QEMU (tests/bench/bench.py), then its floppies against
# Syslinux's on the 86Box kit's boards (tests/bench/bench86.py). Included by the top
# Makefile.
#
#   make bench                  5 QEMU rounds, one 86Box run a board and image
#   make bench BENCH_RUNS=9     more QEMU rounds, steadier medians (BENCH86_RUNS=3 for
#                               86Box, BENCH86_RUNS=0 for none)
#   make bench-table            the same, and its tables into docs/testing.md

BENCH_RUNS ?= 5
BENCH86_RUNS ?= 1

.PHONY: bench bench-table
bench: deps
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) -m tests.bench.bench --runs $(BENCH_RUNS) --runs86 $(BENCH86_RUNS)

bench-table: deps
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) -m tests.bench.bench --runs $(BENCH_RUNS) --runs86 $(BENCH86_RUNS) --update-page
