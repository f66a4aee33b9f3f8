/* SMBIOS (DMI): who made the machine and its BIOS, from the firmware's own tables.
 *
 * The entry point is found by scanning 0xF0000-0xFFFFF on 16-byte boundaries, or
 * taken from a copy (a multiboot 2 SMBIOS tag holds one). Three kinds exist:
 *   "_SM3_"  SMBIOS 3.x, 64-bit table address, no structure count (DSP0134 5.2.2);
 *   "_SM_"   SMBIOS 2.1-2.8, followed by "_DMI_" at offset 16 (5.2.1);
 *   "_DMI_"  alone: the legacy DMI 2.0 entry point of 1990s BIOSes.
 * A 3.x entry point is preferred, as Linux does, unless its table lies above 4 GiB
 * (out of reach of a 32-bit kernel without paging): then a 2.x one is used if there
 * is one, and the 3.x one is only reported.
 *
 * The structure table is walked defensively: bounded by the table length, the
 * structure count (2.x) and SMBIOS_MAX_STRUCTURES, every structure's formatted area
 * at least 4 bytes and inside the table, every string set ending in a double NUL
 * inside the table. A structure that breaks a rule stops the walk and is reported
 * (status SMBIOS_MALFORMED and what was wrong); nothing past the table is read. Fewer
 * than 4 bytes left at the end is taken as the end (3.x gives only a maximum size).
 * Strings are cut to SMBIOS_STR_MAX bytes and kept as the firmware wrote them, bytes
 * 80h-FFh and control characters included (SMBIOS strings are ASCII by the spec but
 * not in every BIOS: a vendor's name in Latin-1, say): whoever prints them decides
 * how (the survey's JSON escapes them as \u00XX, its console lines show '?').
 *
 * Reads go through a struct physmem window (see physmem.h). Compiled for the kernel
 * and the host. */
#ifndef APMOFF_SURVEY_SMBIOS_H
#define APMOFF_SURVEY_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physmem.h"

#define SMBIOS_SCAN_START       0xF0000u
#define SMBIOS_SCAN_END         0x100000u
#define SMBIOS_MAX_STRUCTURES   512
#define SMBIOS_STR_MAX          64      /* characters kept of each string */
#define SMBIOS_TABLE_MAX        0x100000u /* bytes walked at most (3.x gives only a bound) */

enum smbios_status {
    SMBIOS_NOT_FOUND,           /* no entry point with valid checksums */
    SMBIOS_OK,                  /* the table was walked to its end */
    SMBIOS_TABLE_ABOVE_4G,      /* only a 3.x entry point, its table above 4 GiB */
    SMBIOS_TABLE_UNREADABLE,    /* the table starts outside the memory window, or is empty */
    SMBIOS_MALFORMED,           /* the walk stopped at a malformed structure */
};

enum smbios_entry_kind {
    SMBIOS_ENTRY_NONE,
    SMBIOS_ENTRY_2,             /* "_SM_" with "_DMI_" */
    SMBIOS_ENTRY_3,             /* "_SM3_" */
    SMBIOS_ENTRY_LEGACY_DMI,    /* "_DMI_" alone */
};

/* What stopped a walk early (status SMBIOS_MALFORMED). */
enum smbios_problem {
    SMBIOS_PROBLEM_NONE,
    SMBIOS_PROBLEM_SHORT_STRUCTURE,     /* formatted length below 4 */
    SMBIOS_PROBLEM_STRUCTURE_OVERRUN,   /* formatted area runs past the table */
    SMBIOS_PROBLEM_STRINGS_UNTERMINATED,/* no double NUL before the table's end */
};

struct smbios_info {
    enum smbios_status status;
    enum smbios_entry_kind kind;
    uint32_t entry_addr;        /* where the entry point was found; 0 for a copy */
    uint8_t major, minor;       /* SMBIOS version the entry point claims */
    uint8_t docrev;             /* 3.x only */
    uint64_t table_addr;
    uint32_t table_len;         /* 2.x: the table's length; 3.x: its maximum size */
    bool table_clamped;         /* the walk stopped short of table_len: at the end of
                                   the memory window or at SMBIOS_TABLE_MAX */
    uint16_t entry_count;       /* 2.x: the structure count the entry point claims */
    bool smbios3_above_4g;      /* the 3.x entry point points above 4 GiB (a 2.x one,
                                   if any, was used instead) */
    unsigned bad_entries;       /* anchors found with a bad checksum or length */

    unsigned structures;        /* structures walked */
    bool end_seen;              /* the end-of-table structure (type 127) was reached */
    bool truncated;             /* stopped at SMBIOS_MAX_STRUCTURES */
    bool count_mismatch;        /* 2.x: the table ended before entry_count structures */
    enum smbios_problem problem;
    uint32_t problem_offset;    /* offset in the table of the structure at fault */
    uint8_t problem_type;       /* its type, when the header was readable */

    bool have_bios;             /* a type 0 structure was seen */
    char bios_vendor[SMBIOS_STR_MAX + 1];
    char bios_version[SMBIOS_STR_MAX + 1];
    char bios_date[SMBIOS_STR_MAX + 1];
    bool have_system;           /* a type 1 structure was seen */
    char sys_vendor[SMBIOS_STR_MAX + 1];
    char sys_product[SMBIOS_STR_MAX + 1];
    char sys_version[SMBIOS_STR_MAX + 1];
};

/* Scans [start, end) of physical memory on 16-byte boundaries (the kernel passes
 * SMBIOS_SCAN_START, SMBIOS_SCAN_END), then walks the table of the best entry point. */
void smbios_scan(struct smbios_info *info, const struct physmem *pm, uint32_t start,
                 uint32_t end);

/* The same from a copy of an entry point of len bytes (e.g. a multiboot 2 tag's). */
void smbios_from_entry(struct smbios_info *info, const struct physmem *pm,
                       const uint8_t *entry, size_t len);

const char *smbios_status_name(enum smbios_status status);
const char *smbios_problem_name(enum smbios_problem problem);

#endif
