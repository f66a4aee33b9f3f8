/* test_survey_json: the survey's JSON line (app/show/surveyjson.c) from a state where
 * every field is filled and every value differs from its neighbours, compared whole
 * with the line docs/survey.md's schema promises: a field filled from the wrong source, left
 * out or mis-escaped changes the text. One more state covers the branches the first
 * does not take (no CPUID, no APM, nothing found, UEFI). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../system/cpuname.h"
#include "../../app/show/surveyjson.h"
#include "../../apm/apm_spec.h"

static char buf[SURVEY_JSON_MAX];
static struct reset_offer resets;      /* the reset methods, as app/reset/ways.c decides them */

static void fill_machine(struct survey *sv, struct bootinfo *bi)
{
    memset(sv, 0, sizeof(*sv));
    memset(bi, 0, sizeof(*bi));
    sv->firmware = "bios";
    sv->bios_calls = true;
    sv->cpu = (struct cpu_info){ .class = "cpuid", .has_cpuid = true,
                                 .vendor = "GenuineIntel", .name = "Pentium \"MMX\"",
                                 .family = 5, .model = 4, .stepping = 3,
                                 .fpu = true, .fpu_kind = "integrated", .tsc = false };
    sv->clock = (struct cpu_clock){ 66670, "div-loop" };
    sv->have_int12 = true;
    sv->mem.have_e820 = true;
    sv->mem.e820_count = 2;
    sv->mem.e820[0] = (struct e820_entry){ 0, 0x9F800, 1 };
    sv->mem.e820[1] = (struct e820_entry){ 0x100000, 0x7EF0000, 1 };
    sv->mem.e820_truncated = true;
    sv->mem.have_e801 = true;
    sv->mem.e801_1m_16m_kb = 15360;
    sv->mem.e801_above_16m_64k = 1775;
    sv->mem.have_88 = true;
    sv->mem.ext_kb = 64512;
    sv->disks.floppy_a = 4;
    sv->disks.floppy_b = 1;
    sv->disks.hdd_count = 2;
    sv->disks.hdd_probed = 2;
    sv->disks.hdd[0] = (struct hdd_info){ .drive = 0x80, .cylinders = 1024, .heads = 16,
                                          .sectors = 63, .edd_version = 0x21,
                                          .have_edd_params = true,
                                          .edd_sectors = 2097152, .edd_sector_size = 512 };
    sv->disks.hdd[1] = (struct hdd_info){ .drive = 0x81, .cylinders = 615, .heads = 4,
                                          .sectors = 17 };
    sv->pci.bios_present = true;
    sv->pci.bios_major = 2;
    sv->pci.bios_minor = 0x10;
    sv->pci.bios_last_bus = 0;
    sv->pci.mech = PCI_MECH_1;
    sv->pci.buses = 1;
    sv->pci.count = 2;
    sv->pci.fn[0] = (struct pci_function){ .vendor = 0x8086, .device = 0x1250,
                                           .class_code = 6, .revision = 3 };
    sv->pci.fn[1] = (struct pci_function){ .dev = 7, .fn = 1, .vendor = 0x8086,
                                           .device = 0x7010, .class_code = 1, .subclass = 1,
                                           .prog_if = 0x80, .sub_vendor = 0x1043,
                                           .sub_device = 0x8001, .irq_pin = 1,
                                           .irq_line = 14 };
    sv->chipset.soft_off = SOFT_OFF_NO;
    snprintf(sv->chipset.name, sizeof(sv->chipset.name), "Intel 430HX (PIIX3)");
    snprintf(sv->chipset.explain, sizeof(sv->chipset.explain), "no soft-off");
    sv->chipset.reset_cf9 = sv->chipset.port92 = FACT_YES;
    sv->chipset.reset_cf9_by = sv->chipset.port92_by = "PIIX3";
    /* a FADT of revision 3 whose RESET_REG is CF9h, an 8042, no UEFI */
    static struct acpi_fadt fadt = {
        .length = 244, .revision = 3, .have_flags = true, .have_reset = true,
        .flags = ACPI_FADT_RESET_REG_SUP, .reset_value = 0x06,
        .reset_reg = { .space = ACPI_SPACE_IO, .bit_width = 8, .addr = 0xCF9 },
    };
    const struct reset_facts facts = {
        .kbc = true, .kbc_status = 0x1C, .pci_mech = 1, .chipset = &sv->chipset,
        .fadt = &fadt, .efi_why = "no EFI system table",
    };
    reset_offer_find(&facts, &resets);
    sv->record = "reset:kbd:warm";
    sv->video.have_dcc = true;
    sv->video.dcc_active = 0x08;
    sv->video.adapter = "VGA";
    sv->video.vbe = (struct vbe_info){ .valid = true, .version = 0x0200, .memory_64k = 16,
                                       .oem = "S3 Incorporated. Trio64",
                                       .vendor = "S3", .product = "Trio64",
                                       .product_rev = "1.0" };
    sv->int12_kb = 639;
    sv->map_available_kb = 130424;
    snprintf(sv->bios_date, sizeof(sv->bios_date), "11/22/96");
    sv->model_byte = 0xFC;
    sv->rom.crc32 = 0x1A2B3C4D;
    sv->rom.count = 2;
    strcpy(sv->rom.strings[0], "Award Modular BIOS v4.51PG");
    strcpy(sv->rom.strings[1], "(C) \"Award\" 1996");
    sv->label = "bench 3";
    sv->version = "0.2";
    sv->commit = "31e4713ab3ec";
    sv->smbios.status = SMBIOS_OK;
    sv->smbios.major = 2;
    sv->smbios.minor = 8;
    sv->smbios.have_bios = true;
    snprintf(sv->smbios.bios_vendor, sizeof(sv->smbios.bios_vendor), "Acme\\BIOS");
    snprintf(sv->smbios.bios_version, sizeof(sv->smbios.bios_version), "4.51PG");
    snprintf(sv->smbios.bios_date, sizeof(sv->smbios.bios_date), "11/22/1996");
    sv->smbios.have_system = true;
    snprintf(sv->smbios.sys_vendor, sizeof(sv->smbios.sys_vendor), "Vintage PC Co");
    snprintf(sv->smbios.sys_product, sizeof(sv->smbios.sys_product), "Model 486DX2");
    snprintf(sv->smbios.sys_version, sizeof(sv->smbios.sys_version), "Rev\tB");
    sv->acpi.status = ACPI_RSDP_OK;
    sv->acpi.revision = 2;
    snprintf(sv->acpi.oem_id, sizeof(sv->acpi.oem_id), "BOCHS ");
    bi->protocol = 1;
    snprintf(bi->loader, sizeof(bi->loader), "GRUB 2.06");
    bi->have_mem = true;
    bi->mem_lower_kb = 638;
    bi->mem_upper_kb = 130048;
    bi->mmap_count = 2;
    bi->mmap[0] = (struct mmap_entry){ 0, 0x9FC00, 1 };
    bi->mmap[1] = (struct mmap_entry){ 0x100000, 0x7EE0000, 2 };
}

static void fill_apm(struct apm_state *apm)
{
    memset(apm, 0, sizeof(*apm));
    apm->present = true;
    apm->raw_version = 0x0102;
    apm->version = 0x0102;
    apm->signature_ok = true;
    apm->flags = 0x0003;
    struct apm_iface_result *rm = &apm->ifaces[APM_IFACE_RM];
    rm->tried = true;
    rm->connected = true;
    rm->conn_version = 0x0102;
    struct apm_iface_result *p32 = &apm->ifaces[APM_IFACE_PM32];
    p32->tried = true;
    p32->connected = true;
    p32->conn_version = 0x0101;
    p32->have_pm = true;
    p32->pm = (struct apm_pm_info){ .code32_seg = 0xF000, .code16_seg = 0xE000,
                                    .data_seg = 0xD000, .entry = 0x1234,
                                    .raw_code32_len = 0x2222, .raw_code16_len = 0x1111,
                                    .raw_data_len = 0x3333 };
    p32->off_tried = true;
    snprintf(p32->off_result, sizeof(p32->off_result), "failure injected");
    struct apm_iface_result *p16 = &apm->ifaces[APM_IFACE_PM16];
    p16->tried = true;
    p16->connect_result = 0x86;
    apm->have_status = true;
    apm->status = (struct apm_power_status){ .ac_line = 0x01, .battery_status = 0x03,
                                             .battery_flag = 0x08, .life_percent = 57,
                                             .life_time = 0x8005, .battery_count = 2 };
    apm->have_caps = true;
    apm->capabilities = 0x000F;
    apm->battery_units = 1;
    apm->log_count = 3;
    apm->log[0] = (struct apm_log_entry){ "rm", 0x00, 0 };
    apm->log[1] = (struct apm_log_entry){ "rm", 0x03, 0x86 };
    apm->log[2] = (struct apm_log_entry){ "pm32", 0x07, APM_RESULT_INJECTED };
}

static void test_everything_filled(void **state)
{
    struct survey sv;
    struct bootinfo bi;
    struct apm_state apm;
    (void)state;
    fill_machine(&sv, &bi);
    fill_apm(&apm);
    assert_true(survey_json(&sv, &bi, &apm, &resets, "action=survey wait=0", buf, sizeof(buf)));
    assert_string_equal(buf,
        "{\"schema\":1,\"version\":\"0.2\",\"commit\":\"31e4713ab3ec\","
        "\"firmware\":\"bios\",\"loader\":\"GRUB 2.06\",\"multiboot\":1,"
        "\"options\":\"action=survey wait=0\",\"label\":\"bench 3\","
        "\"record\":\"reset:kbd:warm\","
        "\"cpu\":{\"class\":\"cpuid\",\"vendor\":\"GenuineIntel\",\"family\":5,"
        "\"model\":4,\"stepping\":3,\"name\":\"Pentium \\\"MMX\\\"\",\"fpu\":true,"
        "\"fpu_kind\":\"integrated\",\"tsc\":false,\"clock_khz\":66670,"
        "\"clock_method\":\"div-loop\"},"
        "\"memory\":{\"int12_kb\":639,\"lower_kb\":638,\"upper_kb\":130048,"
        "\"map_available_kb\":130424,\"map\":[\"0+9FC00:1\",\"100000+7EE0000:2\"],"
        "\"e820\":[\"0+9F800:1\",\"100000+7EF0000:1\"],\"e820_truncated\":true,"
        "\"e801_1m_16m_kb\":15360,\"e801_above_16m_64k\":1775,\"ext88_kb\":64512},"
        "\"bios\":{\"date\":\"11/22/96\",\"model_byte\":\"0xFC\",\"rom_crc32\":\"0x1A2B3C4D\","
        "\"strings\":[\"Award Modular BIOS v4.51PG\",\"(C) \\\"Award\\\" 1996\"]},"
        "\"video\":{\"adapter\":\"VGA\",\"dcc\":\"0x08\",\"vbe\":{\"version\":\"0x0200\","
        "\"memory_kb\":1024,\"oem\":\"S3 Incorporated. Trio64\",\"vendor\":\"S3\","
        "\"product\":\"Trio64\",\"revision\":\"1.0\"}},"
        "\"disks\":{\"floppy_a\":\"1.44M\",\"floppy_b\":\"360K\",\"hdd_count\":2,\"hdd\":["
        "{\"drive\":\"0x80\",\"cylinders\":1024,\"heads\":16,\"sectors\":63,"
        "\"edd\":\"0x21\",\"total_sectors\":2097152,\"sector_size\":512},"
        "{\"drive\":\"0x81\",\"cylinders\":615,\"heads\":4,\"sectors\":17}]},"
        "\"smbios\":{\"found\":true,\"version\":\"2.8\",\"status\":\"ok\","
        "\"bios_vendor\":\"Acme\\\\BIOS\",\"bios_version\":\"4.51PG\","
        "\"bios_date\":\"11/22/1996\",\"manufacturer\":\"Vintage PC Co\","
        "\"product\":\"Model 486DX2\",\"version_string\":\"Rev\\u0009B\"},"
        "\"acpi\":{\"found\":true,\"revision\":2,\"oem\":\"BOCHS \",\"status\":\"ok\"},"
        "\"pci\":{\"bios\":\"2.10\",\"last_bus\":0,\"mechanism\":1,\"buses\":1,"
        "\"functions\":[\"00:00.0 8086:1250 060000 03\","
        "\"00:07.1 8086:7010 010180 00 1043:8001 1/0E\"]},"
        "\"chipset\":{\"name\":\"Intel 430HX (PIIX3)\",\"soft_off\":\"no\","
        "\"explain\":\"no soft-off\"},"
        "\"reset\":\"kbd,pci,port92,acpi,triple,bios\",\"reset_acpi\":\"io:0CF9=06\","
        "\"apm\":{\"present\":true,\"version\":\"1.2\",\"raw_version\":\"0x0102\","
        "\"signature\":true,\"flags\":\"0x0003\","
        "\"flags_text\":\"16-bit PM interface, 32-bit PM interface\","
        "\"interfaces\":{"
        "\"rm\":{\"tried\":true,\"connect\":\"ok\",\"connection\":\"1.2\"},"
        "\"pm32\":{\"tried\":true,\"connect\":\"ok\",\"connection\":\"1.1\","
        "\"code32_seg\":\"0xF000\",\"code32_len\":\"0x2222\",\"code16_seg\":\"0xE000\","
        "\"code16_len\":\"0x1111\",\"data_seg\":\"0xD000\",\"data_len\":\"0x3333\","
        "\"entry\":\"0x1234\",\"off\":\"failure injected\"},"
        "\"pm16\":{\"tried\":true,\"connect\":\"error 86h: APM not present\"}},"
        "\"power\":{\"ac_line\":\"0x01\",\"ac_line_text\":\"on-line\","
        "\"battery_status\":\"0x03\",\"battery_status_text\":\"charging\","
        "\"battery_flag\":\"0x08\",\"life_percent\":57,\"life_seconds\":300,"
        "\"battery_count\":2},"
        "\"capabilities\":\"0x000F\",\"battery_units\":1,"
        "\"resume_timer\":\"standby,suspend\","
        "\"steps\":\"rm:5300=ok,rm:5303=86,pm32:5307=injected\"}}");
}

/* The other branches: a 386 (no CPUID), UEFI (no BIOS calls, the EFI object), no
 * SMBIOS, no ACPI, no APM, unknown battery life. */
static void test_uefi_386_nothing_found(void **state)
{
    struct survey sv;
    struct bootinfo bi;
    struct apm_state apm;
    (void)state;
    fill_machine(&sv, &bi);
    sv.firmware = "uefi";
    sv.bios_calls = false;
    sv.label = "";                      /* an empty label= is no field at all */
    sv.version = NULL;                  /* a caller that does not know it: no fields */
    sv.cpu = (struct cpu_info){ .class = "386", .fpu = false, .fpu_kind = "none",
                                .tsc = false };
    sv.clock = (struct cpu_clock){ 0, "none" };
    sv.have_int12 = false;
    sv.efi = (struct efi_info){ .valid = true, .revision = 0x00020046,
                                .vendor = "EDK II" };
    sv.smbios.status = SMBIOS_NOT_FOUND;
    sv.acpi.status = ACPI_RSDP_NOT_FOUND;
    memset(&sv.pci, 0, sizeof(sv.pci));
    memset(&sv.chipset, 0, sizeof(sv.chipset));
    snprintf(sv.chipset.explain, sizeof(sv.chipset.explain), "no PCI");
    sv.record = NULL;                 /* no record found: no field */
    const struct reset_facts none = {
        .kbc_status = 0xFF, .isa = true, .no_fadt = "no RSDP",
        .efi_why = "no runtime services table", .bios_why = "no BIOS calls here",
    };
    reset_offer_find(&none, &resets);
    bi.protocol = 2;
    bi.have_mem = false;
    bi.mmap_count = 0;
    assert_true(survey_json(&sv, &bi, NULL, &resets, "", buf, sizeof(buf)));
    assert_string_equal(buf,
        "{\"schema\":1,\"firmware\":\"uefi\",\"loader\":\"GRUB 2.06\",\"multiboot\":2,"
        "\"options\":\"\",\"cpu\":{\"class\":\"386\",\"name\":\"386\",\"fpu\":false,"
        "\"fpu_kind\":\"none\",\"tsc\":false},"
        "\"memory\":{\"map_available_kb\":130424,\"map\":[]},"
        "\"efi\":{\"vendor\":\"EDK II\",\"revision\":\"0x00020046\",\"x64\":false,\"runtime_services\":false},"
        "\"smbios\":{\"found\":false},\"acpi\":{\"found\":false},"
        "\"pci\":{\"mechanism\":0},"
        "\"chipset\":{\"soft_off\":\"unknown\",\"explain\":\"no PCI\"},"
        "\"reset\":\"triple\"}");

    memset(&apm, 0, sizeof(apm));
    fill_apm(&apm);
    apm.status.life_percent = 0xFF;
    apm.status.life_time = APM_UNKNOWN16;
    apm.have_caps = false;
    assert_true(survey_json(&sv, &bi, &apm, &resets, "", buf, sizeof(buf)));
    assert_non_null(strstr(buf, "\"life_percent\":null,\"life_seconds\":null,"
                                "\"battery_count\":2},\"steps\""));
    apm.present = false;
    assert_true(survey_json(&sv, &bi, &apm, &resets, "", buf, sizeof(buf)));
    assert_non_null(strstr(buf, "\"apm\":{\"present\":false,\"steps\":"));

    /* No UEFI and no BIOS (an empty INT 15h vector): said, with the reason. */
    sv.firmware = "none";
    sv.firmware_reason = "the INT 15h vector is zero: no legacy BIOS";
    sv.efi.valid = false;
    assert_true(survey_json(&sv, &bi, NULL, &resets, "", buf, sizeof(buf)));
    assert_non_null(strstr(buf, "{\"schema\":1,\"firmware\":\"none\",\"firmware_reason\":"
                                "\"the INT 15h vector is zero: no legacy BIOS\",\"loader\":"));
}

/* cpu.name without a brand string: from the class, or CPUID's vendor, family and
 * model (system/cpuname.h); a brand string always wins. */
static void test_cpu_names(void **state)
{
    static const struct {
        const char *class, *vendor;
        unsigned family, model;
        bool fpu, mmx;
        const char *brand, *name;
    } rows[] = {
        { "386", "", 0, 0, false, false, "", "386" },
        { "386", "", 0, 0, true, false, "", "386" },
        { "486", "", 0, 0, true, false, "", "486DX" },
        { "486", "", 0, 0, false, false, "", "486SX" },
        { "cpuid", "GenuineIntel", 4, 8, true, false, "", "486DX4" },
        { "cpuid", "GenuineIntel", 4, 2, false, false, "", "486SX" },
        { "cpuid", "GenuineIntel", 4, 3, true, false, "", "486DX2" },
        { "cpuid", "GenuineIntel", 4, 6, true, false, "", "486" },
        { "cpuid", "GenuineIntel", 5, 2, true, false, "", "Pentium" },
        { "cpuid", "GenuineIntel", 5, 4, true, true, "", "Pentium MMX" },
        { "cpuid", "GenuineIntel", 6, 1, true, false, "", "Pentium Pro" },
        { "cpuid", "GenuineIntel", 6, 5, true, true, "", "Pentium II" },
        { "cpuid", "GenuineIntel", 6, 7, true, true, "", "Pentium III" },
        { "cpuid", "GenuineIntel", 6, 0x3A, true, true, "", "P6 family" },
        { "cpuid", "GenuineIntel", 15, 2, true, true, "", "GenuineIntel family 15" },
        { "cpuid", "AuthenticAMD", 4, 15, true, false, "", "Am5x86" },
        { "cpuid", "AuthenticAMD", 4, 8, true, false, "", "Am486" },
        { "cpuid", "AuthenticAMD", 5, 8, true, true, "", "K6-2" },
        { "cpuid", "CyrixInstead", 5, 2, true, false, "", "6x86" },
        { "cpuid", "UMC UMC UMC ", 4, 1, false, false, "", "UMC UMC UMC  family 4" },
        { "cpuid", "GenuineIntel", 6, 7, true, true, "Intel(R) Pentium(R) III", "Intel(R) Pentium(R) III" },
    };
    char name[49];
    (void)state;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct cpu_info c = { .class = rows[i].class, .fpu = rows[i].fpu,
                              .family = rows[i].family, .model = rows[i].model,
                              .has_cpuid = !strcmp(rows[i].class, "cpuid"),
                              .features_edx = rows[i].mmx ? 1u << 23 : 0 };
        snprintf(c.vendor, sizeof(c.vendor), "%s", rows[i].vendor);
        snprintf(c.name, sizeof(c.name), "%s", rows[i].brand);
        assert_string_equal(cpu_name(&c, name, sizeof(name)), rows[i].name);
    }
}

/* A line that does not fit is refused, never printed cut. */
static void test_too_small(void **state)
{
    struct survey sv;
    struct bootinfo bi;
    struct apm_state apm;
    char small[256];
    (void)state;
    fill_machine(&sv, &bi);
    fill_apm(&apm);
    assert_false(survey_json(&sv, &bi, &apm, &resets, "", small, sizeof(small)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_everything_filled),
        cmocka_unit_test(test_uefi_386_nothing_found),
        cmocka_unit_test(test_cpu_names),
        cmocka_unit_test(test_too_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
