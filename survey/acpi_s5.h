/* ACPI S5 (soft off), everything the firmware tables say about it, read without
 * touching hardware: the FADT's facts (acpi_tables.h) and the SLP_TYP values of the
 * \_S5_ package (aml_s5.h), looked for in the DSDT, then in each SSDT in the root
 * table's order. The first table holding \_S5_ decides: found, or its package
 * unreadable. The code that writes PM1a/PM1b sits above survey/ and uses this.
 *
 * Compiled for the kernel and the host; no I/O. */
#ifndef APMOFF_SURVEY_ACPI_S5_H
#define APMOFF_SURVEY_ACPI_S5_H

#include <stdbool.h>
#include <stdint.h>

#include "acpi.h"
#include "acpi_tables.h"
#include "aml_s5.h"
#include "physmem.h"

enum acpi_s5_reason {
    ACPI_S5_OK,
    ACPI_S5_NO_RSDP,
    ACPI_S5_NO_ROOT,            /* neither the XSDT nor the RSDT is readable */
    ACPI_S5_NO_FADT,
    ACPI_S5_NO_DSDT,
    ACPI_S5_NO_OBJECT,          /* every table read to its end: no \_S5_ */
    ACPI_S5_UNREADABLE,         /* \_S5_ is not a package of integers */
    ACPI_S5_NOT_UNDERSTOOD,     /* not found, and some table's AML was not fully read */
    ACPI_S5_METHOD,             /* \_S5_ is a method: the interpreter must run it */
};

#define ACPI_S5_IN_DSDT 0       /* acpi_s5.table; SSDT i is i + 1 */

struct acpi_s5 {
    bool found;                 /* aml.slp_typa and aml.slp_typb are the values */
    uint8_t reason;             /* enum acpi_s5_reason */
    uint8_t table;              /* where \_S5_ was: ACPI_S5_IN_DSDT or SSDT index + 1 */
    struct aml_s5 aml;          /* the reader's answer for that table (or the last) */
    struct acpi_tables tables;
};

/* Reads the tables behind rsdp and looks for \_S5_. Returns out->found. */
bool acpi_s5_find(const struct physmem *pm, const struct acpi_rsdp *rsdp,
                  struct acpi_s5 *out);

/* "ok", "no FADT", "no \_S5_ object", ...; "?" for an unknown value. */
const char *acpi_s5_reason_text(enum acpi_s5_reason reason);

/* Why method=acpi would find no S5 in these facts, or NULL. */
const char *acpi_unusable(const struct acpi_s5 *s5);

#endif
