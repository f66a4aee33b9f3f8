# apmoff: build, run and test.
#
#   make            the kernel build/apmoff.elf; build/apmoff.iso (BIOS and UEFI, CD and
#                   USB); the floppies build/apmoff.img, apmoff-1200.img, apmoff-720.img,
#                   apmoff-360.img (iso/floppy.mk); each image again as apmoff-auto*, the
#                   menu without its countdown; build/aml-run (the AML interpreter on the host)
#   make run        boot the ISO in QEMU, its menu and COM1 on this terminal;
#                   make run ARGS="action=survey wait=0" boots the kernel with those words;
#                   SCREEN=window, curses or vnc shows the PC's screen too
#   make help       this list; docs/start.md says which to use for what
#   make test       unit tests on the host, static checks, the pages, every emulator case
#   make check      the fast tier, minutes: unit and static tests, the pages' static
#                   checks, QEMU's -kernel and Bochs' cases of every method and action
#   make docs       the pages' generated blocks: figures of the build, output of real runs
#   make mutate     plant each bug of tests/mutate/mutants.py, prove the tests catch it
#                   (make mutate-check: prove make check catches them)
#   make bench      time the images against Syslinux and GRUB (bench-table: and the page)
#   make real-bios-table   docs/real-bioses.md's table of the 86Box runs on real BIOS ROMs
#   make fuzz       the libFuzzer targets and apmoff-collect's, longer than make test
#                   runs them
#   make collect-test      apmoff-collect's tests alone
#   make dist       the release folder dist/apmoff-<version>/: images, kernel, source
#                   tarball, README, NEWS, licences, SHA256SUMS (docs/release.md)
#   make clean
#
# Each first installs the Debian packages it needs that are missing (scripts/deps.sh):
# `make` what building needs, `run` that and QEMU, the others everything.

BUILD   := build
CC      := gcc
LD      := ld
NASM    := nasm
# Debian's own Python: the tests use Debian's python3-pil (scripts/deps.sh).
PYTHON  := /usr/bin/python3

# One version for everything (scripts/version.sh): the kernel, the menu, the volume
# labels, make dist. Every date in the images is the commit's time, so two builds of
# one commit are the same bytes (xorriso and mtools read SOURCE_DATE_EPOCH).
VERSION := $(shell scripts/version.sh version)
COMMIT  := $(shell scripts/version.sh short)
LABEL   := $(shell scripts/version.sh label)
SOURCE_DATE_EPOCH ?= $(shell scripts/version.sh epoch)
export SOURCE_DATE_EPOCH

KERNEL_CFLAGS := -m32 -march=i386 -mtune=i386 -ffreestanding -fno-pic -fno-pie \
	-fno-stack-protector -fno-builtin -fno-tree-loop-distribute-patterns \
	-fno-delete-null-pointer-checks -fno-asynchronous-unwind-tables \
	-mgeneral-regs-only -mno-red-zone -std=gnu11 -Os -ffunction-sections -fdata-sections \
	-Wall -Wextra -Werror -Wmissing-prototypes -MMD -MP
NASMFLAGS := -f elf32 -I$(BUILD)/ -I./ -Werror
LDFLAGS := -m elf_i386 -n -nostdlib -z noexecstack --no-warn-rwx-segments --gc-sections -T boot/linker.ld -Map $(BUILD)/apmoff.map

# Kernel objects, by layer (docs/design.md): each folder includes only the ones above
# it in this list, which tests/check_layers.py enforces.
BOOT_OBJS   := boot/multiboot.o boot/entry.o
LIB_OBJS    := lib/format.o lib/string.o lib/json.o lib/pic_init.o lib/div64.o \
	lib/biosregs.o lib/crc32.o lib/uart.o lib/rtctime.o lib/record.o lib/pitclock.o \
	lib/e820.o lib/sha256.o lib/dumpline.o
SYSTEM_OBJS := system/descriptors.o system/segdesc.o system/segcheck.o system/isr.o \
	system/bios_irq.o system/exceptions.o system/fwguard.o system/halt.o system/unittester.o \
	system/cpu.o system/cpuname.o \
	system/pic.o system/timer.o system/cpuclock.o system/cmos.o system/serial.o \
	system/vga.o system/fbcon.o font8x16.o system/keyboard.o system/console.o \
	system/bootinfo.o system/pci_conf.o system/acpi_pm.o system/acpi_ec.o system/freemem.o \
	system/efi_rt.o system/efi_call64.o system/efi_call32.o system/reset.o system/rtc.o \
	system/rtc_alarm.o
SURVEY_OBJS := survey/qr.o survey/qrpages.o survey/qrscreen.o survey/romid.o \
	survey/physmem.o survey/smbios.o survey/acpi.o survey/acpi_tables.o \
	survey/aml_s5.o survey/acpi_s5.o survey/efi.o survey/vbe.o \
	survey/deflate.o survey/base45.o survey/pci.o survey/chipset.o survey/softoff.o \
	survey/optionrom.o survey/acpi_list.o survey/flash.o survey/bios32.o
AML_OBJS    := aml/aml.o aml/heap.o aml/stream.o aml/opcodes.o aml/namespace.o aml/object.o \
	aml/convert.o aml/exec.o aml/check.o aml/named.o aml/operators.o aml/store.o \
	aml/field.o aml/region.o aml/osi.o aml/resource.o
RM_OBJS     := realmode/bios.o realmode/video.o realmode/trampoline.o \
	realmode/rmswitch.o realmode/trampoline_blob.o realmode/v86.o \
	realmode/v86enter.o realmode/v86irq.o realmode/v86test.o realmode/v86stubs.o \
	realmode/pcibios.o
APM_OBJS    := apm/apm.o apm/apm_text.o apm/poweroff.o apm/check.o apm/port_rm.o \
	apm/port_pm.o apm/pm_segs.o apm/pm32call.o apm/checklist.o checklists.o apm/resume.o
APP_OBJS    := app/main.o app/selftest.o \
	app/common/options.o app/common/chain.o app/common/record.o app/common/record_story.o \
	app/facts/survey.o app/facts/boot_report.o app/facts/acpi_report.o \
	app/facts/probe_memory.o app/facts/probe_disks.o app/facts/probe_video.o \
	app/facts/acpi_aml.o app/facts/aml_host.o \
	app/power/methods.o app/power/acpi.o app/power/efi.o app/power/chipset.o \
	app/reset/offer.o app/reset/resets.o app/reset/ways.o \
	app/sleep/sleep.o app/sleep/wake.o app/dump/dump.o app/dump/entries.o \
	app/show/surveyjson.o app/show/surveyscreen.o zdict.o app/show/summary.o \
	app/show/summaryscreen.o \
	app/check/check.o version.o
OBJS := $(addprefix $(BUILD)/,$(BOOT_OBJS) $(LIB_OBJS) $(SYSTEM_OBJS) $(SURVEY_OBJS) \
	$(AML_OBJS) $(RM_OBJS) $(APM_OBJS) $(APP_OBJS))

ELF := $(BUILD)/apmoff.elf
ISO := $(BUILD)/apmoff.iso
ASM_OFFSETS := $(BUILD)/system-offsets.inc $(BUILD)/realmode-offsets.inc

.PHONY: all build-all iso run test check unit emu deps deps-build deps-run clean real-bios-table help

# make help: the list at the top of this file.
help:
	@sed -n '3,/^$$/{/^#   /s/^#   //p;/^#$$/q}' $(firstword $(MAKEFILE_LIST))
# The automation images: the same menu with no countdown (emulator CIs, make bench).
MENU := $(BUILD)/grub.cfg
AUTO_CFG := $(BUILD)/grub-auto.cfg
AUTO_ISO := $(BUILD)/apmoff-auto.iso

# `make` first installs what building needs (scripts/deps.sh build), then builds.
all: deps-build
	@$(MAKE) --no-print-directory build-all
build-all: $(ELF) $(ISO) $(AUTO_ISO) $(BUILD)/aml-run $(BUILD)/variants/apmoff-other-hash.elf
iso: $(ISO)

$(ELF): $(OBJS) boot/linker.ld
	$(LD) $(LDFLAGS) -o $@ $(OBJS)

$(ISO): $(ELF) $(MENU) iso/mkiso.sh iso/mkefiimg.sh iso/grub-no-cr4.py
	iso/mkiso.sh $@ $(ELF) $(MENU) "$(LABEL)"

$(AUTO_CFG): $(MENU)
	@mkdir -p $(BUILD)
	sed 's/^set timeout=.*/set timeout=0/' $< > $@

$(AUTO_ISO): $(ELF) $(AUTO_CFG) iso/mkiso.sh iso/mkefiimg.sh iso/grub-no-cr4.py
	iso/mkiso.sh $@ $(ELF) $(AUTO_CFG) "$(LABEL)"

$(BUILD)/%.o: %.c | $(ASM_OFFSETS)
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.asm $(ASM_OFFSETS)
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

# Constants, offsets and selectors for the assembly, generated from the C headers so
# the two sides cannot drift: each *-offsets.c marks "->NAME value" lines in its
# compiler output, turned here into "NAME equ value".
define asm_constants
	@mkdir -p $(BUILD)
	$(CC) $(KERNEL_CFLAGS) -MF $(@:.inc=.s.d) -MT $@ -S $< -o $(@:.inc=.s)
	sed -n 's/^->\([A-Z0-9_]*\) \$$\{0,1\}\(-\{0,1\}[0-9]*\).*/\1 equ \2/p' \
		$(@:.inc=.s) > $@.tmp
	mv $@.tmp $@
endef
$(BUILD)/system-offsets.inc: system/asm-offsets.c
	$(asm_constants)
$(BUILD)/realmode-offsets.inc: realmode/asm-offsets.c
	$(asm_constants)
-include $(BUILD)/system-offsets.s.d $(BUILD)/realmode-offsets.s.d

# The framebuffer font, from the console font Debian ships (scripts/mkfont.py).
FONT_SRC := /usr/share/consolefonts/Lat15-VGA16.psf.gz
$(BUILD)/font8x16.c: scripts/mkfont.py
	@mkdir -p $(BUILD)
	$(PYTHON) scripts/mkfont.py $(FONT_SRC) $@

$(BUILD)/font8x16.o: $(BUILD)/font8x16.c system/font.h
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

# The expected check verdicts of known BIOSes, from the files the emulator cases
# compare with (scripts/mkchecklists.py; apm/checklist.h).
CHECK_EXPECT := $(sort $(wildcard tests/emu/expect/check-*.txt))
$(BUILD)/checklists.c: scripts/mkchecklists.py $(CHECK_EXPECT)
	@mkdir -p $(BUILD)
	$(PYTHON) scripts/mkchecklists.py $@ $(CHECK_EXPECT)

$(BUILD)/checklists.o: $(BUILD)/checklists.c apm/checklist.h apm/check.h
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

# The survey QR code's preset dictionary (APMOFF3), from the file apmoff-collect reads too.
$(BUILD)/zdict.c: survey/survey3.zdict scripts/mkzdict.py
	@mkdir -p $(BUILD)
	$(PYTHON) scripts/mkzdict.py $@ $<

$(BUILD)/zdict.o: $(BUILD)/zdict.c
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

# The version and commit, as the kernel prints them (app/common/version.h); rewritten only
# when they change, so an unchanged tree does not relink.
$(BUILD)/version.c: FORCE
	@mkdir -p $(BUILD)
	@printf '#include "app/common/version.h"\n\nconst char apmoff_version[] = "%s";\nconst char apmoff_commit[] = "%s";\n' \
		'$(VERSION)' '$(COMMIT)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/version.o: $(BUILD)/version.c app/common/version.h
	$(CC) $(KERNEL_CFLAGS) -I. -c $< -o $@

# The same kernel carrying another commit's hash (each hex digit of this one's turned
# over: 0 for f, 1 for e ...), which only the survey's bytes see: make test boots it
# to prove nothing depends on the hash (tests/emu/cases_survey.py, other-hash).
OTHER_COMMIT := $(shell echo '$(COMMIT)' | \
	sed 'h; s/-.*//; y/0123456789abcdef/fedcba9876543210/; G; s/\n[0-9a-f]*//')
$(BUILD)/variants/version-other-hash.c: FORCE
	@mkdir -p $(dir $@)
	@printf '#include "app/common/version.h"\n\nconst char apmoff_version[] = "%s";\nconst char apmoff_commit[] = "%s";\n' \
		'$(VERSION)' '$(OTHER_COMMIT)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/variants/version-other-hash.o: $(BUILD)/variants/version-other-hash.c app/common/version.h
	$(CC) $(KERNEL_CFLAGS) -I. -c $< -o $@

$(BUILD)/variants/apmoff-other-hash.elf: $(filter-out $(BUILD)/version.o,$(OBJS)) \
		$(BUILD)/variants/version-other-hash.o boot/linker.ld
	$(LD) $(filter-out -Map $(BUILD)/apmoff.map,$(LDFLAGS)) -o $@ \
		$(filter-out $(BUILD)/version.o,$(OBJS)) $(BUILD)/variants/version-other-hash.o

# The menu, its titles naming the version.
$(BUILD)/grub.cfg: iso/grub.cfg FORCE
	@mkdir -p $(BUILD)
	@sed 's/@VERSION@/$(VERSION)/g' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

.PHONY: FORCE
FORCE:

$(BUILD)/trampoline.bin: realmode/trampoline.asm $(ASM_OFFSETS)
	$(NASM) -f bin -I$(BUILD)/ -Werror $< -o $@

$(BUILD)/realmode/trampoline_blob.o: $(BUILD)/trampoline.bin

# build/aml-run: the kernel's AML interpreter on the host, evaluating a method of real
# tables against acpiexec's region simulation (tools/aml_run.c).
AML_SRCS := $(AML_OBJS:.o=.c) lib/format.c lib/div64.c
$(BUILD)/aml-run: tools/aml_run.c $(AML_SRCS) $(wildcard aml/*.h) lib/format.h lib/div64.h
	@mkdir -p $(BUILD)
	gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ tools/aml_run.c $(AML_SRCS)

# The same with AddressSanitizer and UBSan, for make test's runs against ACPICA.
$(BUILD)/tests/aml-run-asan: tools/aml_run.c $(AML_SRCS) $(wildcard aml/*.h) lib/format.h lib/div64.h
	@mkdir -p $(dir $@)
	gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined -fno-omit-frame-pointer -o $@ tools/aml_run.c $(AML_SRCS)

$(BUILD)/tests/s5-bytes: tests/aml/s5_bytes.c survey/aml_s5.c survey/aml_s5.h
	@mkdir -p $(dir $@)
	gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined -o $@ tests/aml/s5_bytes.c survey/aml_s5.c

# --- running and testing ---------------------------------------------------------
deps:
	@scripts/deps.sh test
deps-build:
	@scripts/deps.sh build
deps-run:
	@scripts/deps.sh run

# make run: the ISO's menu, COM1 on this terminal (tests/emu/run.py). With ARGS, the
# kernel alone with those words: make run ARGS="action=survey wait=0". TIMEOUT=seconds
# ends it sooner; SCREEN=window, curses or vnc shows the PC's screen too (window needs a
# desktop and installs qemu-system-gui). ARGS reaches the program through the
# environment (make exports a variable given on its command line), so its quotes
# arrive as typed.
SCREENS := window curses vnc
SCREEN_HELP = make run: SCREEN=$(SCREEN) is not a way to show the screen: SCREEN=window (a desktop), curses (this terminal) or vnc (127.0.0.1:5900)
run: deps-run
	@$(if $(filter-out $(SCREENS),$(SCREEN)),echo "$(SCREEN_HELP)" >&2; exit 2)
	@$(if $(filter window,$(SCREEN)),scripts/deps.sh run qemu-system-gui)
	@$(MAKE) -s --no-print-directory $(if $(ARGS),$(ELF),$(ISO))
	@$(PYTHON) -m tests.emu.run $(if $(ARGS),--args "$$ARGS" $(ELF),$(ISO)) \
		$(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(SCREEN),--screen $(SCREEN))

# Not part of `test`: it builds and tests the tree once per planted bug (minutes).
.PHONY: mutate mutate-check
mutate: deps
	@$(PYTHON) -m tests.mutate.mutate
mutate-check: deps
	@$(PYTHON) -m tests.mutate.mutate --check

test: deps
	@$(MAKE) --no-print-directory build-all unit-bin
	@$(MAKE) --no-print-directory fuzz-bin
	@$(PYTHON) -m tests.run_all

# The fast tier (the group "quick" of tests/run_all.py): what a change is tried
# against before make test, which stays the whole suite and what CI runs.
check: deps
	@$(MAKE) --no-print-directory build-all unit-bin
	@$(PYTHON) -m tests.run_all -g quick

# The pages' generated blocks (tests/docs/generate.py): sizes and free space from the
# build, the menu, the mutant count, panels, tables and figures from real runs (QEMU and
# Bochs cases, one at a time). make test fails when a block is not what this writes.
.PHONY: docs
docs: deps
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) -m tests.docs.generate

# docs/real-bioses.md's "Tested on real BIOSes" table, from fresh 86Box runs.
real-bios-table: deps
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) -m tests.run_all --emu-only -k 86box --update-readme

include loader/loader.mk
include tests/unit/unit.mk
include tests/unit/survey.mk
include tests/fuzz/fuzz.mk
unit-bin: survey-unit-bin
-include iso/floppy.mk
-include tests/bench/bench.mk

clean:
	rm -rf $(BUILD) dist

# The release folder (release/dist.py), from the images of this commit.
.PHONY: dist
dist: deps
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) -m release.dist

-include $(OBJS:.o=.d)

# --- apmoff-collect (tools/apmoff-collect): reports into SQLite, HTML, CSV ------------
# collect-test: its tests (fixtures, then 12 live emulator runs and headless Chromium;
# then hostile input, tests/collect/test_hostile.py, test_bounds.py, test_output.py;
# then its parsers' fuzz targets, briefly, fuzz_collect.py);
# collect-screenshot: the same, and docs/collect-report.png from that report.
.PHONY: collect-test collect-screenshot
collect-test: deps
	@$(MAKE) --no-print-directory $(ELF)
	@$(PYTHON) -m tests.collect.test_collect
	@$(PYTHON) -m tests.collect.test_hostile
	@$(PYTHON) -m tests.collect.test_bounds
	@$(PYTHON) -m tests.collect.test_output
	@$(PYTHON) -m tests.collect.fuzz_collect

collect-screenshot: deps
	@$(MAKE) --no-print-directory $(ELF)
	@$(PYTHON) -m tests.collect.test_collect --update-screenshot
