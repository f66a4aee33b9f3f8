# make bench: apmoff's images against a Syslinux poweroff.c32 ISO and a GRUB halt ISO,
# booted side by side in QEMU (tests/bench/bench.py). Included by the top Makefile.
#
#   make bench                  5 rounds
#   make bench BENCH_RUNS=9     more rounds, steadier medians
#   make bench-table            the same, and its table into docs/testing.md

BENCH_RUNS ?= 5

.PHONY: bench bench-table
bench: $(ELF) $(ISO) $(BUILD)/apmoff.img
	@$(PYTHON) -m tests.bench.bench --runs $(BENCH_RUNS)

bench-table: $(ELF) $(ISO) $(BUILD)/apmoff.img
	@$(PYTHON) -m tests.bench.bench --runs $(BENCH_RUNS) --update-page
