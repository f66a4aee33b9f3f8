/* The survey's JSON line (schema in docs/survey.md), built from the facts
 * (app/facts/survey.h), the reset offer and what the APM code collected, and printed
 * once. Formatting only: the host unit test
 * (tests/unit/test_survey_json.c) builds it from a filled state and compares every
 * field. */
#include "surveyjson.h"
#include "../../system/console.h"
#include "../../system/cpuname.h"
#include "../../lib/format.h"
#include "../../lib/json.h"
#include "../../apm/apm_spec.h"
#include "../../apm/apm_text.h"

static void json_version(struct json *j, const char *key, uint16_t v)
{
    char text[8];
    fmt_snprintf(text, sizeof(text), "%X.%X", v >> 8, v & 0xFF);
    json_string(j, key, text);
}

static void json_result(struct json *j, const char *key, int result)
{
    char text[96];
    if (result == 0)
        json_string(j, key, "ok");
    else
        json_string(j, key, apm_result_text(result, text, sizeof(text)));
}

static void json_steps(struct json *j, const struct apm_state *apm)
{
    /* One compact string, "port:fn=result" comma-separated (the whole list as objects
     * would not fit a QR code): result is "ok", an error code "86", "nocode",
     * "nocall" or "injected". */
    char steps[12 * APM_LOG_MAX + 8];
    unsigned n = 0;
    steps[0] = '\0';
    for (unsigned i = 0; i < apm->log_count && n < sizeof(steps); i++) {
        const struct apm_log_entry *e = &apm->log[i];
        char result[12];
        switch (e->result) {
        case 0: fmt_snprintf(result, sizeof(result), "ok"); break;
        case APM_RESULT_NO_CODE: fmt_snprintf(result, sizeof(result), "nocode"); break;
        case APM_RESULT_NO_CALL: fmt_snprintf(result, sizeof(result), "nocall"); break;
        case APM_RESULT_INJECTED: fmt_snprintf(result, sizeof(result), "injected"); break;
        default: fmt_snprintf(result, sizeof(result), "%02X", e->result); break;
        }
        n += (unsigned)fmt_snprintf(steps + n, sizeof(steps) - n, "%s%s:53%02X=%s",
                                    i ? "," : "", e->port, e->fn, result);
    }
    json_string(j, "steps", steps);
    if (apm->log_truncated)
        json_bool(j, "steps_truncated", true);
}

static void json_iface(struct json *j, const struct apm_state *apm, enum apm_iface iface)
{
    const struct apm_iface_result *r = &apm->ifaces[iface];
    json_object(j, apm_iface_name(iface));
    json_bool(j, "tried", r->tried);
    if (r->tried) {
        json_result(j, "connect", r->connect_result);
        if (r->connected)
            json_version(j, "connection", r->conn_version);
    }
    if (r->have_pm) {
        const struct apm_pm_info *pm = &r->pm;
        if (iface == APM_IFACE_PM32) {
            json_hex(j, "code32_seg", pm->code32_seg, 4);
            json_hex(j, "code32_len", pm->raw_code32_len, 4);
        }
        json_hex(j, "code16_seg", pm->code16_seg, 4);
        json_hex(j, "code16_len", pm->raw_code16_len, 4);
        json_hex(j, "data_seg", pm->data_seg, 4);
        json_hex(j, "data_len", pm->raw_data_len, 4);
        json_hex(j, "entry", pm->entry, 4);
    }
    if (r->off_tried)
        json_string(j, "off", r->off_result);
    json_end(j);
}

/* "standby,suspend", "standby", "suspend" or "none": the states a 5310h bit pair
 * says the machine wakes from. */
static const char *wake_states(uint16_t caps, uint16_t standby, uint16_t suspend)
{
    static const char *const words[] = { "none", "standby", "suspend", "standby,suspend" };
    return words[((caps & standby) ? 1 : 0) | ((caps & suspend) ? 2 : 0)];
}

static void json_apm(struct json *j, const struct apm_state *apm)
{
    char text[160];
    json_object(j, "apm");
    json_bool(j, "present", apm->present);
    if (apm->present) {
        json_version(j, "version", apm->version);
        json_hex(j, "raw_version", apm->raw_version, 4);
        json_bool(j, "signature", apm->signature_ok);
        json_hex(j, "flags", apm->flags, 4);
        apm_flags_text(apm->flags, text, sizeof(text));
        json_string(j, "flags_text", text);
        json_object(j, "interfaces");
        for (int i = 0; i < APM_IFACE_COUNT; i++)
            json_iface(j, apm, (enum apm_iface)i);
        json_end(j);
        if (apm->have_status) {
            const struct apm_power_status *st = &apm->status;
            json_object(j, "power");
            json_hex(j, "ac_line", st->ac_line, 2);
            json_string(j, "ac_line_text", apm_ac_line_text(st->ac_line));
            json_hex(j, "battery_status", st->battery_status, 2);
            json_string(j, "battery_status_text", apm_battery_status_text(st->battery_status));
            json_hex(j, "battery_flag", st->battery_flag, 2);
            if (st->life_percent <= 100)
                json_uint(j, "life_percent", st->life_percent);
            else
                json_null(j, "life_percent");
            if (st->life_time == APM_UNKNOWN16)
                json_null(j, "life_seconds");
            else
                json_uint(j, "life_seconds", (st->life_time & 0x7FFF) *
                                             (st->life_time & APM_LIFE_MINUTES ? 60u : 1u));
            json_uint(j, "battery_count", st->battery_count);
            json_end(j);
        }
        if (apm->have_caps) {
            json_hex(j, "capabilities", apm->capabilities, 4);
            json_uint(j, "battery_units", apm->battery_units);
            /* What wake= can set (5311h): the capability bits, in words. */
            json_string(j, "resume_timer", wake_states(apm->capabilities,
                                                       APM_CAP_TIMER_STANDBY,
                                                       APM_CAP_TIMER_SUSPEND));
        }
    }
    json_steps(j, apm);
    json_end(j);
}

static void json_smbios(struct json *j, const struct smbios_info *sm)
{
    char version[8];
    json_object(j, "smbios");
    json_bool(j, "found", sm->status != SMBIOS_NOT_FOUND);
    if (sm->status != SMBIOS_NOT_FOUND) {
        fmt_snprintf(version, sizeof(version), "%u.%u", sm->major, sm->minor);
        json_string(j, "version", version);
        json_string(j, "status", smbios_status_name(sm->status));
        if (sm->have_bios) {
            json_string(j, "bios_vendor", sm->bios_vendor);
            json_string(j, "bios_version", sm->bios_version);
            json_string(j, "bios_date", sm->bios_date);
        }
        if (sm->have_system) {
            json_string(j, "manufacturer", sm->sys_vendor);
            json_string(j, "product", sm->sys_product);
            json_string(j, "version_string", sm->sys_version);
        }
    }
    json_end(j);
}

/* What the AML interpreter made of the tables (loaded dry): whether \_PTS runs. */
static void json_aml(struct json *j, const struct acpi_aml_facts *a)
{
    if (!a->have_tables)
        return;
    json_object(j, "aml");
    json_bool(j, "loaded", a->loaded);
    if (!a->loaded) {
        json_string(j, "why", a->why);
    } else {
        json_uint(j, "tables", a->tables);
        json_uint(j, "bytes", a->aml_bytes);
        json_uint(j, "kb", a->used_kb);
        json_uint(j, "forgiven", a->forgiven);
        json_string(j, "pts", !a->pts ? "absent" : a->pts_ok ? "ok" : a->pts_why);
        if (a->s5_type == AML_TYPE_METHOD)
            json_string(j, "s5", "method");
    }
    json_end(j);
}

static void json_acpi(struct json *j, const struct acpi_rsdp *rsdp, const struct acpi_s5 *s5,
                      const struct acpi_aml_facts *aml)
{
    json_object(j, "acpi");
    json_bool(j, "found", rsdp->status != ACPI_RSDP_NOT_FOUND);
    if (rsdp->status != ACPI_RSDP_NOT_FOUND) {
        json_uint(j, "revision", rsdp->revision);
        json_string(j, "oem", rsdp->oem_id);
        json_string(j, "status", acpi_rsdp_status_name(rsdp->status));
        /* What method=acpi would use: the S5 facts, or why there are none. */
        if (s5->found) {
            json_object(j, "s5");
            json_uint(j, "pm1a_cnt", s5->tables.fadt.pm1a_cnt);
            if (s5->tables.fadt.pm1b_cnt_from != ACPI_BLK_NONE)
                json_uint(j, "pm1b_cnt", s5->tables.fadt.pm1b_cnt);
            json_uint(j, "slp_typa", s5->aml.slp_typa);
            json_uint(j, "slp_typb", s5->aml.slp_typb);
            json_uint(j, "smi_cmd", s5->tables.fadt.smi_cmd);
            if (s5->aml.conditional)
                json_bool(j, "conditional", true);
            if (s5->tables.fadt.pm1_notes & ACPI_PM1A_X_MISMATCH)
                json_uint(j, "pm1a_cnt_32bit", s5->tables.fadt.pm1a_cnt32);
            json_end(j);
        } else if (s5->reason != ACPI_S5_OK) {
            json_string(j, "s5", acpi_s5_reason_text((enum acpi_s5_reason)s5->reason));
        }
        if (s5->tables.fadt.have_flags && (s5->tables.fadt.flags & ACPI_FADT_HW_REDUCED))
            json_bool(j, "hw_reduced", true);
        if (s5->tables.xsdt_had_no_fadt)
            json_bool(j, "rsdt_fadt", true);
        json_aml(j, aml);
    }
    json_end(j);
}

static void json_memory_probe(struct json *j, const struct mem_probe *m)
{
    if (m->have_e820) {
        json_array(j, "e820");
        for (unsigned i = 0; i < m->e820_count; i++) {
            char range[48];
            /* as "map": "base+length:type" in hex */
            fmt_snprintf(range, sizeof(range), "%X+%X:%u", (unsigned)m->e820[i].base,
                         (unsigned)m->e820[i].length, (unsigned)m->e820[i].type);
            json_string(j, 0, range);
        }
        json_end(j);
        if (m->e820_truncated)
            json_bool(j, "e820_truncated", true);
    }
    if (m->have_e801) {
        json_uint(j, "e801_1m_16m_kb", m->e801_1m_16m_kb);
        json_uint(j, "e801_above_16m_64k", m->e801_above_16m_64k);
    }
    if (m->have_88)
        json_uint(j, "ext88_kb", m->ext_kb);
}

static void json_disks(struct json *j, const struct disk_probe *d)
{
    char buf[12];
    json_object(j, "disks");
    json_string(j, "floppy_a", floppy_type_name(d->floppy_a, buf, sizeof(buf)));
    json_string(j, "floppy_b", floppy_type_name(d->floppy_b, buf, sizeof(buf)));
    json_uint(j, "hdd_count", d->hdd_count);
    json_array(j, "hdd");
    for (unsigned i = 0; i < d->hdd_probed; i++) {
        const struct hdd_info *h = &d->hdd[i];
        json_object(j, 0);
        json_hex(j, "drive", h->drive, 2);
        json_uint(j, "cylinders", h->cylinders);
        json_uint(j, "heads", h->heads);
        json_uint(j, "sectors", h->sectors);
        if (h->edd_version) {
            json_hex(j, "edd", h->edd_version, 2);
            if (h->have_edd_params) {
                json_uint(j, "total_sectors", (uint32_t)h->edd_sectors);
                json_uint(j, "sector_size", h->edd_sector_size);
            }
        }
        json_end(j);
    }
    json_end(j);
    json_end(j);
}

static void json_video(struct json *j, const struct video_probe *v)
{
    json_object(j, "video");
    json_string(j, "adapter", v->adapter ? v->adapter : "unknown");
    if (v->have_dcc)
        json_hex(j, "dcc", v->dcc_active, 2);
    if (v->vbe.valid) {
        json_object(j, "vbe");
        json_hex(j, "version", v->vbe.version, 4);
        json_uint(j, "memory_kb", v->vbe.memory_64k * 64u);
        json_string(j, "oem", v->vbe.oem);
        if (v->vbe.vendor[0])
            json_string(j, "vendor", v->vbe.vendor);
        if (v->vbe.product[0])
            json_string(j, "product", v->vbe.product);
        if (v->vbe.product_rev[0])
            json_string(j, "revision", v->vbe.product_rev);
        json_end(j);
    }
    json_end(j);
}

/* Each function as one compact string, "BB:DD.F VVVV:DDDD CCSSPP RR", then
 * " SSSS:SSSS" when it has a subsystem ID and " P/LL" (IRQ pin 1-4, line) when it
 * has an interrupt pin: the whole list as objects would not fit a QR code. */
static void json_pci(struct json *j, const struct pci_survey *pci,
                     const struct chipset_verdict *cs)
{
    json_object(j, "pci");
    if (pci->bios_present) {
        char version[8];
        fmt_snprintf(version, sizeof(version), "%X.%02X", pci->bios_major, pci->bios_minor);
        json_string(j, "bios", version);
        json_uint(j, "last_bus", pci->bios_last_bus);
    }
    json_uint(j, "mechanism", pci->mech);
    if (pci->mech != PCI_MECH_NONE) {
        json_uint(j, "buses", pci->buses);
        json_array(j, "functions");
        for (unsigned i = 0; i < pci->count; i++) {
            const struct pci_function *f = &pci->fn[i];
            char text[48];
            int n = fmt_snprintf(text, sizeof(text), "%02X:%02X.%u %04X:%04X %02X%02X%02X %02X",
                                 f->bus, f->dev, f->fn, f->vendor, f->device, f->class_code,
                                 f->subclass, f->prog_if, f->revision);
            if (f->sub_vendor && f->sub_vendor != 0xFFFF)
                n += fmt_snprintf(text + n, sizeof(text) - (size_t)n, " %04X:%04X",
                                  f->sub_vendor, f->sub_device);
            if (f->irq_pin >= 1 && f->irq_pin <= 4)
                fmt_snprintf(text + n, sizeof(text) - (size_t)n, " %u/%02X", f->irq_pin,
                             f->irq_line);
            json_string(j, 0, text);
        }
        json_end(j);
        if (pci->truncated)
            json_bool(j, "truncated", true);
    }
    json_end(j);
    json_object(j, "chipset");
    if (cs->name[0])
        json_string(j, "name", cs->name);
    json_string(j, "soft_off", chipset_soft_off_name(cs->soft_off));
    json_string(j, "explain", cs->explain);
    json_end(j);
}

bool survey_json(const struct survey *sv, const struct bootinfo *bi,
                 const struct apm_state *apm, const struct reset_offer *resets,
                 const char *options, char *buf, unsigned size)
{
    struct json j;
    const struct cpu_info *c = &sv->cpu;
    char cpu_name_buf[sizeof(c->name)];

    json_init(&j, buf, size);
    json_object(&j, 0);
    json_uint(&j, "schema", 1);
    if (sv->version) {
        json_string(&j, "version", sv->version);
        json_string(&j, "commit", sv->commit ? sv->commit : "unknown");
    }
    json_string(&j, "firmware", sv->firmware);
    if (sv->firmware_reason)
        json_string(&j, "firmware_reason", sv->firmware_reason);
    json_string(&j, "loader", bi->loader);
    json_uint(&j, "multiboot", (uint32_t)bi->protocol);
    json_string(&j, "options", options);
    if (sv->label && sv->label[0])
        json_string(&j, "label", sv->label);
    if (sv->record)
        json_string(&j, "record", sv->record);

    json_object(&j, "cpu");
    json_string(&j, "class", c->class);
    if (c->has_cpuid) {
        json_string(&j, "vendor", c->vendor);
        json_uint(&j, "family", c->family);
        json_uint(&j, "model", c->model);
        json_uint(&j, "stepping", c->stepping);
    }
    json_string(&j, "name", cpu_name(c, cpu_name_buf, sizeof(cpu_name_buf)));
    json_bool(&j, "fpu", c->fpu);
    json_string(&j, "fpu_kind", c->fpu_kind ? c->fpu_kind : "none");
    json_bool(&j, "tsc", c->tsc);
    if (sv->clock.khz) {
        json_uint(&j, "clock_khz", sv->clock.khz);
        json_string(&j, "clock_method", sv->clock.method);
    }
    json_end(&j);

    json_object(&j, "memory");
    if (sv->have_int12)
        json_uint(&j, "int12_kb", sv->int12_kb);
    if (bi->have_mem) {
        json_uint(&j, "lower_kb", bi->mem_lower_kb);
        json_uint(&j, "upper_kb", bi->mem_upper_kb);
    }
    json_uint(&j, "map_available_kb", sv->map_available_kb);
    json_array(&j, "map");
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        char range[40];
        /* "base+length:type" in hex keeps the map readable and short */
        fmt_snprintf(range, sizeof(range), "%X+%X:%u", (unsigned)e->base,
                     (unsigned)e->length, (unsigned)e->type);
        json_string(&j, 0, range);
    }
    json_end(&j);
    if (sv->bios_calls)
        json_memory_probe(&j, &sv->mem);
    json_end(&j);

    if (sv->bios_calls) {
        json_object(&j, "bios");
        json_string(&j, "date", sv->bios_date);
        json_hex(&j, "model_byte", sv->model_byte, 2);
        json_hex(&j, "rom_crc32", sv->rom.crc32, 8);
        json_array(&j, "strings");
        for (unsigned i = 0; i < sv->rom.count; i++)
            json_string(&j, 0, sv->rom.strings[i]);
        json_end(&j);
        json_end(&j);
        json_video(&j, &sv->video);
        json_disks(&j, &sv->disks);
    }
    if (sv->efi.valid) {
        json_object(&j, "efi");
        json_string(&j, "vendor", sv->efi.vendor);
        json_hex(&j, "revision", sv->efi.revision, 8);
        json_bool(&j, "x64", sv->efi.efi64);
        json_bool(&j, "runtime_services", sv->efi.runtime_ok);   /* method=efi's way */
        if (sv->efi.reset_system)
            json_string(&j, "reset_system", efi_place_name(sv->efi.reset_place));
        json_end(&j);
    }
    json_smbios(&j, &sv->smbios);
    json_acpi(&j, &sv->acpi, &sv->s5, &sv->aml);
    if (sv->chipset.explain[0])
        json_pci(&j, &sv->pci, &sv->chipset);
    if (sv->chipset.explain[0])
        reset_offer_json(&j, resets);      /* made with the chipset's verdict */
    if (apm)
        json_apm(&j, apm);
    json_end(&j);
    return json_ok(&j);
}

void survey_print_json(const char *json)
{
    static bool printed;

    if (printed)
        return;
    printed = true;
    say_json("survey", json);
}
