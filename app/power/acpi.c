/* method=acpi: see method_acpi.h. The order is ACPICA's and Linux's: ACPI mode
 * (AcpiEnable: SMI_CMD, then poll SCI_EN for 3 s) as at boot, then at shutdown
 * AcpiEnterSleepStatePrep (\_S5_, \_PTS(5), \_SST) and AcpiHwLegacySleep. */
#include "acpi.h"
#include "../facts/acpi_aml.h"
#include "../../system/acpi_pm.h"
#include "../../system/console.h"
#include "../../system/cpu.h"
#include "../../system/timer.h"
#include "../../lib/format.h"

#define ACPI_OFF_GRACE_MS   3000    /* as APM's: how long "off" may take */
#define ACPI_AGAIN_MS       1500    /* then SLP_EN again, as ACPICA's S4/S5 retry */
#define ACPI_32BIT_MS       1000    /* then the 32-bit PM1a_CNT port, when it differs */
#define S5                  5


void acpi_check(const struct acpi_s5 *s5, const struct acpi_aml_facts *aml,
                struct acpi_check_facts *out)
{
    const struct acpi_fadt *f = &s5->tables.fadt;
    char why[160];

    *out = (struct acpi_check_facts){ .unusable = acpi_unusable(s5) };
    if (!out->unusable && !s5->found && !(aml->loaded && aml->s5_type))
        out->unusable = acpi_s5_reason_text((enum acpi_s5_reason)s5->reason);
    if (out->unusable) {
        say("check: acpi: method=acpi would find no S5: %s", out->unusable);
        return;
    }
    if (aml->pts && !aml->pts_ok)
        fmt_snprintf(why, sizeof(why), "; \\_PTS cannot be evaluated: %s", aml->pts_why);
    else
        fmt_snprintf(why, sizeof(why), "; \\_PTS %s", !aml->loaded ? "not checked (AML not "
                     "loaded)" : aml->pts ? "can be evaluated" : "absent");
    if (acpi_fadt_hw_reduced(f)) {
        out->hw_reduced = true;
        say("check: acpi: S5 usable through SLEEP_CONTROL_REG (hardware-reduced)%s", why);
        return;
    }
    out->sci_en = acpi_pm_sci_enabled((uint16_t)f->pm1a_cnt);
    out->smi_can_enable = f->smi_cmd && f->smi_cmd <= 0xFFFF && f->acpi_enable;
    say("check: acpi: S5 usable: PM1a_CNT %04Xh, SLP_TYPa %u, SLP_TYPb %u; SCI_EN %s%s%s",
        (unsigned)f->pm1a_cnt, s5->aml.slp_typa, s5->aml.slp_typb,
        out->sci_en ? "set (ACPI mode)" : "clear (legacy mode)",
        out->sci_en ? "" : out->smi_can_enable ? ", SMI_CMD can enable ACPI"
                                               : ", and no SMI_CMD to enable ACPI", why);
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

static uint16_t io_block(const struct acpi_block *b)
{
    return b->len && b->space == ACPI_SPACE_IO && b->addr <= 0xFFFF ? (uint16_t)b->addr : 0;
}

static struct acpi_pm_regs pm_regs(const struct acpi_fadt *f)
{
    struct acpi_pm_regs r = {
        .pm1a_cnt = (uint16_t)f->pm1a_cnt,
        .pm1b_cnt = f->pm1b_cnt_from != ACPI_BLK_NONE && f->pm1b_cnt <= 0xFFFF
                    ? (uint16_t)f->pm1b_cnt : 0,
        .pm1a_sts = io_block(&f->pm1a_evt_blk),
        .pm1b_sts = io_block(&f->pm1b_evt_blk),
        .gpe0 = io_block(&f->gpe0_blk), .gpe0_len = f->gpe0_blk.len,
        .gpe1 = io_block(&f->gpe1_blk), .gpe1_len = f->gpe1_blk.len,
    };
    return r;
}

/* The SLP_TYP values: \_S5_ evaluated when the AML runs (a Method too), else what the
 * byte-level reader found. false (why says) when neither has them. */
static bool sleep_type(const struct acpi_off *c, bool aml, uint8_t *a, uint8_t *b,
                       char *why, unsigned size)
{
    const struct acpi_s5 *s5 = c->s5;
    char err[140];

    if (aml && acpi_aml_sleep_type(S5, a, b, err, sizeof(err))) {
        say("acpi: \\_S5_ evaluated: SLP_TYPa %u, SLP_TYPb %u", *a, *b);
        return true;
    }
    if (aml)
        say("acpi: \\_S5_ not evaluated: %s", err);
    if (s5->found) {
        *a = s5->aml.slp_typa;
        *b = s5->aml.slp_typb;
        if (aml)
            say("acpi: using the byte-level reader's SLP_TYPa %u, SLP_TYPb %u", *a, *b);
        return true;
    }
    if (s5->aml.result == AML_S5_METHOD && !c->run_aml)
        fmt_snprintf(why, size, "no ACPI S5: \\_S5_ is a method, and pts=off runs no AML");
    else
        fmt_snprintf(why, size, "no ACPI S5: %s",
                     acpi_s5_reason_text((enum acpi_s5_reason)s5->reason));
    return false;
}

static void flush_caches(void)
{
    cpu_wbinvd();
}

/* ACPICA's hwesleep.c: WAK_STS cleared in SLEEP_STATUS_REG, then SLP_TYP and SLP_EN
 * together in SLEEP_CONTROL_REG. */
static enum way_result hw_reduced_off(const struct acpi_off *c, uint8_t typa,
                                         char *why, unsigned size)
{
    const struct acpi_fadt *f = &c->s5->tables.fadt;
    const struct acpi_gas *ctl = &f->sleep_control, *sts = &f->sleep_status;
    uint32_t v = ((uint32_t)typa << ACPI_SLEEP_TYP_SHIFT & ACPI_SLEEP_TYP_MASK) | ACPI_SLEEP_EN;

    if (c->announce)
        c->announce(c->ctx, "acpi");
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via acpi (S5: SLEEP_CONTROL_REG %Xh, SLP_TYP %u, hardware-reduced)",
        (unsigned)ctl->addr, typa);
    if (!acpi_pm_gas_write(sts->space, sts->addr, sts->bit_width, ACPI_SLEEP_WAK_STS) ||
        (c->can_flush && (flush_caches(), false)) ||
        !acpi_pm_gas_write(ctl->space, ctl->addr, ctl->bit_width, v)) {
        fmt_snprintf(why, size, "SLEEP_CONTROL_REG is in an address space apmoff cannot "
                     "write (space %u); try method=efi", ctl->space);
        say("power-off via acpi failed: %s", why);
        return WAY_STILL_ON;
    }
    pit_delay_us(ACPI_OFF_GRACE_MS * 1000u);
    fmt_snprintf(why, size, "S5 written to SLEEP_CONTROL_REG %Xh but the machine is still "
                 "on after %u s; hardware-reduced machines power off by UEFI: try "
                 "method=efi", (unsigned)ctl->addr, ACPI_OFF_GRACE_MS / 1000);
    say("power-off via acpi failed: %s", why);
    return WAY_STILL_ON;
}

enum way_result acpi_power_off(const struct acpi_off *c, char *why, unsigned size)
{
    const struct acpi_s5 *s5 = c->s5;
    const struct acpi_fadt *f = &s5->tables.fadt;
    const char *reason = acpi_unusable(s5);
    char err[200], b[40] = "";
    uint8_t typa, typb;
    bool aml = false;

    if (reason) {
        fmt_snprintf(why, size, "no ACPI S5: %s", reason);
        say("acpi: %s", why);
        return WAY_ABSENT;
    }
    if (c->run_aml) {
        aml = acpi_aml_start(&s5->tables, c->bi, c->pci_mech, err, sizeof(err));
        if (!aml)
            say("acpi: the firmware's AML does not run here: %s; S5 without \\_PTS", err);
    } else {
        say("acpi: pts=off: no AML runs (\\_PTS skipped)");
    }
    if (!sleep_type(c, aml, &typa, &typb, why, size)) {
        say("acpi: %s", why);
        return WAY_ABSENT;
    }
    if (!acpi_fadt_hw_reduced(f))
        enter_acpi_mode(f);
    /* A \_PTS that stopped half-way may have left soft-off unarmed: the failure
     * below says so, since that is where a user looks. */
    const char *pts_note = aml && !acpi_aml_prepare_sleep(S5) ? "; \\_PTS(5) stopped "
                           "before its end (see above)" : "";
    if (acpi_fadt_hw_reduced(f))
        return hw_reduced_off(c, typa, why, size);

    struct acpi_pm_regs r = pm_regs(f);
    if (r.pm1b_cnt)
        fmt_snprintf(b, sizeof(b), ", PM1b_CNT %04Xh, SLP_TYPb %u", r.pm1b_cnt, typb);
    if (c->announce)
        c->announce(c->ctx, "acpi");
    unsigned gpes = acpi_pm_quiesce(&r);
    say("acpi: WAK_STS and the PM1 status cleared (PM1a_EVT %04Xh), %u GPE enable "
        "register%s zeroed and their status cleared", r.pm1a_sts, gpes, gpes == 1 ? "" : "s");
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via acpi (S5: PM1a_CNT %04Xh, SLP_TYPa %u%s)", r.pm1a_cnt, typa, b);
    acpi_pm_sleep(&r, typa, typb, c->can_flush ? flush_caches : 0);
    pit_delay_us(ACPI_AGAIN_MS * 1000u);
    say("acpi: still on after %u ms: SLP_EN again, as ACPICA does for slow chipsets",
        ACPI_AGAIN_MS);
    acpi_pm_sleep_again(&r);
    pit_delay_us((ACPI_OFF_GRACE_MS - ACPI_AGAIN_MS) * 1000u);
    /* Linux's acpi_force_32bit_fadt_addr machines: the X_ port was the wrong one. */
    if ((f->pm1_notes & ACPI_PM1A_X_MISMATCH) && f->pm1a_cnt32 && f->pm1a_cnt32 <= 0xFFFF) {
        struct acpi_pm_regs r32 = r;
        r32.pm1a_cnt = (uint16_t)f->pm1a_cnt32;
        say("acpi: still on: trying the 32-bit PM1a_CNT_BLK %04Xh, which X_PM1a_CNT_BLK "
            "overrode", r32.pm1a_cnt);
        acpi_pm_sleep(&r32, typa, typb, c->can_flush ? flush_caches : 0);
        pit_delay_us(ACPI_32BIT_MS * 1000u);
    }
    fmt_snprintf(why, size, "S5 written to PM1a_CNT %04Xh but the machine is still on "
                 "after %u s%s", r.pm1a_cnt, ACPI_OFF_GRACE_MS / 1000, pts_note);
    say("power-off via acpi failed: %s", why);
    return WAY_STILL_ON;
}
