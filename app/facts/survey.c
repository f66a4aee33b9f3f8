/* The hardware survey: see survey.h. Every probe here only reads. */
#include "survey.h"
#include "acpi_report.h"
#include "boot_report.h"
#include "../../system/console.h"
#include "../../lib/format.h"
#include "../../system/io.h"
#include "../../lib/json.h"
#include "../../lib/string.h"
#include "../../apm/apm_spec.h"
#include "../../apm/apm_text.h"
#include "../../realmode/bios.h"
#include "../../system/cmos.h"
#include "../../system/reset.h"
#include "../../system/pci_conf.h"
#include "../../realmode/pcibios.h"
#include "../../lib/bda.h"
#include "../../lib/pc.h"

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
    cpu_clock_measure(c, &sv->clock);
    if (sv->clock.khz)
        say("cpu: clock %u.%u MHz (%s), FPU %s", (unsigned)(sv->clock.khz / 1000),
            (unsigned)(sv->clock.khz % 1000 / 100), sv->clock.method, c->fpu_kind);
    else
        say("cpu: clock not measured (the PIT did not answer), FPU %s", c->fpu_kind);
}

static const char *e820_type_name(uint32_t type)
{
    static const char *const names[] = { "type 0", "available", "reserved", "ACPI",
                                         "ACPI NVS", "unusable" };
    return type < sizeof(names) / sizeof(names[0]) ? names[type] : "other";
}

/* Each interface as the BIOS answered it, one line each. */
static void say_memory_interfaces(const struct mem_probe *m)
{
    if (m->have_e820) {
        say("memory: INT 15h E820h: %u entr%s%s", m->e820_count,
            m->e820_count == 1 ? "y" : "ies", m->e820_truncated ? " (more not kept)" : "");
        for (unsigned i = 0; i < m->e820_count; i++) {
            const struct e820_entry *e = &m->e820[i];
            uint64_t last = e->base + e->length - 1;
            say("memory:   %08X%08Xh-%08X%08Xh %s", (unsigned)(e->base >> 32),
                (unsigned)e->base, (unsigned)(last >> 32), (unsigned)last,
                e820_type_name(e->type));
        }
    } else {
        say("memory: INT 15h E820h: not supported");
    }
    if (m->have_e801)
        say("memory: INT 15h E801h: %u KiB from 1 to 16 MiB, %u x 64 KiB above",
            m->e801_1m_16m_kb, m->e801_above_16m_64k);
    else
        say("memory: INT 15h E801h: not supported");
    if (m->have_88)
        say("memory: INT 15h AH=88h: %u KiB above 1 MiB", m->ext_kb);
    else
        say("memory: INT 15h AH=88h: not supported");
}

static void say_disks(const struct disk_probe *d)
{
    char a[12], b[12];
    say("disks: floppy A: %s, B: %s (CMOS 10h)", floppy_type_name(d->floppy_a, a, sizeof(a)),
        floppy_type_name(d->floppy_b, b, sizeof(b)));
    say("disks: %u BIOS hard disk%s", d->hdd_count, d->hdd_count == 1 ? "" : "s");
    for (unsigned i = 0; i < d->hdd_probed; i++) {
        const struct hdd_info *h = &d->hdd[i];
        if (h->have_edd_params)
            say("disks:   %02Xh: %u/%u/%u (C/H/S), EDD %X.%X, %u sectors of %u bytes",
                h->drive, h->cylinders, h->heads, h->sectors, h->edd_version >> 4,
                h->edd_version & 0xF, (unsigned)h->edd_sectors, h->edd_sector_size);
        else if (h->edd_version)
            say("disks:   %02Xh: %u/%u/%u (C/H/S), EDD %X.%X", h->drive, h->cylinders,
                h->heads, h->sectors, h->edd_version >> 4, h->edd_version & 0xF);
        else
            say("disks:   %02Xh: %u/%u/%u (C/H/S), no EDD", h->drive, h->cylinders,
                h->heads, h->sectors);
    }
}

/* The PCI BIOS, then the configuration mechanism it names (or, without one, the ones
 * that answer a safe probe), then every bus; and from what was found, whether the
 * board can switch itself off. */
static void survey_pci(struct survey *sv)
{
    struct pci_survey *pci = &sv->pci;
    struct pcibios_info bios;

    if (sv->bios_calls && pcibios_detect(&bios)) {
        pci->bios_present = true;
        pci->bios_major = bios.major;
        pci->bios_minor = bios.minor;
        pci->bios_mechs = bios.mechs;
        pci->bios_last_bus = bios.last_bus;
        say("pci: PCI BIOS %X.%02X, mechanisms %02Xh, last bus %u", bios.major, bios.minor,
            bios.mechs, bios.last_bus);
    } else {
        say("pci: no PCI BIOS (INT 1Ah B101h)");
    }
    /* AL's bits 4 and 5 are special cycles, not mechanisms: a BIOS that sets only
     * those would otherwise have no mechanism tried at all. */
    pci->mech = (enum pci_mech)pci_conf_detect(
        pci->bios_present ? pci->bios_mechs & (PCIBIOS_MECH1 | PCIBIOS_MECH2) : 0);
    if (pci->mech == PCI_MECH_NONE) {
        say("pci: no configuration mechanism answers: no PCI");
    } else {
        struct pci_access acc = pci_conf_access(pci->mech);
        pci_walk(&acc, pci->bios_present ? pci->bios_last_bus : 0, pci);
        say("pci: mechanism #%u, %u function%s on %u bus%s%s", pci->mech, pci->count,
            pci->count == 1 ? "" : "s", pci->buses, pci->buses == 1 ? "" : "es",
            pci->truncated ? " (more not kept)" : "");
        for (unsigned i = 0; i < pci->count; i++) {
            const struct pci_function *f = &pci->fn[i];
            if (f->irq_pin >= 1 && f->irq_pin <= 4)
                say("pci:   %02X:%02X.%u %04X:%04X %s (class %02X%02X%02X, rev %02X), "
                    "INT%c# IRQ %u", f->bus, f->dev, f->fn, f->vendor, f->device,
                    pci_class_name(f->class_code), f->class_code, f->subclass, f->prog_if,
                    f->revision, 'A' + f->irq_pin - 1, f->irq_line);
            else
                say("pci:   %02X:%02X.%u %04X:%04X %s (class %02X%02X%02X, rev %02X)",
                    f->bus, f->dev, f->fn, f->vendor, f->device,
                    pci_class_name(f->class_code), f->class_code, f->subclass, f->prog_if,
                    f->revision);
        }
    }
    chipset_identify(pci, &sv->chipset);
    say("chipset: %s: soft-off %s: %s", sv->chipset.name[0] ? sv->chipset.name : "unknown",
        chipset_soft_off_name(sv->chipset.soft_off), sv->chipset.explain);
}

static void say_video(const struct video_probe *v)
{
    if (v->have_dcc)
        say("video: %s (display combination %02Xh, alternate %02Xh)", v->adapter,
            v->dcc_active, v->dcc_alternate);
    else if (!strcmp(v->adapter, "EGA"))
        say("video: EGA, %u KiB, %s display (INT 10h AH=12h)", v->ega_memory_64k * 64u,
            v->ega_mono ? "monochrome" : "colour");
    else
        say("video: %s (from the equipment word; no VGA or EGA BIOS)", v->adapter);
    if (!v->vbe.valid)
        return;
    say("video: VBE %X.%X, %u KiB, \"%s\"", v->vbe.version >> 8, v->vbe.version & 0xFF,
        v->vbe.memory_64k * 64u, v->vbe.oem);
    if (v->vbe.vendor[0] || v->vbe.product[0])
        say("video: VBE vendor \"%s\", product \"%s\" revision \"%s\"", v->vbe.vendor,
            v->vbe.product, v->vbe.product_rev);
}

static void survey_memory(struct survey *sv)
{
    const struct bootinfo *bi = sv->bi;

    for (unsigned i = 0; i < bi->mmap_count; i++)
        if (bi->mmap[i].type == MMAP_AVAILABLE)
            sv->map_available_kb += (uint32_t)(bi->mmap[i].length >> 10);
    if (sv->bios_calls) {
        probe_memory(&sv->mem, &bios_access);
        sv->have_int12 = sv->mem.have_int12;
        sv->int12_kb = sv->mem.int12_kb;
    }
    if (sv->have_int12)
        say("memory: INT 12h reports %u KiB conventional", sv->int12_kb);
    report_boot_map(bi);
    say("memory: %u KiB available in the boot loader's map", (unsigned)sv->map_available_kb);
    if (sv->bios_calls)
        say_memory_interfaces(&sv->mem);
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

static bool uefi(const struct survey *sv)
{
    return !strcmp(sv->firmware, "uefi");
}

/* The system table the loader passed (UEFI only), ResetSystem's place in the memory
 * map, and the one answer to whether it can be called. */
static void survey_efi(struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    const struct bootinfo *bi = sv->bi;

    if (uefi(sv) && bi->efi_system_table_addr)
        efi_read_system_table(&sv->efi, &pm, bi->efi_system_table_addr, bi->efi64);
    if (sv->efi.valid)
        say("efi: firmware \"%s\" revision %u.%u", sv->efi.vendor,
            (unsigned)(sv->efi.revision >> 16), (unsigned)(sv->efi.revision & 0xFFFF));
    if (sv->efi.runtime_ok)
        say("efi: runtime services at %08Xh, ResetSystem at %08Xh (%s)",
            (unsigned)sv->efi.runtime_services, (unsigned)sv->efi.reset_system,
            sv->efi.efi64 ? "x64" : "ia32");
    if (uefi(sv) && bi->efi_mmap)
        say("efi: memory map: %u descriptors, %u runtime region%s%s", bi->efi_mmap_count,
            bi->efi_runtime_count, bi->efi_runtime_count == 1 ? "" : "s",
            bi->efi_runtime_truncated ? " (more not kept)" : "");
    if (sv->efi.reset_system) {
        const struct efi_region *r;
        sv->efi.reset_place = (uint8_t)efi_locate(bi->efi_runtime, bi->efi_runtime_count,
                                                  bi->efi_mmap, bi->efi_runtime_truncated,
                                                  sv->efi.reset_system, &r);
        if (r)
            say("efi: ResetSystem %s (type %u, %08X%08Xh, %u pages)",
                efi_place_text((enum efi_place)sv->efi.reset_place), (unsigned)r->type,
                (unsigned)(r->base >> 32), (unsigned)r->base, (unsigned)r->pages);
        else
            say("efi: ResetSystem %s", efi_place_text((enum efi_place)sv->efi.reset_place));
    } else if (sv->efi.valid) {
        say("efi: no runtime services table at %08Xh", (unsigned)sv->efi.runtime_services);
    }
    sv->efi_why = efi_unusable(&sv->efi, bi->efi_system_table_addr != 0);
}

/* From the EFI system table under UEFI, by scanning the BIOS areas otherwise. */
static void survey_smbios(struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    struct smbios_info *sm = &sv->smbios;
    char a[SMBIOS_STR_MAX + 1], b[SMBIOS_STR_MAX + 1], c[SMBIOS_STR_MAX + 1];

    if (!uefi(sv))
        smbios_scan(sm, &pm, SMBIOS_SCAN_START, SMBIOS_SCAN_END);
    else if (sv->efi.smbios_entry && physmem_ok(&pm, sv->efi.smbios_entry, 32))
        smbios_from_entry(sm, &pm, physmem_at(&pm, sv->efi.smbios_entry), 32);
    if (sm->status == SMBIOS_NOT_FOUND) {
        say("smbios: not found");
        return;
    }
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

/* The RSDP (the boot loader's copy preferred to a scan), the FADT and \_S5_. */
static void survey_acpi(struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    const struct bootinfo *bi = sv->bi;
    struct acpi_rsdp *rsdp = &sv->acpi;

    if (bi->rsdp_len)
        acpi_parse_rsdp(rsdp, bi->rsdp, bi->rsdp_len);
    else if (!uefi(sv))
        acpi_find_rsdp(rsdp, &pm);
    else if (sv->efi.acpi_rsdp && physmem_ok(&pm, sv->efi.acpi_rsdp, ACPI_RSDP_LEN_MIN))
        acpi_parse_rsdp(rsdp, physmem_at(&pm, sv->efi.acpi_rsdp), ACPI_RSDP_LEN_MIN);
    if (rsdp->status == ACPI_RSDP_NOT_FOUND)
        say("acpi: no RSDP found");
    else
        say("acpi: RSDP revision %u, OEM \"%s\", RSDT %08Xh (%s)", rsdp->revision,
            rsdp->oem_id, (unsigned)rsdp->rsdt_addr, acpi_rsdp_status_name(rsdp->status));
    acpi_s5_find(&pm, rsdp, &sv->s5);
    if (rsdp->status != ACPI_RSDP_NOT_FOUND)
        acpi_s5_report(&sv->s5);
}

/* The BIOS's own identity: its date and model byte, the ROM's CRC-32 and banner. */
/* The ROM's CRC-32 and banners, the ROM read once, a dword at a time, in pieces copied
 * to RAM (the kernel's 512 KiB has no room for all of it), which the CRC and the
 * banner scan then read (1 KiB: every byte of BSS counts where GRUB loads the kernel
 * into 3 MiB). On 86Box's Award 386 (33 MHz) the copy takes 50 ms, the CRC
 * 170 ms, the scan 350 ms; read and hashed a byte at a time, 1.7 s. */
#define ROM_PIECE_DWORDS 256

static void scan_rom(struct rom_id *id)
{
    static uint32_t piece[ROM_PIECE_DWORDS];
    const volatile uint32_t *rom = (const volatile uint32_t *)(uintptr_t)ROMID_START;
    struct romid_scan r;

    romid_start(&r, id);
    for (uint32_t at = 0; at < (ROMID_END - ROMID_START) / 4; at += ROM_PIECE_DWORDS) {
        for (unsigned i = 0; i < ROM_PIECE_DWORDS; i++)
            piece[i] = rom[at + i];
        romid_feed(&r, (const uint8_t *)piece, sizeof(piece));
    }
    romid_finish(&r);
}

static void survey_bios(struct survey *sv)
{
    read_bios_date(sv);
    say("bios: date %s, model byte %02Xh", sv->bios_date, sv->model_byte);
    scan_rom(&sv->rom);
    say("bios: ROM E0000h-FFFFFh CRC-32 %08Xh", (unsigned)sv->rom.crc32);
    for (unsigned i = 0; i < sv->rom.count; i++)
        say("bios: \"%s\"", sv->rom.strings[i]);
}

static void survey_video(struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    probe_video(&sv->video, &bios_access, &pm);
    say_video(&sv->video);
}

static void survey_disks(struct survey *sv)
{
    probe_disks(&sv->disks, &bios_access, cmos_read(CMOS_FLOPPY_TYPES));
    say_disks(&sv->disks);
}

/* Loaded dry, the AML touches nothing; it says whether \_PTS can be evaluated before
 * method=acpi needs it. Its PCI_Config regions want the mechanism. */
static void survey_aml(struct survey *sv)
{
    acpi_aml_survey(&sv->aml, &sv->s5.tables, sv->bi, sv->pci.mech);
    acpi_aml_report(&sv->aml);
}

void facts_start(struct survey *sv, const struct bootinfo *bi, const struct cpu_info *cpu,
                 bool bios_calls)
{
    memset(sv, 0, sizeof(*sv));
    sv->bi = bi;
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
}

/* Each group in the survey's order, what it rests on, and whether it asks the BIOS. */
static const struct {
    unsigned group, rests_on;
    bool bios_calls;
    void (*read)(struct survey *sv);
} groups[] = {
    { FACTS_CPU, 0, false, survey_cpu },
    { FACTS_MEMORY, 0, false, survey_memory },
    { FACTS_BIOS, 0, true, survey_bios },
    { FACTS_VIDEO, 0, true, survey_video },
    { FACTS_DISKS, 0, true, survey_disks },
    { FACTS_EFI, 0, false, survey_efi },
    { FACTS_SMBIOS, FACTS_EFI, false, survey_smbios },
    { FACTS_ACPI, FACTS_EFI, false, survey_acpi },
    { FACTS_PCI, 0, false, survey_pci },
    { FACTS_AML, FACTS_ACPI | FACTS_PCI, false, survey_aml },
};

void facts_need(struct survey *sv, unsigned want)
{
    for (unsigned i = sizeof(groups) / sizeof(groups[0]); i--;)
        if (want & groups[i].group)
            want |= groups[i].rests_on;
    want &= ~sv->read;
    if (!want)
        return;
    if (!sv->read) {
        if (sv->firmware_reason)
            say("firmware: %s (%s)", sv->firmware, sv->firmware_reason);
        else
            say("firmware: %s", sv->firmware);
    }
    for (unsigned i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
        if (!(want & groups[i].group))
            continue;
        sv->read |= groups[i].group;
        if (!groups[i].bios_calls || sv->bios_calls)
            groups[i].read(sv);
    }
}
