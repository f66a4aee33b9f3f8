/* ACPI: whether the firmware has it, from the Root System Description Pointer.
 *
 * The RSDP is found as the ACPI specification says (5.2.5.1): on a 16-byte boundary
 * in the first KiB of the Extended BIOS Data Area (segment in the BDA word at 40Eh),
 * then in E0000h-FFFFFh. Its first 20 bytes must sum to 0 (ACPI 1.0); from revision
 * 2 on, its `length` bytes must too (bounded: ACPI_RSDP_LEN_MIN..ACPI_RSDP_LEN_MAX).
 * A candidate whose 20-byte checksum holds but whose extended part fails is kept as
 * ACPI_RSDP_V1_ONLY (RSDT usable, XSDT not), and only if no fully valid one exists.
 * A copy (a multiboot 2 ACPI tag's) can be checked the same way.
 *
 * Reads go through a struct physmem window (see physmem.h). Compiled for the kernel
 * and the host. */
#ifndef APMOFF_SURVEY_ACPI_H
#define APMOFF_SURVEY_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physmem.h"

#define ACPI_RSDP_V1_LEN        20
#define ACPI_RSDP_LEN_MIN       36      /* the ACPI 2.0 structure */
#define ACPI_RSDP_LEN_MAX       1024    /* longer is not believed */
#define ACPI_OEM_ID_LEN         6

enum acpi_rsdp_status {
    ACPI_RSDP_NOT_FOUND,
    ACPI_RSDP_OK,               /* every checksum that applies holds */
    ACPI_RSDP_V1_ONLY,          /* revision >= 2, but length or extended checksum bad, or
                                   a 20-byte copy: only the RSDT address is trusted */
};

enum acpi_rsdp_where {
    ACPI_RSDP_IN_COPY,          /* given by the caller */
    ACPI_RSDP_IN_EBDA,
    ACPI_RSDP_IN_BIOS,          /* E0000h-FFFFFh */
};

struct acpi_rsdp {
    enum acpi_rsdp_status status;
    enum acpi_rsdp_where where;
    uint32_t addr;              /* physical address; 0 for a copy */
    uint8_t revision;           /* 0 for ACPI 1.0, 2 and up for 2.0+ */
    char oem_id[ACPI_OEM_ID_LEN + 1];
    uint32_t rsdt_addr;
    uint32_t length;            /* revision >= 2: the length field (as read) */
    bool have_xsdt;             /* status OK and revision >= 2 */
    uint64_t xsdt_addr;         /* 0 unless have_xsdt */
    uint32_t ebda;              /* EBDA address from the BDA; 0 if unusable */
    unsigned bad_checksums;     /* "RSD PTR " found with a bad 20-byte checksum */
    unsigned bad_extended;      /* ... with a good one but a bad length or extended sum */
};

/* Searches the EBDA and E0000h-FFFFFh (both inside the window, or skipped). */
void acpi_find_rsdp(struct acpi_rsdp *rsdp, const struct physmem *pm);

/* Checks a copy of len bytes. Returns whether an RSDP was accepted (status OK or
 * V1_ONLY). */
bool acpi_parse_rsdp(struct acpi_rsdp *rsdp, const uint8_t *p, size_t len);

const char *acpi_rsdp_status_name(enum acpi_rsdp_status status);

#endif
