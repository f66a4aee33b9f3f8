/* The south bridge's own soft-off, for method=chipset: where a chipset keeps its
 * power-management I/O block, how that block is switched on, and which sleep types
 * its PM1 control register takes as soft-off. One row a chip, from the PCI IDs of
 * the function whose configuration space holds the block's base.
 *
 * Every chip here sleeps the same way: the PM1 control register at the block's base
 * + 04h, the sleep type in bits 12:10, the sleep enable in bit 13 (ACPI's PM1_CNT;
 * PIIX4's PMCNTRL with SUS_TYP and SUS_EN). What differs is where the base lives,
 * how the block is enabled, and the soft-off type. Pure: the host tests feed it PCI
 * walks; the writes are app/power/chipset.c's. */
#ifndef APMOFF_SURVEY_SOFTOFF_H
#define APMOFF_SURVEY_SOFTOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "pci.h"

#define SOFTOFF_PM1_CNT     0x04        /* from the block's base */
#define SOFTOFF_SLP_EN      (1u << 13)
#define SOFTOFF_TYPE_SHIFT  10
#define SOFTOFF_TYPES_MAX   2

struct softoff_chip {
    uint16_t vendor, device;    /* the function holding the base register */
    const char *name;
    uint8_t base_reg;           /* its configuration register: a 16-bit I/O base */
    uint16_t base_mask;         /* the base's address bits there */
    uint8_t enable_reg;         /* the byte whose bit switches the block's decode on */
    uint8_t enable_bit;
    uint8_t types[SOFTOFF_TYPES_MAX];   /* soft-off sleep types, in the order tried */
    uint8_t type_count;
    const char *source;         /* the datasheet section, and where a model differs */
};

struct softoff_plan {
    const struct softoff_chip *chip;    /* NULL: no chip of the table on the bus */
    uint8_t bus, dev, fn;               /* where it answered */
};

/* The table itself, for the tests that hold it against the verdict table. */
const struct softoff_chip *softoff_table(unsigned *count);

/* The first function of the walk that the table knows. */
void softoff_find(const struct pci_survey *pci, struct softoff_plan *out);

/* The PM I/O base from the base register's value (0: not set up). */
static inline uint16_t softoff_base(const struct softoff_chip *c, uint32_t reg_dword)
{
    return (uint16_t)(reg_dword >> (8 * (c->base_reg & 3))) & c->base_mask;
}

/* PM1 control's value for a sleep type, with or without the enable. */
static inline uint16_t softoff_value(uint8_t type, bool enable)
{
    return (uint16_t)((type & 7) << SOFTOFF_TYPE_SHIFT | (enable ? SOFTOFF_SLP_EN : 0));
}

#endif
