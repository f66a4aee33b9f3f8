# libFuzzer targets (clang), included by the top Makefile, which defines BUILD and
# PYTHON; and apmoff-collect's (Python, hypothesis: tests/collect/fuzz_collect.py).
#
#   make fuzz-bin     build $(BUILD)/fuzz/bin/fuzz_*
#   make fuzz         build, then run each target for FUZZ_TIME seconds (60); then
#                     apmoff-collect's targets, COLLECT_FUZZ_EXAMPLES examples each
#                     (20000), new ones each run (failures kept in
#                     $(BUILD)/collect-fuzz/ and tried first the next time)
#   make fuzz-smoke   build, then run each for FUZZ_SMOKE_TIME seconds (5); fails on
#                     a crash, so `make test` can run it (make test runs the
#                     collector's targets in its collect step, 300 examples each)
#
# Each target is built in one clang command from its sources (no shared objects with
# the kernel or the cmocka tests). Corpora grow in $(BUILD)/fuzz/corpus/<target>/,
# crash inputs land in $(BUILD)/fuzz/artifacts/; replay one with
#   $(BUILD)/fuzz/bin/<target> $(BUILD)/fuzz/artifacts/<file>
# clang's fuzzer runtime is Debian's libclang-rt-dev (scripts/deps.sh).

FUZZ_CC     := clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_DIR    := $(BUILD)/fuzz
FUZZ_TIME   ?= 60
FUZZ_SMOKE_TIME ?= 5
COLLECT_FUZZ_EXAMPLES ?= 20000

FUZZ_TARGETS := fuzz_smbios fuzz_acpi fuzz_acpi_tables fuzz_aml fuzz_qr fuzz_bootinfo \
	fuzz_options fuzz_vbe fuzz_pci fuzz_aml_interp fuzz_lz4 fuzz_menu fuzz_fat fuzz_mbload
FUZZ_BINS    := $(addprefix $(FUZZ_DIR)/bin/,$(FUZZ_TARGETS))
FUZZ_HEADERS := $(wildcard survey/*.h lib/*.h system/*.h app/*.h loader/*.h \
	tests/unit/qr_read.h)
FUZZ_ASL     := $(wildcard tests/aml/*.asl)

$(FUZZ_DIR)/bin/fuzz_smbios: tests/fuzz/fuzz_smbios.c survey/smbios.c survey/physmem.c
$(FUZZ_DIR)/bin/fuzz_acpi: tests/fuzz/fuzz_acpi.c survey/acpi.c survey/physmem.c
$(FUZZ_DIR)/bin/fuzz_acpi_tables: tests/fuzz/fuzz_acpi_tables.c survey/acpi_tables.c \
	survey/acpi_s5.c survey/aml_s5.c survey/physmem.c
$(FUZZ_DIR)/bin/fuzz_aml: tests/fuzz/fuzz_aml.c survey/aml_s5.c
$(FUZZ_DIR)/bin/fuzz_qr: tests/fuzz/fuzz_qr.c survey/qr.c tests/unit/qr_read.c
$(FUZZ_DIR)/bin/fuzz_bootinfo: tests/fuzz/fuzz_bootinfo.c system/bootinfo.c survey/acpi.c \
	survey/physmem.c
$(FUZZ_DIR)/bin/fuzz_options: tests/fuzz/fuzz_options.c app/common/options.c \
	lib/format.c tests/fuzz/console_stub.c
$(FUZZ_DIR)/bin/fuzz_vbe: tests/fuzz/fuzz_vbe.c survey/vbe.c survey/physmem.c
$(FUZZ_DIR)/bin/fuzz_pci: tests/fuzz/fuzz_pci.c survey/pci.c survey/chipset.c
$(FUZZ_DIR)/bin/fuzz_aml_interp: tests/fuzz/fuzz_aml_interp.c $(AML_SRCS) $(wildcard aml/*.h)
$(FUZZ_DIR)/bin/fuzz_lz4: tests/fuzz/fuzz_lz4.c loader/lz4.c
$(FUZZ_DIR)/bin/fuzz_menu: tests/fuzz/fuzz_menu.c loader/menu.c
$(FUZZ_DIR)/bin/fuzz_fat: tests/fuzz/fuzz_fat.c loader/fat.c
$(FUZZ_DIR)/bin/fuzz_mbload: tests/fuzz/fuzz_mbload.c loader/mbload.c

$(FUZZ_BINS): $(FUZZ_HEADERS) tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

# Seeds for the AML interpreter: the hand-made test tables (tests/aml/*.asl), which
# tests/fuzz/run.sh gives libFuzzer beside the target's corpus. iasl is acpica-tools'.
$(FUZZ_DIR)/seeds/fuzz_aml_interp/.done: $(FUZZ_ASL)
	@rm -rf $(dir $@) && mkdir -p $(dir $@)
	@for src in $(FUZZ_ASL); do \
		name=$$(basename $$src .asl); \
		flags=$$(grep -q 'iasl: -f' $$src && echo -f); \
		iasl $$flags -p $(dir $@)$$name $$src >/dev/null 2>&1 || exit 1; \
		rm -f $(dir $@)$$name.hex $(dir $@)$$name.lst; \
	done
	@touch $@

# Seeds for the floppy loader's targets, from the fixtures of its unit tests
# (tests/unit/loader_fixtures.py): short LZ4 frames of every option, a 32 KiB FAT12
# disk, two small multiboot kernels.
LOADER_SEEDS := $(addprefix $(FUZZ_DIR)/seeds/,fuzz_lz4 fuzz_fat fuzz_mbload)
$(FUZZ_DIR)/seeds/fuzz_lz4/.done: LOADER_SEED_FILES = lz4/small*.lz4 lz4/empty.*.lz4 \
	lz4/one.*.lz4 lz4/zeros.*.lz4 lz4/legacy.lz4
$(FUZZ_DIR)/seeds/fuzz_fat/.done: LOADER_SEED_FILES = fat/small.img
$(FUZZ_DIR)/seeds/fuzz_mbload/.done: LOADER_SEED_FILES = mbload/elf.bin mbload/aout.bin
$(LOADER_SEEDS:%=%/.done): $(LOADER_FIXTURES)/.done
	@rm -rf $(dir $@) && mkdir -p $(dir $@)
	cd $(LOADER_FIXTURES) && cp $(LOADER_SEED_FILES) $(abspath $(dir $@))
	@touch $@

# The option keys and values, for a dictionary that follows app/common/options.c.
$(FUZZ_DIR)/fuzz_options.dict: app/common/options.c
	@mkdir -p $(dir $@)
	sed -n 's/^ *{ "\([^"]*\)".*/"\1"/p' $< | sort -u > $@
	printf '"="\n","\n" "\n' >> $@

.PHONY: fuzz-bin fuzz fuzz-smoke
fuzz-bin: $(FUZZ_BINS) $(FUZZ_DIR)/fuzz_options.dict $(FUZZ_DIR)/seeds/fuzz_aml_interp/.done \
	$(LOADER_SEEDS:%=%/.done)

fuzz: fuzz-bin
	@tests/fuzz/run.sh $(FUZZ_TIME) $(BUILD) $(FUZZ_TARGETS)
	@APMOFF_FUZZ_EXAMPLES=$(COLLECT_FUZZ_EXAMPLES) APMOFF_FUZZ_RANDOM=1 \
		$(PYTHON) -m tests.collect.fuzz_collect

fuzz-smoke: fuzz-bin
	@tests/fuzz/run.sh $(FUZZ_SMOKE_TIME) $(BUILD) $(FUZZ_TARGETS)
