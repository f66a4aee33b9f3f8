# make bench: apmoff's images against a Syslinux poweroff.c32 ISO and a GRUB halt ISO,
# booted side by side in QEMU (tests/bench/bench.py). Included by the top Makefile.
#
#   make bench                  5 rounds
#   make bench BENCH_RUNS=9     more rounds, steadier medians

BENCH_RUNS ?= 5

.PHONY: bench
bench: $(ELF) $(ISO) $(BUILD)/apmoff.img
	@$(PYTHON) -m tests.bench.bench --runs $(BENCH_RUNS)
