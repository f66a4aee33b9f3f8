/* The hardware survey: see survey.h. Every probe here only reads. */
#include "survey.h"
#include "../system/console.h"
#include "../lib/format.h"
#include "../system/io.h"
#include "../lib/json.h"
#include "../lib/string.h"
#include "../apm/apm_spec.h"
#include "../apm/apm_text.h"
#include "../realmode/bios.h"
#include "../lib/bda.h"
#include "../lib/pc.h"

#define BIOS_DATE_ADDR  0xFFFF5u        /* F000:FFF5, 8 ASCII characters */
#define BIOS_MODEL_ADDR 0xFFFFEu        /* F000:FFFE */

static void read_bios_date(struct survey *sv)
{
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)BIOS_DATE_ADDR;
    for (int i = 0; i < 8; i++)
        sv->bios_date[i] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '?';
    sv->bios_date[8] = '\0';
    sv->model_byte = *(const volatile uint8_t *)(uintptr_t)BIOS_MODEL_ADDR;
}

static void survey_cpu(struct survey *sv)
{
    const struct cpu_info *c = &sv->cpu;
    if (c->has_cpuid)
        say("cpu: %s family %u model %u stepping %u%s%s%s", c->vendor, c->family, c->model,
            c->stepping, c->name[0] ? " \"" : "", c->name, c->name[0] ? "\"" : "");
    else
        say("cpu: %s class (no CPUID)", c->class);
    say("cpu: FPU %s, TSC %s", c->fpu ? "present" : "absent", c->tsc ? "present" : "absent");
}

static void survey_memory(struct survey *sv, const struct bootinfo *bi)
{
    for (unsigned i = 0; i < bi->mmap_count; i++)
        if (bi->mmap[i].type == MMAP_AVAILABLE)
            sv->map_available_kb += (uint32_t)(bi->mmap[i].length >> 10);
    if (sv->bios_calls) {
        struct biosregs r;
        const char *why;
        initregs(&r);
        if (bios_int(BIOS_INT_MEMORY, &r, &r, &why)) {
            sv->have_int12 = true;
            sv->int12_kb = r.ax;
        }
    }
    if (sv->have_int12)
        say("memory: INT 12h reports %u KiB conventional", sv->int12_kb);
    say("memory: %u KiB available in the boot loader's map", (unsigned)sv->map_available_kb);
}

/* A firmware string for a console line: SMBIOS strings keep every byte (the JSON
 * escapes them), but a screen or terminal must not be sent control characters. */
static const char *printable(char *dst, const char *src)
{
    size_t n = 0;
    for (; src[n] && n < SMBIOS_STR_MAX; n++)
        dst[n] = ((uint8_t)src[n] >= 0x20 && (uint8_t)src[n] < 0x7F) ? src[n] : '?';
    dst[n] = '\0';
    return dst;
}

/* SMBIOS and ACPI: from the EFI system table under UEFI, by scanning the BIOS areas
 * otherwise; an RSDP copy from the boot loader is preferred to a scan. */
static void survey_identity(struct survey *sv, const struct bootinfo *bi, bool uefi)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    struct smbios_info *sm = &sv->smbios;
    struct acpi_rsdp *rsdp = &sv->acpi;
    char a[SMBIOS_STR_MAX + 1], b[SMBIOS_STR_MAX + 1], c[SMBIOS_STR_MAX + 1];

    if (uefi) {
        if (bi->efi_system_table_addr)
            efi_read_system_table(&sv->efi, &pm, bi->efi_system_table_addr, bi->efi64);
        if (sv->efi.valid)
            say("efi: firmware \"%s\" revision %u.%u", sv->efi.vendor,
                (unsigned)(sv->efi.revision >> 16), (unsigned)(sv->efi.revision & 0xFFFF));
        if (sv->efi.smbios_entry && physmem_ok(&pm, sv->efi.smbios_entry, 32))
            smbios_from_entry(sm, &pm, physmem_at(&pm, sv->efi.smbios_entry), 32);
    } else {
        smbios_scan(sm, &pm, SMBIOS_SCAN_START, SMBIOS_SCAN_END);
    }
    if (sm->status == SMBIOS_NOT_FOUND) {
        say("smbios: not found");
    } else {
        say("smbios: %u.%u entry point at %08Xh, table %08Xh (%u bytes, %u structures): %s",
            sm->major, sm->minor, (unsigned)sm->entry_addr, (unsigned)sm->table_addr,
            (unsigned)sm->table_len, sm->structures, smbios_status_name(sm->status));
        if (sm->have_bios)
            say("smbios: BIOS \"%s\" version \"%s\" dated \"%s\"",
                printable(a, sm->bios_vendor), printable(b, sm->bios_version),
                printable(c, sm->bios_date));
        if (sm->have_system)
            say("smbios: system \"%s\" \"%s\" version \"%s\"", printable(a, sm->sys_vendor),
                printable(b, sm->sys_product), printable(c, sm->sys_version));
        if (sm->problem != SMBIOS_PROBLEM_NONE)
            say("smbios: malformed table: %s at offset %u; not followed further",
                smbios_problem_name(sm->problem), (unsigned)sm->problem_offset);
    }

    if (bi->rsdp_len)
        acpi_parse_rsdp(rsdp, bi->rsdp, bi->rsdp_len);
    else if (!uefi)
        acpi_find_rsdp(rsdp, &pm);
    else if (sv->efi.acpi_rsdp && physmem_ok(&pm, sv->efi.acpi_rsdp, ACPI_RSDP_LEN_MIN))
        acpi_parse_rsdp(rsdp, physmem_at(&pm, sv->efi.acpi_rsdp), ACPI_RSDP_LEN_MIN);
    if (rsdp->status == ACPI_RSDP_NOT_FOUND)
        say("acpi: no RSDP found");
    else
        say("acpi: RSDP revision %u, OEM \"%s\", RSDT %08Xh (%s)", rsdp->revision,
            rsdp->oem_id, (unsigned)rsdp->rsdt_addr, acpi_rsdp_status_name(rsdp->status));
}

void survey_machine(struct survey *sv, const struct bootinfo *bi,
                    const struct cpu_info *cpu, bool bios_calls)
{
    memset(sv, 0, sizeof(*sv));
    sv->cpu = *cpu;
    sv->bios_calls = bios_calls;
    sv->firmware = (bi->efi_system_table || bi->efi_boot_services) ? "uefi" : "bios";
    /* Without UEFI tables and without an INT 15h handler there is no firmware we
     * know how to call (QEMU's qboot: a 32-bit firmware that leaves the IVT empty);
     * realmode/bios.c refused BIOS calls for the same reason. */
    if (!bios_calls && !strcmp(sv->firmware, "bios") &&
        peek32(IVT_ENTRY_ADDR(BIOS_INT_SYSTEM)) == 0) {
        sv->firmware = "none";
        sv->firmware_reason = "the INT 15h vector is zero: no legacy BIOS";
    }
    if (sv->firmware_reason)
        say("firmware: %s (%s)", sv->firmware, sv->firmware_reason);
    else
        say("firmware: %s", sv->firmware);
    survey_cpu(sv);
    survey_memory(sv, bi);
    if (bios_calls) {
        read_bios_date(sv);
        say("bios: date %s, model byte %02Xh", sv->bios_date, sv->model_byte);
        romid_scan((const uint8_t *)(uintptr_t)ROMID_START, ROMID_END - ROMID_START,
                   &sv->rom);
        say("bios: ROM E0000h-FFFFFh CRC-32 %08Xh", (unsigned)sv->rom.crc32);
        for (unsigned i = 0; i < sv->rom.count; i++)
            say("bios: \"%s\"", sv->rom.strings[i]);
    }
    survey_identity(sv, bi, !strcmp(sv->firmware, "uefi"));
}

void survey_print_json(const char *json)
{
    static bool printed;

    if (printed)
        return;
    printed = true;
    console_write("apmoff: survey ");
    console_write(json);
    console_write("\n");
}
