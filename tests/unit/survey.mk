# Host unit tests of survey/ (cmocka), included by the top Makefile, which defines BUILD.
#
#   make survey-unit-bin   build $(BUILD)/tests/test_qr, test_smbios, test_acpi, test_pci,
#                          test_chipset, test_acpi_tables, test_aml_s5
#   make survey-unit       build and run them
#   make survey-size       the survey objects as the kernel builds them, and their sizes
#
# Self-contained (it does not lean on unit.mk's variables), with object paths of its
# own so they never meet unit.mk's $(BUILD)/host/ objects: survey/*.c goes to
# $(BUILD)/host/survey/ and the test sources to $(BUILD)/host/survey-tests/. The C
# library provides memcpy and friends on the host; survey/ formats nothing, so no
# lib/format.c is needed. test_qr runs zbarimg (zbar-tools) for its decoder round
# trips and skips those tests, saying so, when it is not installed.

# Distinct names: the top Makefile has SURVEY_OBJS (the kernel's survey objects).
SURVEY_UNIT_CC      := gcc
SURVEY_UNIT_CFLAGS  = -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer -MMD -MP \
	$(CMOCKA_CFLAGS)
SURVEY_UNIT_LDFLAGS := -fsanitize=address,undefined
SURVEY_UNIT_LDLIBS  = $(CMOCKA_LIBS)

SURVEY_UNIT_SRC  := $(BUILD)/host/survey
SURVEY_UNIT_TST  := $(BUILD)/host/survey-tests
SURVEY_UNIT_BIN  := $(BUILD)/tests

# Objects of each test binary.
SURVEY_UNIT_QR     := $(SURVEY_UNIT_TST)/test_qr.o $(SURVEY_UNIT_TST)/qr_read.o \
	$(SURVEY_UNIT_SRC)/qr.o
SURVEY_UNIT_SMBIOS := $(SURVEY_UNIT_TST)/test_smbios.o $(SURVEY_UNIT_SRC)/smbios.o \
	$(SURVEY_UNIT_SRC)/physmem.o
SURVEY_UNIT_ACPI   := $(SURVEY_UNIT_TST)/test_acpi.o $(SURVEY_UNIT_SRC)/acpi.o \
	$(SURVEY_UNIT_SRC)/physmem.o

SURVEY_UNIT_PCI    := $(SURVEY_UNIT_TST)/test_pci.o $(SURVEY_UNIT_SRC)/pci.o
SURVEY_UNIT_CHIPSET := $(SURVEY_UNIT_TST)/test_chipset.o $(SURVEY_UNIT_SRC)/chipset.o \
	$(SURVEY_UNIT_SRC)/softoff.o \
	$(SURVEY_UNIT_SRC)/pci.o
SURVEY_UNIT_ACPI_TABLES := $(SURVEY_UNIT_TST)/test_acpi_tables.o \
	$(SURVEY_UNIT_SRC)/acpi_tables.o $(SURVEY_UNIT_SRC)/acpi_s5.o \
	$(SURVEY_UNIT_SRC)/aml_s5.o $(SURVEY_UNIT_SRC)/physmem.o
SURVEY_UNIT_AML_S5 := $(SURVEY_UNIT_TST)/test_aml_s5.o $(SURVEY_UNIT_SRC)/aml_s5.o
SURVEY_UNIT_EFI    := $(SURVEY_UNIT_TST)/test_efi.o $(SURVEY_UNIT_SRC)/efi.o

SURVEY_UNIT_BINS := $(addprefix $(SURVEY_UNIT_BIN)/,test_qr test_smbios test_acpi test_pci \
	test_chipset test_acpi_tables test_aml_s5 test_efi)
SURVEY_UNIT_OBJS := $(sort $(SURVEY_UNIT_QR) $(SURVEY_UNIT_SMBIOS) $(SURVEY_UNIT_ACPI) \
	$(SURVEY_UNIT_PCI) $(SURVEY_UNIT_CHIPSET) $(SURVEY_UNIT_ACPI_TABLES) $(SURVEY_UNIT_AML_S5) \
	$(SURVEY_UNIT_EFI))
SURVEY_UNIT_KERNEL_OBJS := $(addprefix $(BUILD)/survey/,physmem.o qr.o smbios.o acpi.o pci.o \
	chipset.o acpi_tables.o aml_s5.o acpi_s5.o)

.PHONY: survey-unit-bin survey-unit survey-size
survey-unit-bin: $(SURVEY_UNIT_BINS)

# Runs every binary even when one fails, then fails if any did.
survey-unit: survey-unit-bin
	@status=0; for t in $(SURVEY_UNIT_BINS); do echo "== $$t"; $$t || status=1; done; exit $$status

# Through the kernel's own $(BUILD)/%.o rule and flags.
survey-size: $(SURVEY_UNIT_KERNEL_OBJS)
	size $^

$(SURVEY_UNIT_BIN)/test_qr: $(SURVEY_UNIT_QR)
$(SURVEY_UNIT_BIN)/test_smbios: $(SURVEY_UNIT_SMBIOS)
$(SURVEY_UNIT_BIN)/test_acpi: $(SURVEY_UNIT_ACPI)
$(SURVEY_UNIT_BIN)/test_pci: $(SURVEY_UNIT_PCI)
$(SURVEY_UNIT_BIN)/test_chipset: $(SURVEY_UNIT_CHIPSET)
$(SURVEY_UNIT_BIN)/test_acpi_tables: $(SURVEY_UNIT_ACPI_TABLES)
$(SURVEY_UNIT_BIN)/test_aml_s5: $(SURVEY_UNIT_AML_S5)
$(SURVEY_UNIT_BIN)/test_efi: $(SURVEY_UNIT_EFI)

$(SURVEY_UNIT_BINS):
	@mkdir -p $(dir $@)
	$(SURVEY_UNIT_CC) $(SURVEY_UNIT_LDFLAGS) -o $@ $^ $(SURVEY_UNIT_LDLIBS)

$(SURVEY_UNIT_SRC)/%.o: survey/%.c
	@mkdir -p $(dir $@)
	$(SURVEY_UNIT_CC) $(SURVEY_UNIT_CFLAGS) -c $< -o $@

$(SURVEY_UNIT_TST)/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(SURVEY_UNIT_CC) $(SURVEY_UNIT_CFLAGS) -c $< -o $@

-include $(SURVEY_UNIT_OBJS:.o=.d)
