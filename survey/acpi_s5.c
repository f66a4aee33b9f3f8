/* ACPI S5 facts from the tables: see acpi_s5.h. */
#include "acpi_s5.h"

static const char *const reason_texts[] = {
    [ACPI_S5_OK] = "ok",
    [ACPI_S5_NO_RSDP] = "no RSDP",
    [ACPI_S5_NO_ROOT] = "RSDT/XSDT unreadable",
    [ACPI_S5_NO_FADT] = "no FADT",
    [ACPI_S5_NO_DSDT] = "no DSDT",
    [ACPI_S5_NO_OBJECT] = "no \\_S5_ object",
    [ACPI_S5_UNREADABLE] = "\\_S5_ package unreadable",
    [ACPI_S5_NOT_UNDERSTOOD] = "no \\_S5_ found (AML not fully understood)",
    [ACPI_S5_METHOD] = "\\_S5_ is a method (only the AML interpreter can run it)",
};

const char *acpi_s5_reason_text(enum acpi_s5_reason reason)
{
    return (unsigned)reason < sizeof(reason_texts) / sizeof(reason_texts[0])
           ? reason_texts[reason] : "?";
}

static enum acpi_s5_reason search(const struct physmem *pm, struct acpi_s5 *out)
{
    const struct acpi_tables *t = &out->tables;
    bool partial = false;

    for (unsigned i = 0; i <= t->ssdt_count; i++) {
        const struct acpi_table_ref *ref = i ? &t->ssdt[i - 1] : &t->dsdt;
        enum aml_s5_result r = aml_find_s5(physmem_at(pm, ref->addr) + ACPI_HEADER_LEN,
                                           ref->length - ACPI_HEADER_LEN, &out->aml);
        out->table = (uint8_t)i;
        if (r == AML_S5_FOUND)
            return ACPI_S5_OK;
        if (r == AML_S5_UNREADABLE)
            return ACPI_S5_UNREADABLE;
        if (r == AML_S5_METHOD)
            return ACPI_S5_METHOD;
        partial |= r == AML_S5_NOT_UNDERSTOOD;
    }
    return partial ? ACPI_S5_NOT_UNDERSTOOD : ACPI_S5_NO_OBJECT;
}

bool acpi_s5_find(const struct physmem *pm, const struct acpi_rsdp *rsdp,
                  struct acpi_s5 *out)
{
    *out = (struct acpi_s5){ 0 };
    acpi_read_tables(&out->tables, pm, rsdp);
    if (out->tables.root_status == ACPI_ROOT_NONE)
        out->reason = ACPI_S5_NO_RSDP;
    else if (out->tables.root_status != ACPI_ROOT_OK)
        out->reason = ACPI_S5_NO_ROOT;
    else if (!out->tables.fadt.length)
        out->reason = ACPI_S5_NO_FADT;
    else if (!out->tables.dsdt.length)
        out->reason = ACPI_S5_NO_DSDT;
    else
        out->reason = search(pm, out);
    out->found = out->reason == ACPI_S5_OK;
    return out->found;
}

const char *acpi_unusable(const struct acpi_s5 *s5)
{
    const struct acpi_fadt *f = &s5->tables.fadt;

    if (s5->reason == ACPI_S5_NO_RSDP || s5->reason == ACPI_S5_NO_ROOT ||
        s5->reason == ACPI_S5_NO_FADT || s5->reason == ACPI_S5_NO_DSDT)
        return acpi_s5_reason_text((enum acpi_s5_reason)s5->reason);
    if (acpi_fadt_hw_reduced(f))
        return f->have_sleep_regs ? 0
             : "hardware-reduced ACPI without SLEEP_CONTROL_REG (try method=efi)";
    if (f->pm1a_cnt_from == ACPI_BLK_NONE || f->pm1a_cnt > 0xFFFF)
        return "the FADT gives no PM1a control block in I/O space";
    return 0;
}
