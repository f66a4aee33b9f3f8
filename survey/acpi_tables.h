/* ACPI tables behind the RSDP: the RSDT or XSDT, the FADT, the DSDT and the SSDTs.
 *
 * Given an RSDP that acpi.h found (or a multiboot 2 tag's copy), walks the XSDT (its
 * 64-bit entries; preferred when the RSDP's 2.0 part is valid and the XSDT lies below
 * 4 GiB and its header holds) or else the RSDT (32-bit entries), as ACPICA's
 * tbutils.c chooses. Each table's header is checked: signature, a length from 36
 * bytes to a sane maximum that lies wholly inside the physmem window, and the
 * checksum, which is recorded but not held against the table: real BIOSes ship bad
 * ones, and Linux warns and goes on. Entries above 4 GiB or outside the window are
 * counted and skipped; only the first ACPI_ROOT_ENTRIES_MAX are looked at.
 *
 * From the FADT ("FACP") it keeps what an S5 power-off and a reset need (ACPI 6.x,
 * 5.2.9): the PM1 control and event blocks, the GPE blocks, PM1_CNT_LEN, SMI_CMD with
 * ACPI_ENABLE and ACPI_DISABLE, the flags, RESET_REG and RESET_VALUE, the FACS, and
 * for hardware-reduced ACPI SLEEP_CONTROL_REG and SLEEP_STATUS_REG. No field is read
 * past the FADT's own length, so an ACPI 1.0 FADT (116 bytes) simply has no X_
 * fields. The DSDT comes from X_DSDT when that is present, non-zero, below 4 GiB and
 * valid, else from the 32-bit DSDT field. An XSDT whose FADT is unusable gives way to
 * the RSDT, whose FADT may be a good one (some firmware gets only one of them right).
 * The ECDT, when there is one, says where the Embedded Controller is.
 *
 * Reads go through a struct physmem window. Compiled for the kernel and the host. */
#ifndef APMOFF_SURVEY_ACPI_TABLES_H
#define APMOFF_SURVEY_ACPI_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "acpi.h"
#include "physmem.h"

#define ACPI_HEADER_LEN         36
#define ACPI_TABLE_LEN_MAX      0x40000u    /* RSDT, XSDT, FADT: 256 KiB */
#define ACPI_AML_LEN_MAX        0x100000u   /* DSDT, SSDT: modern boards pass 256 KiB */
#define ACPI_ROOT_ENTRIES_MAX   128
#define ACPI_SSDT_MAX           64      /* laptops ship 20 to 40 */

/* 5.2.9 Table 5.10: the FADT's fixed feature flags. */
#define ACPI_FADT_RESET_REG_SUP (1u << 10)   /* RESET_REG is there (FADT revision 2+) */
#define ACPI_FADT_HW_REDUCED    (1u << 20)  /* no PM1 blocks: SLEEP_CONTROL_REG */

#include "../lib/acpi_pm1.h"    /* the address spaces, the PM1 control register bits */

struct acpi_gas {
    uint8_t space;              /* ACPI_SPACE_* */
    uint8_t bit_width, bit_offset, access_size;
    uint64_t addr;
};

/* Where a PM1 control block's port came from. */
enum acpi_blk_from {
    ACPI_BLK_NONE,              /* no usable block */
    ACPI_BLK_32,                /* the 32-bit PM1x_CNT_BLK field */
    ACPI_BLK_X_IO,              /* X_PM1x_CNT_BLK, in system I/O space */
};

/* acpi_fadt.pm1_notes */
#define ACPI_PM1A_X_IGNORED     (1u << 0)   /* X_PM1a_CNT_BLK not in I/O space (memory:
                                               unsupported) or above FFFFh */
#define ACPI_PM1B_X_IGNORED     (1u << 1)
#define ACPI_PM1A_X_MISMATCH    (1u << 2)   /* X_ and 32-bit blocks differ; X_ used */
#define ACPI_PM1B_X_MISMATCH    (1u << 3)

/* A fixed-hardware register block as ACPICA's FADT conversion (tbfadt.c) makes it:
 * the X_ structure when present, else the 32-bit field with its _LEN. */
struct acpi_block {
    uint8_t space;              /* ACPI_SPACE_IO or ACPI_SPACE_MEMORY */
    uint8_t len;                /* bytes; 0: no block */
    bool from_x;                /* the X_ field gave it */
    bool mismatch;              /* X_ and the 32-bit field both set, and differ */
    uint64_t addr;
    uint32_t addr32;            /* the 32-bit field as written (0: none) */
};

struct acpi_fadt {
    uint32_t addr, length;      /* length 0: no FADT */
    uint8_t revision;
    bool bad_checksum;
    uint8_t acpi_enable, acpi_disable;  /* values to write to SMI_CMD */
    uint8_t pm1_cnt_len;
    uint8_t pm1a_cnt_from, pm1b_cnt_from;   /* enum acpi_blk_from */
    uint8_t pm1_notes;          /* ACPI_PM1*_X_* */
    bool have_flags;            /* long enough for the flags */
    bool have_reset;            /* long enough for RESET_REG and RESET_VALUE (whether
                                   they may be used is flags & ACPI_FADT_RESET_REG_SUP) */
    uint8_t reset_value;
    uint32_t smi_cmd;           /* 0: no SMI command port (ACPI-only hardware) */
    uint32_t pm1a_evt, pm1b_evt;    /* the 32-bit event block fields */
    uint32_t pm1a_cnt, pm1b_cnt;    /* I/O ports; 0 when *_from is NONE */
    uint32_t pm1a_cnt32;        /* the 32-bit PM1a_CNT_BLK field as written */
    uint32_t flags;
    uint32_t dsdt32;            /* the DSDT field */
    uint64_t x_dsdt;            /* the X_DSDT field; 0 when absent */
    struct acpi_gas reset_reg;
    /* What the S5 sequence clears and disables first (ACPICA's AcpiHwLegacySleep):
     * the PM1 event blocks (status in the first half, enable in the second) and
     * the GPE blocks (the same halves, one byte a register). */
    struct acpi_block pm1a_evt_blk, pm1b_evt_blk, gpe0_blk, gpe1_blk;
    /* Hardware-reduced ACPI (flags & ACPI_FADT_HW_REDUCED, FADT revision 5+). */
    bool have_sleep_regs;
    struct acpi_gas sleep_control, sleep_status;
    uint64_t facs;              /* X_FIRMWARE_CTRL, else FIRMWARE_CTRL; 0: none */
};

/* A table whose header passed (signature, length, window); checksum recorded. */
struct acpi_table_ref {
    uint32_t addr;
    uint32_t length;            /* 0: none */
};

enum acpi_root_status {
    ACPI_ROOT_NONE,             /* no RSDP given */
    ACPI_ROOT_OK,
    ACPI_ROOT_UNREADABLE,       /* neither XSDT nor RSDT has a valid header in the window */
};

/* The Embedded Controller Boot Resources Table (5.2.16): where the EC is before
 * the namespace is loaded. */
struct acpi_ecdt {
    bool found;
    uint16_t control, data;     /* I/O ports (command/status, data); 0 if not I/O */
    uint8_t gpe;
    char id[48];                /* the EC device's path, "\_SB.PCI0.LPCB.EC0" */
};

struct acpi_tables {
    uint8_t root_status;        /* enum acpi_root_status */
    bool via_xsdt;
    bool xsdt_had_no_fadt;      /* the XSDT was read, its FADT unusable: the RSDT's used */
    bool root_bad_checksum;
    bool dsdt_from_x;           /* the DSDT came from X_DSDT */
    bool dsdt_bad_checksum;
    uint8_t ssdt_count;
    uint8_t ssdt_dropped;       /* SSDTs past ACPI_SSDT_MAX */
    uint64_t ssdt_bad_checksum; /* bit i: ssdt[i] */
    uint32_t root_addr;
    uint32_t entries;           /* as the root table's length says */
    uint32_t entries_skipped;   /* above 4 GiB, outside the window, bad header, or
                                   past ACPI_ROOT_ENTRIES_MAX */
    uint32_t bad_checksums;     /* tables accepted with a bad checksum, the root too */
    struct acpi_fadt fadt;
    struct acpi_table_ref dsdt;
    struct acpi_table_ref ssdt[ACPI_SSDT_MAX];
    struct acpi_ecdt ecdt;
};

/* Fills t from the RSDP (NULL, or status NOT_FOUND: root_status NONE). Returns whether
 * a FADT was found. */
bool acpi_read_tables(struct acpi_tables *t, const struct physmem *pm,
                      const struct acpi_rsdp *rsdp);

/* Checks the table header at addr: the signature (if sig is not NULL), a length of
 * ACPI_HEADER_LEN..max_len lying inside the window. Returns its length, 0 if it
 * failed; *bad_sum tells whether its bytes do not sum to 0. */
uint32_t acpi_check_table(const struct physmem *pm, uint64_t addr, const char *sig,
                          uint32_t max_len, bool *bad_sum);

/* Reads a FADT of len bytes at p (the header included) into f. */
void acpi_parse_fadt(struct acpi_fadt *f, const uint8_t *p, uint32_t len);

/* Hardware-reduced ACPI (FADT flag HW_REDUCED_ACPI): no PM1 blocks; sleep goes
 * through SLEEP_CONTROL_REG. */
static inline bool acpi_fadt_hw_reduced(const struct acpi_fadt *f)
{
    return f->have_flags && (f->flags & ACPI_FADT_HW_REDUCED);
}

#endif
