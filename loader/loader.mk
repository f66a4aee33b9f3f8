# The floppy loader (loader/), included by the top Makefile (which defines BUILD, CC,
# NASM, PYTHON, VERSION).
#
#   build/loader/bootsect.bin   the boot sector (512 bytes; mformat writes the BPB in)
#   build/loader/stage2.bin     the second stage, sealed (scripts/sealstage2.py)
#
# The C is built with gcc -m16, as Linux builds arch/x86/boot: 32-bit code with the
# prefixes that make it run in real mode, for the 386 (no FPU, no SSE). Its pointers
# reach past 64 KiB (unreal mode), but a string instruction it emits would run with
# 16-bit SI and DI: -mstringop-strategy=loop copies structures with loops instead,
# and tests/check_loader.py finds any string instruction left.

LOADER_BUILD := $(BUILD)/loader
LOADER_CFLAGS := -m16 -march=i386 -mtune=i386 -mregparm=3 -ffreestanding -fno-pic \
	-fno-pie -fno-stack-protector -fno-builtin -fno-tree-loop-distribute-patterns \
	-fno-asynchronous-unwind-tables -mgeneral-regs-only -std=gnu11 -Os \
	-mstringop-strategy=loop \
	-ffunction-sections -fdata-sections -Wall -Wextra -Werror -Wmissing-prototypes \
	-MMD -MP
LOADER_C := loader/main.c loader/console.c loader/disk.c loader/fat.c loader/menu.c \
	loader/menuui.c loader/lz4.c loader/mbload.c loader/mbinfo.c loader/memory.c \
	lib/format.c lib/string.c lib/biosregs.c lib/uart.c lib/e820.c
LOADER_OBJS := $(LOADER_BUILD)/head.o $(LOADER_BUILD)/copy.o \
	$(LOADER_C:%.c=$(LOADER_BUILD)/obj/%.o) \
	$(LOADER_BUILD)/version.o
LOADER_BINS := $(LOADER_BUILD)/bootsect.bin $(LOADER_BUILD)/stage2.bin

.PHONY: loader
loader: $(LOADER_BINS)
build-all: $(LOADER_BINS)

$(LOADER_BUILD)/bootsect.bin: loader/bootsect.asm $(BUILD)/loader-offsets.inc
	@mkdir -p $(dir $@)
	$(NASM) -f bin -Werror -I$(BUILD)/ -l $(@:.bin=.lst) $< -o $@

$(LOADER_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(LOADER_CFLAGS) -c $< -o $@

$(BUILD)/loader-offsets.inc: loader/asm-offsets.c
	$(asm_constants)
-include $(BUILD)/loader-offsets.s.d

$(LOADER_BUILD)/head.o: loader/head.asm $(BUILD)/loader-offsets.inc
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

$(LOADER_BUILD)/copy.o: loader/copy.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

$(LOADER_BUILD)/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf '#include "loader/version.h"\n\nconst char loader_version[] = "%s";\n' \
		'$(VERSION)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(LOADER_BUILD)/version.o: $(LOADER_BUILD)/version.c loader/version.h
	$(CC) $(LOADER_CFLAGS) -I. -c $< -o $@

$(LOADER_BUILD)/stage2.elf: $(LOADER_OBJS) loader/loader.ld
	$(LD) -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments --gc-sections \
		-T loader/loader.ld -Map $(LOADER_BUILD)/stage2.map -o $@ $(LOADER_OBJS)

$(LOADER_BUILD)/stage2.bin: $(LOADER_BUILD)/stage2.elf scripts/sealstage2.py
	objcopy -O binary -j .head -j .text -j .rodata -j .data $< $@.raw
	$(PYTHON) scripts/sealstage2.py $@.raw $@
	@rm -f $@.raw

-include $(LOADER_OBJS:.o=.d)
