/* method=acpi: see method_acpi.h. The order is ACPICA's: AcpiEnable() (SMI_CMD, then
 * poll SCI_EN for 3 s), then AcpiHwLegacySleep() (SLP_TYP, then SLP_TYP|SLP_EN). */
#include "method_acpi.h"
#include "../system/acpi_pm.h"
#include "../system/console.h"
#include "../system/timer.h"
#include "../lib/format.h"

#define ACPI_OFF_GRACE_MS 3000      /* as APM's: how long "off" may take */

static const char *s5_table_name(const struct acpi_s5 *s5, char *buf, unsigned size)
{
    if (s5->table == ACPI_S5_IN_DSDT)
        return "DSDT";
    fmt_snprintf(buf, size, "SSDT %u", (unsigned)s5->table);
    return buf;
}

void acpi_s5_report(const struct acpi_s5 *s5)
{
    const struct acpi_fadt *f = &s5->tables.fadt;
    char b[16], smi[40], where[12];

    if (f->length) {
        if (f->pm1b_cnt_from != ACPI_BLK_NONE)
            fmt_snprintf(b, sizeof(b), "%04Xh", (unsigned)f->pm1b_cnt);
        if (f->smi_cmd)
            fmt_snprintf(smi, sizeof(smi), "%Xh (ACPI_ENABLE %02Xh)", (unsigned)f->smi_cmd,
                         f->acpi_enable);
        say("acpi: FADT at %08Xh, revision %u: PM1a_CNT %04Xh, PM1b_CNT %s, SMI_CMD %s",
            (unsigned)f->addr, f->revision, (unsigned)f->pm1a_cnt,
            f->pm1b_cnt_from != ACPI_BLK_NONE ? b : "none", f->smi_cmd ? smi : "none");
    }
    if (s5->found)
        say("acpi: \\_S5_ in the %s: SLP_TYPa %u, SLP_TYPb %u",
            s5_table_name(s5, where, sizeof(where)), s5->aml.slp_typa, s5->aml.slp_typb);
    else
        say("acpi: S5: %s", acpi_s5_reason_text((enum acpi_s5_reason)s5->reason));
}

/* Why S5 cannot be tried from these facts, or NULL. */
static const char *unusable(const struct acpi_s5 *s5)
{
    if (!s5->found)
        return acpi_s5_reason_text((enum acpi_s5_reason)s5->reason);
    if (s5->tables.fadt.pm1a_cnt_from == ACPI_BLK_NONE || s5->tables.fadt.pm1a_cnt > 0xFFFF)
        return "the FADT gives no PM1a control block in I/O space";
    return 0;
}

void acpi_check(const struct acpi_s5 *s5, struct acpi_check_facts *out)
{
    const struct acpi_fadt *f = &s5->tables.fadt;

    *out = (struct acpi_check_facts){ .unusable = unusable(s5) };
    if (out->unusable) {
        say("check: acpi: method=acpi would find no S5: %s", out->unusable);
        return;
    }
    out->sci_en = acpi_pm_sci_enabled((uint16_t)f->pm1a_cnt);
    out->smi_can_enable = f->smi_cmd && f->smi_cmd <= 0xFFFF && f->acpi_enable;
    say("check: acpi: S5 usable: PM1a_CNT %04Xh, SLP_TYPa %u, SLP_TYPb %u; SCI_EN %s%s",
        (unsigned)f->pm1a_cnt, s5->aml.slp_typa, s5->aml.slp_typb,
        out->sci_en ? "set (ACPI mode)" : "clear (legacy mode)",
        out->sci_en ? "" : out->smi_can_enable ? ", SMI_CMD can enable ACPI"
                                               : ", and no SMI_CMD to enable ACPI");
}

/* ACPI mode, as AcpiEnable(): a firmware that powers on in legacy mode (SCI_EN clear)
 * switches when ACPI_ENABLE is written to SMI_CMD. No SMI_CMD: the hardware is in
 * ACPI mode for good. Not reached in 3 s: said, and the write is made anyway. */
static void enter_acpi_mode(const struct acpi_fadt *f)
{
    uint16_t pm1a = (uint16_t)f->pm1a_cnt;

    if (acpi_pm_sci_enabled(pm1a)) {
        say("acpi: SCI_EN is set: already in ACPI mode");
        return;
    }
    if (!f->smi_cmd || !f->acpi_enable || f->smi_cmd > 0xFFFF) {
        say("acpi: SCI_EN is clear and the FADT gives no SMI_CMD to change it; "
            "writing PM1 in legacy mode");
        return;
    }
    say("acpi: SCI_EN is clear: writing ACPI_ENABLE %02Xh to SMI_CMD %Xh", f->acpi_enable,
        (unsigned)f->smi_cmd);
    int ms = acpi_pm_enable(pm1a, (uint16_t)f->smi_cmd, f->acpi_enable);
    if (ms >= 0)
        say("acpi: SCI_EN set after %d ms: ACPI mode", ms);
    else
        say("acpi: SCI_EN still clear after %u ms; writing PM1 anyway",
            ACPI_ENABLE_WAIT_MS);
}

enum method_result acpi_power_off(const struct acpi_s5 *s5, void (*announce)(void),
                                  char *why, unsigned size)
{
    const struct acpi_fadt *f = &s5->tables.fadt;
    const char *reason = unusable(s5);
    char b[40] = "";

    if (reason) {
        fmt_snprintf(why, size, "no ACPI S5: %s", reason);
        say("acpi: %s", why);
        return METHOD_ABSENT;
    }
    enter_acpi_mode(f);
    uint16_t pm1b = f->pm1b_cnt_from != ACPI_BLK_NONE && f->pm1b_cnt <= 0xFFFF
                    ? (uint16_t)f->pm1b_cnt : 0;
    if (pm1b)
        fmt_snprintf(b, sizeof(b), ", PM1b_CNT %04Xh, SLP_TYPb %u", pm1b, s5->aml.slp_typb);
    if (announce)
        announce();
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via acpi (S5: PM1a_CNT %04Xh, SLP_TYPa %u%s)", (unsigned)f->pm1a_cnt,
        s5->aml.slp_typa, b);
    acpi_pm_sleep((uint16_t)f->pm1a_cnt, s5->aml.slp_typa, pm1b, s5->aml.slp_typb);
    pit_delay_us(ACPI_OFF_GRACE_MS * 1000u);
    fmt_snprintf(why, size, "S5 written to PM1a_CNT %04Xh but the machine is still on "
                 "after %u s", (unsigned)f->pm1a_cnt, ACPI_OFF_GRACE_MS / 1000);
    say("power-off via acpi failed: %s", why);
    return METHOD_STILL_ON;
}
