# The 1.44 MB floppy image, included by the top Makefile (which defines BUILD, ELF, ISO).
#
#   make floppy     build/apmoff.img: GRUB i386-pc and the kernel on FAT12 (iso/mkfloppy.sh)
#
# `make` (all) builds it too.

FLOPPY := $(BUILD)/apmoff.img
AUTO_FLOPPY := $(BUILD)/apmoff-auto.img

.PHONY: floppy
all: $(FLOPPY) $(AUTO_FLOPPY)
floppy: $(FLOPPY)

$(FLOPPY): $(ELF) iso/grub.cfg iso/menu.modules iso/mkfloppy.sh iso/grub-no-cr4.py
	iso/mkfloppy.sh $@ $(ELF) iso/grub.cfg

$(AUTO_FLOPPY): $(ELF) $(AUTO_CFG) iso/menu.modules iso/mkfloppy.sh iso/grub-no-cr4.py
	iso/mkfloppy.sh $@ $(ELF) $(AUTO_CFG)

# The ISO embeds the same module list.
$(ISO): iso/menu.modules
