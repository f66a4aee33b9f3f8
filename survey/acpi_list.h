/* Every ACPI table a dump archives, as ACPICA's acpidump lists them (action=dump):
 * the RSDP, the root table (the XSDT where there is one, and the
 * RSDT), each table the root lists, and the DSDT and FACS the FADT points to, each
 * with its address and length, in that order and each once. Only what lies inside the
 * memory window, whose header gives a length from the header's size to
 * ACPI_AML_LEN_MAX, is listed; the rest is counted. Pure: reads through a physmem
 * window; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_ACPI_LIST_H
#define APMOFF_SURVEY_ACPI_LIST_H

#include <stdint.h>

#include "acpi.h"
#include "physmem.h"

#define ACPI_LIST_MAX   (ACPI_ROOT_LIST_ENTRIES + 6)
#define ACPI_ROOT_LIST_ENTRIES 128

struct acpi_listed {
    char sig[5];                /* "RSDP", "XSDT", "DSDT", "FACS", ... */
    uint32_t addr;
    uint32_t length;
};

struct acpi_list {
    unsigned count;
    unsigned skipped;           /* entries above 4 GiB, outside the window, with a bad
                                   header, listed twice, or past ACPI_LIST_MAX */
    struct acpi_listed table[ACPI_LIST_MAX];
};

void acpi_list(struct acpi_list *out, const struct physmem *pm, const struct acpi_rsdp *rsdp);

#endif
