# Host unit tests (cmocka), included by the top Makefile, which defines BUILD (and ELF
# and PYTHON, for the loader's fixtures).
#
#   make unit-bin   build $(BUILD)/tests/test_*
#   make unit       build and run them all
#
# The project sources under test are compiled again for the host, with sanitizers,
# into $(BUILD)/host/ so they never mix with the kernel's i386 objects in $(BUILD)/.
# system/console.c is replaced by tests/unit/host_console.c (say() into a log).

# cmocka's flags, asked of pkg-config only when a test binary is built: at parse time,
# before scripts/deps.sh has run on a fresh machine, there is no pkg-config to ask.
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka)

UNIT_CC      := gcc
UNIT_CFLAGS  = -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer -MMD -MP \
	$(CMOCKA_CFLAGS)
UNIT_LDFLAGS := -fsanitize=address,undefined
UNIT_LDLIBS  = $(CMOCKA_LIBS)

HOST_DIR  := $(BUILD)/host
UNIT_DIR  := $(BUILD)/tests

# Objects of each test binary, by source path.
UNIT_APM_CASES    := install connect version demand pm desc query resume off poweroff text \
	check
UNIT_APM_OBJS     := tests/unit/test_apm.o $(UNIT_APM_CASES:%=tests/unit/apm_cases_%.o) \
	tests/unit/apm_fixture.o tests/unit/simbios.o tests/unit/host_console.o \
	apm/apm.o apm/apm_text.o apm/poweroff.o apm/check.o apm/pm_segs.o lib/biosregs.o \
	lib/format.o system/segdesc.o apm/resume.o lib/rtctime.o
UNIT_OPTIONS_OBJS := tests/unit/test_options.o tests/unit/host_console.o \
	app/common/options.o lib/format.o
UNIT_CHAIN_OBJS := tests/unit/test_chain.o tests/unit/host_console.o \
	app/common/chain.o app/common/options.o lib/format.o
UNIT_BOOTINFO_OBJS := tests/unit/test_bootinfo.o system/bootinfo.o
UNIT_FORMAT_OBJS  := tests/unit/test_format.o lib/format.o
UNIT_JSON_OBJS    := tests/unit/test_json.o lib/json.o lib/format.o
UNIT_SURVEYJSON_OBJS := tests/unit/test_survey_json.o app/show/surveyjson.o lib/json.o \
	system/cpuname.o \
	lib/format.o apm/apm.o apm/apm_text.o lib/biosregs.o tests/unit/host_console.o \
	survey/smbios.o survey/acpi.o survey/physmem.o app/facts/probe_disks.o survey/chipset.o \
	survey/pci.o survey/acpi_s5.o survey/acpi_tables.o survey/aml_s5.o survey/efi.o \
	apm/resume.o lib/rtctime.o app/reset/offer.o app/common/options.o

UNIT_CHECKLIST_OBJS := tests/unit/test_checklist.o apm/checklist.o build/checklists.o \
	apm/check.o apm/apm.o apm/apm_text.o apm/poweroff.o apm/pm_segs.o lib/biosregs.o \
	lib/format.o system/segdesc.o tests/unit/host_console.o apm/resume.o lib/rtctime.o

UNIT_SUMMARY_OBJS := tests/unit/test_summary.o app/show/summary.o lib/format.o apm/apm.o \
	apm/poweroff.o apm/apm_text.o lib/biosregs.o tests/unit/host_console.o apm/resume.o \
	lib/rtctime.o app/reset/resets.o app/reset/offer.o app/common/options.o lib/json.o \
	survey/acpi_s5.o survey/acpi_tables.o survey/aml_s5.o survey/physmem.o

UNIT_RESETS_OBJS := tests/unit/test_resets.o app/common/chain.o app/reset/resets.o app/reset/offer.o app/common/options.o \
	lib/json.o lib/format.o tests/unit/host_console.o

UNIT_RECORD_OBJS := tests/unit/test_record.o lib/record.o lib/rtctime.o lib/crc32.o \
	app/common/record_story.o lib/format.o

UNIT_QRPAGES_OBJS := tests/unit/test_qrpages.o survey/qrpages.o lib/crc32.o survey/qr.o \
	lib/format.o

UNIT_ROMID_OBJS := tests/unit/test_romid.o survey/romid.o lib/crc32.o lib/string.o

UNIT_SHA256_OBJS := tests/unit/test_sha256.o lib/sha256.o

UNIT_DUMPLINE_OBJS := tests/unit/test_dumpline.o lib/dumpline.o lib/crc32.o

UNIT_OPTIONROM_OBJS := tests/unit/test_optionrom.o survey/optionrom.o survey/physmem.o

UNIT_ACPI_LIST_OBJS := tests/unit/test_acpi_list.o survey/acpi_list.o lib/string.o

UNIT_FLASH_OBJS := tests/unit/test_flash.o survey/flash.o lib/format.o

UNIT_BIOS32_OBJS := tests/unit/test_bios32.o survey/bios32.o survey/physmem.o

UNIT_PROBES_OBJS := tests/unit/test_probes.o app/facts/probe_memory.o app/facts/probe_disks.o \
	app/facts/probe_video.o survey/vbe.o survey/physmem.o lib/biosregs.o lib/format.o lib/e820.o

UNIT_DEFLATE_OBJS := tests/unit/test_deflate.o survey/deflate.o survey/base45.o

UNIT_PIC_OBJS := tests/unit/test_pic.o lib/pic_init.o

UNIT_PITCLOCK_OBJS := tests/unit/test_pitclock.o lib/pitclock.o lib/rtctime.o lib/div64.o \
	lib/format.o

UNIT_UART_OBJS := tests/unit/test_uart.o lib/uart.o

UNIT_AML_OBJS := tests/unit/test_aml.o $(AML_OBJS) lib/format.o lib/div64.o

UNIT_FREEMEM_OBJS := tests/unit/test_freemem.o system/freemem.o

# The floppy loader's pure modules (loader/), against the files that
# tests/unit/loader_fixtures.py makes with mformat, Debian's lz4 and the kernel; mbinfo
# against the kernel's own reader of what it builds.
UNIT_LOADER_MENU_OBJS   := tests/unit/test_loader_menu.o loader/menu.o
UNIT_LOADER_FAT_OBJS    := tests/unit/test_loader_fat.o tests/unit/loader_fixture.o loader/fat.o
UNIT_LOADER_LZ4_OBJS    := tests/unit/test_loader_lz4.o tests/unit/loader_fixture.o loader/lz4.o
UNIT_LOADER_MBLOAD_OBJS := tests/unit/test_loader_mbload.o tests/unit/loader_fixture.o \
	loader/mbload.o loader/lz4.o
UNIT_LOADER_MBINFO_OBJS := tests/unit/test_loader_mbinfo.o loader/mbinfo.o system/bootinfo.o
UNIT_LOADER_TESTS := test_loader_menu test_loader_fat test_loader_lz4 test_loader_mbload \
	test_loader_mbinfo
LOADER_FIXTURES := $(UNIT_DIR)/loader-fixtures

UNIT_TESTS := test_deflate test_probes test_apm test_options test_chain test_bootinfo \
	test_format test_json test_survey_json test_summary test_qrpages test_romid \
	test_checklist test_pic test_pitclock test_uart test_aml test_freemem test_resets test_record \
	test_sha256 test_dumpline test_optionrom test_acpi_list test_flash test_bios32 \
	$(UNIT_LOADER_TESTS)
UNIT_BINS  := $(addprefix $(UNIT_DIR)/,$(UNIT_TESTS))
UNIT_OBJS  := $(sort $(addprefix $(HOST_DIR)/,$(UNIT_APM_OBJS) $(UNIT_OPTIONS_OBJS) $(UNIT_CHAIN_OBJS) \
	$(UNIT_BOOTINFO_OBJS) $(UNIT_FORMAT_OBJS) $(UNIT_JSON_OBJS) $(UNIT_SURVEYJSON_OBJS) \
	$(UNIT_SUMMARY_OBJS) $(UNIT_QRPAGES_OBJS) $(UNIT_ROMID_OBJS) $(UNIT_SHA256_OBJS) $(UNIT_DUMPLINE_OBJS) $(UNIT_OPTIONROM_OBJS) $(UNIT_ACPI_LIST_OBJS) $(UNIT_FLASH_OBJS) $(UNIT_BIOS32_OBJS) \
	$(UNIT_CHECKLIST_OBJS) $(UNIT_PROBES_OBJS) $(UNIT_DEFLATE_OBJS) $(UNIT_PIC_OBJS) $(UNIT_PITCLOCK_OBJS) $(UNIT_UART_OBJS) \
	$(UNIT_AML_OBJS) $(UNIT_FREEMEM_OBJS) $(UNIT_RESETS_OBJS) $(UNIT_RECORD_OBJS) \
	$(UNIT_LOADER_LZ4_OBJS) $(UNIT_LOADER_MBLOAD_OBJS) \
	$(UNIT_LOADER_MBINFO_OBJS) $(UNIT_LOADER_MENU_OBJS) $(UNIT_LOADER_FAT_OBJS)))

.PHONY: unit-bin unit
unit-bin: $(UNIT_BINS)

# Runs every binary even when one fails, then fails if any did.
unit: unit-bin
	@status=0; for t in $(UNIT_BINS); do echo "== $$t"; $$t || status=1; done; exit $$status

$(UNIT_DIR)/test_apm: $(addprefix $(HOST_DIR)/,$(UNIT_APM_OBJS))
$(UNIT_DIR)/test_options: $(addprefix $(HOST_DIR)/,$(UNIT_OPTIONS_OBJS))
$(UNIT_DIR)/test_chain: $(addprefix $(HOST_DIR)/,$(UNIT_CHAIN_OBJS))
$(UNIT_DIR)/test_bootinfo: $(addprefix $(HOST_DIR)/,$(UNIT_BOOTINFO_OBJS))
$(UNIT_DIR)/test_format: $(addprefix $(HOST_DIR)/,$(UNIT_FORMAT_OBJS))
$(UNIT_DIR)/test_json: $(addprefix $(HOST_DIR)/,$(UNIT_JSON_OBJS))
$(UNIT_DIR)/test_survey_json: $(addprefix $(HOST_DIR)/,$(UNIT_SURVEYJSON_OBJS))
$(UNIT_DIR)/test_summary: $(addprefix $(HOST_DIR)/,$(UNIT_SUMMARY_OBJS))
$(UNIT_DIR)/test_qrpages: $(addprefix $(HOST_DIR)/,$(UNIT_QRPAGES_OBJS))
$(UNIT_DIR)/test_romid: $(addprefix $(HOST_DIR)/,$(UNIT_ROMID_OBJS))
$(UNIT_DIR)/test_sha256: $(addprefix $(HOST_DIR)/,$(UNIT_SHA256_OBJS))
$(UNIT_DIR)/test_dumpline: $(addprefix $(HOST_DIR)/,$(UNIT_DUMPLINE_OBJS))
$(UNIT_DIR)/test_optionrom: $(addprefix $(HOST_DIR)/,$(UNIT_OPTIONROM_OBJS))
$(UNIT_DIR)/test_acpi_list: $(addprefix $(HOST_DIR)/,$(UNIT_ACPI_LIST_OBJS))
$(UNIT_DIR)/test_flash: $(addprefix $(HOST_DIR)/,$(UNIT_FLASH_OBJS))
$(UNIT_DIR)/test_bios32: $(addprefix $(HOST_DIR)/,$(UNIT_BIOS32_OBJS))
$(UNIT_DIR)/test_checklist: $(addprefix $(HOST_DIR)/,$(UNIT_CHECKLIST_OBJS))
$(UNIT_DIR)/test_probes: $(addprefix $(HOST_DIR)/,$(UNIT_PROBES_OBJS))
$(UNIT_DIR)/test_deflate: $(addprefix $(HOST_DIR)/,$(UNIT_DEFLATE_OBJS))
$(UNIT_DIR)/test_deflate: UNIT_LDLIBS += -lz
$(UNIT_DIR)/test_pic: $(addprefix $(HOST_DIR)/,$(UNIT_PIC_OBJS))
$(UNIT_DIR)/test_pitclock: $(addprefix $(HOST_DIR)/,$(UNIT_PITCLOCK_OBJS))
$(UNIT_DIR)/test_uart: $(addprefix $(HOST_DIR)/,$(UNIT_UART_OBJS))
$(UNIT_DIR)/test_aml: $(addprefix $(HOST_DIR)/,$(UNIT_AML_OBJS))
$(UNIT_DIR)/test_freemem: $(addprefix $(HOST_DIR)/,$(UNIT_FREEMEM_OBJS))
$(UNIT_DIR)/test_resets: $(addprefix $(HOST_DIR)/,$(UNIT_RESETS_OBJS))
$(UNIT_DIR)/test_record: $(addprefix $(HOST_DIR)/,$(UNIT_RECORD_OBJS))
$(UNIT_DIR)/test_loader_menu: $(addprefix $(HOST_DIR)/,$(UNIT_LOADER_MENU_OBJS))
$(UNIT_DIR)/test_loader_fat: $(addprefix $(HOST_DIR)/,$(UNIT_LOADER_FAT_OBJS))
$(UNIT_DIR)/test_loader_lz4: $(addprefix $(HOST_DIR)/,$(UNIT_LOADER_LZ4_OBJS))
$(UNIT_DIR)/test_loader_mbload: $(addprefix $(HOST_DIR)/,$(UNIT_LOADER_MBLOAD_OBJS))
$(UNIT_DIR)/test_loader_mbinfo: $(addprefix $(HOST_DIR)/,$(UNIT_LOADER_MBINFO_OBJS))
# Made before the binaries that read them (order-only: they are data, not objects).
$(UNIT_LOADER_TESTS:%=$(UNIT_DIR)/%): | $(LOADER_FIXTURES)/.done
$(HOST_DIR)/tests/unit/loader_fixture.o: UNIT_CFLAGS += \
	-DLOADER_FIXTURES='"$(abspath $(LOADER_FIXTURES))"'

# Diskettes by mformat, frames by lz4, the kernel stripped and packed as
# iso/mkfloppy.sh does: the fixtures of the loader's tests (loader_fixtures.py says
# what each is).
$(LOADER_FIXTURES)/.done: tests/unit/loader_fixtures.py $(ELF)
	@rm -rf $(dir $@) && mkdir -p $(dir $@)
	$(PYTHON) tests/unit/loader_fixtures.py $(dir $@) $(ELF)
	@touch $@

$(UNIT_BINS):
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_LDFLAGS) -o $@ $^ $(UNIT_LDLIBS)

# More specific than the kernel's $(BUILD)/%.o rule, so make prefers it.
$(HOST_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

-include $(UNIT_OBJS:.o=.d)
