/* The ACPI facts as the survey says them: see acpi_report.h. */
#include "acpi_report.h"
#include "../../system/console.h"
#include "../../lib/format.h"

static const char *s5_table_name(const struct acpi_s5 *s5, char *buf, unsigned size)
{
    if (s5->table == ACPI_S5_IN_DSDT)
        return "DSDT";
    fmt_snprintf(buf, size, "SSDT %u", (unsigned)s5->table);
    return buf;
}

static void report_block(const char *name, const struct acpi_block *b)
{
    if (b->mismatch)
        say("acpi: FADT: X_%s (%Xh) and the 32-bit %s (%Xh) differ; X_ used, as ACPICA does",
            name, (unsigned)b->addr, name, (unsigned)b->addr32);
}

void acpi_s5_report(const struct acpi_s5 *s5)
{
    const struct acpi_fadt *f = &s5->tables.fadt;
    char b[16], smi[40], where[12];

    if (s5->tables.xsdt_had_no_fadt)
        say("acpi: the XSDT gives no usable FADT; the RSDT's is used");
    if (f->length) {
        if (f->pm1b_cnt_from != ACPI_BLK_NONE)
            fmt_snprintf(b, sizeof(b), "%04Xh", (unsigned)f->pm1b_cnt);
        if (f->smi_cmd)
            fmt_snprintf(smi, sizeof(smi), "%Xh (ACPI_ENABLE %02Xh)", (unsigned)f->smi_cmd,
                         f->acpi_enable);
        say("acpi: FADT at %08Xh, revision %u: PM1a_CNT %04Xh, PM1b_CNT %s, SMI_CMD %s",
            (unsigned)f->addr, f->revision, (unsigned)f->pm1a_cnt,
            f->pm1b_cnt_from != ACPI_BLK_NONE ? b : "none", f->smi_cmd ? smi : "none");
        if (f->pm1_notes & ACPI_PM1A_X_MISMATCH)
            say("acpi: FADT: X_PM1a_CNT_BLK and the 32-bit PM1a_CNT_BLK differ; X_ used "
                "(the 32-bit one is tried too if S5 leaves the machine on)");
        if (f->pm1_notes & ACPI_PM1B_X_MISMATCH)
            say("acpi: FADT: X_PM1b_CNT_BLK and the 32-bit PM1b_CNT_BLK differ; X_ used");
        if (f->pm1_notes & (ACPI_PM1A_X_IGNORED | ACPI_PM1B_X_IGNORED))
            say("acpi: FADT: an X_PM1x_CNT_BLK outside I/O space is ignored; the 32-bit "
                "field is used");
        report_block("PM1a_EVT_BLK", &f->pm1a_evt_blk);
        report_block("GPE0_BLK", &f->gpe0_blk);
        report_block("GPE1_BLK", &f->gpe1_blk);
        if (acpi_fadt_hw_reduced(f))
            say("acpi: FADT: hardware-reduced ACPI: SLEEP_CONTROL_REG %s",
                f->have_sleep_regs ? "given" : "missing");
    }
    if (s5->found) {
        say("acpi: \\_S5_ in the %s: SLP_TYPa %u, SLP_TYPb %u%s%s",
            s5_table_name(s5, where, sizeof(where)), s5->aml.slp_typa, s5->aml.slp_typb,
            s5->aml.how == AML_S5_BY_SEARCH ? " (found by byte search)" : "",
            s5->aml.conditional ? " (inside an If or Else: the first one the reader met)"
                                : "");
    } else {
        say("acpi: S5: %s", acpi_s5_reason_text((enum acpi_s5_reason)s5->reason));
    }
}
