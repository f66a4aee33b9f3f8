/* Can this board switch itself off, and how does it reset? A verdict from the PCI IDs
 * of its host bridge, south bridge and power-management function, from one table
 * (chipset.c) whose rows each name the datasheet they rest on.
 *
 * A board powers itself off when its south bridge has a soft-off state (PIIX4's
 * SUS_TYP, the ICH's and VIA's ACPI SLP_TYP, ...) wired to an ATX supply, and the APM
 * BIOS drives it; a south bridge without one (Intel SIO, PIIX, PIIX3; SiS 496/497)
 * means AT-style power and an APM off that cannot cut it. The table only knows the
 * chipset: an ATX supply and a BIOS that uses it are still needed, so YES reads "can",
 * never "will". */
#ifndef APMOFF_SURVEY_CHIPSET_H
#define APMOFF_SURVEY_CHIPSET_H

#include "pci.h"

enum chipset_soft_off {
    SOFT_OFF_UNKNOWN,
    SOFT_OFF_YES,
    SOFT_OFF_NO,
};

/* A fact a row of the table states about its chip: there, not there, or not known
 * (the datasheet not read, or silent). */
enum chipset_fact {
    FACT_UNKNOWN,
    FACT_YES,
    FACT_NO,
};

#define CHIPSET_NAME_MAX    48
#define CHIPSET_EXPLAIN_MAX 128

struct chipset_verdict {
    enum chipset_soft_off soft_off;
    const char *host;           /* the host bridge's name ("Intel 430HX"), or NULL */
    const char *south;          /* the south bridge's ("PIIX3"), or NULL */
    const char *pm;             /* a separate power-management function's, or NULL */
    char name[CHIPSET_NAME_MAX];        /* "Intel 430HX (PIIX3)"; "" when unknown */
    char explain[CHIPSET_EXPLAIN_MAX];  /* one line for the summary */
    /* How the chipset resets (reset=pci, reset=port92): the south bridge's row
     * decides, or the host bridge's where the south bridge's does not know. */
    enum chipset_fact reset_cf9;        /* a reset control register at CF9h */
    const char *reset_cf9_by;           /* the chip whose row says so, or NULL */
    enum chipset_fact port92;           /* port 92h with its fast-reset bit */
    const char *port92_by;
};

/* The verdict for the functions a PCI walk found; pci NULL or with mech
 * PCI_MECH_NONE is an ISA machine. */
void chipset_identify(const struct pci_survey *pci, struct chipset_verdict *out);

const char *chipset_soft_off_name(enum chipset_soft_off v);    /* "yes", "no", "unknown" */
const char *chipset_fact_name(enum chipset_fact f);             /* the same words */

#endif
