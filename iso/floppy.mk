# The floppy images, included by the top Makefile (which defines BUILD, ELF, AUTO_CFG).
#
#   make floppy     every floppy image: apmoff's loader (loader/) and the kernel on FAT12
#                   (iso/mkfloppy.sh)
#
#   build/apmoff.img        1.44 MB, 3.5" HD (the default image)
#   build/apmoff-1200.img   1.2 MB, 5.25" HD
#   build/apmoff-720.img    720 KB, 3.5" DD
#   build/apmoff-360.img    360 KB, 5.25" DD
#
# and for automation build/apmoff-auto.img, apmoff-auto-1200.img, -720.img, -360.img:
# the same menu with no countdown. `make` (all) builds them all; each build prints its
# image's free space and fails, leaving no image, when the files outgrow the format.

FLOPPY_FORMATS := 1200 720 360
FLOPPY := $(BUILD)/apmoff.img
FLOPPIES := $(FLOPPY) $(FLOPPY_FORMATS:%=$(BUILD)/apmoff-%.img)
AUTO_FLOPPY := $(BUILD)/apmoff-auto.img
AUTO_FLOPPIES := $(AUTO_FLOPPY) $(FLOPPY_FORMATS:%=$(BUILD)/apmoff-auto-%.img)
FLOPPY_DEPS := $(ELF) $(LOADER_BINS) iso/mkfloppy.sh iso/mkmenu.py

.PHONY: floppy
build-all: $(FLOPPIES) $(AUTO_FLOPPIES)
floppy: $(FLOPPIES)

$(FLOPPY): $(FLOPPY_DEPS) $(MENU)
	iso/mkfloppy.sh $@ $(ELF) $(MENU) 1440 "$(LABEL)"

$(FLOPPY_FORMATS:%=$(BUILD)/apmoff-%.img): $(BUILD)/apmoff-%.img: $(FLOPPY_DEPS) $(MENU)
	iso/mkfloppy.sh $@ $(ELF) $(MENU) $* "$(LABEL)"

$(AUTO_FLOPPY): $(FLOPPY_DEPS) $(AUTO_CFG)
	iso/mkfloppy.sh $@ $(ELF) $(AUTO_CFG) 1440 "$(LABEL)"

$(FLOPPY_FORMATS:%=$(BUILD)/apmoff-auto-%.img): $(BUILD)/apmoff-auto-%.img: $(FLOPPY_DEPS) \
		$(AUTO_CFG)
	iso/mkfloppy.sh $@ $(ELF) $(AUTO_CFG) $* "$(LABEL)"

# The ISO embeds GRUB's modules for its menu.
$(ISO): iso/menu.modules
