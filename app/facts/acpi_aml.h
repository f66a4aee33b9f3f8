/* The firmware's AML in the kernel: the interpreter (aml/) loaded with the DSDT and
 * every SSDT the survey found, on the kernel's hardware (aml_host.h), in memory the
 * boot loader's map says is free (system/freemem.h).
 *
 * Its memory comes from the tables' size (AML_POOL_FIXED + AML_POOL_PER_BYTE a byte
 * of AML: the corpus of 118 machines needs at most 14 bytes a byte, for a CPU
 * power-management SSDT of packages of integers); when no free block is that large,
 * the interpreter is not started and the run says why.
 *
 * Two uses: the survey and action=check load the AML dry (nothing touched) to say
 * whether \_PTS can be evaluated; method=acpi loads it live, as Linux does at boot
 * (module-level code, then _REG for the spaces it provides, the EC found through the
 * ECDT or its device's _CRS), reads \_S5_ and runs \_PTS(5) and \_SST before the S5
 * write. */
#ifndef APMOFF_ACPI_AML_H
#define APMOFF_ACPI_AML_H

#include <stdbool.h>
#include <stdint.h>

#include "../../aml/aml.h"
#include "../../survey/acpi_tables.h"
#include "../../system/bootinfo.h"

#define AML_POOL_FIXED      (64u * 1024)
#define AML_POOL_PER_BYTE   16u

/* What the survey and action=check say of the AML. */
struct acpi_aml_facts {
    bool have_tables;           /* a DSDT to load */
    bool loaded;
    char why[120];              /* not loaded, or loaded partly: why */
    unsigned tables;            /* DSDT and SSDTs loaded */
    uint32_t aml_bytes;
    uint32_t pool_kb, used_kb;
    uint32_t load_ms;           /* loading the tables dry */
    bool load_exact;            /* or a lower bound (system/timer.h) */
    unsigned forgiven;          /* load errors ACPICA forgives */
    bool pts;                   /* there is a \_PTS */
    bool pts_ok;                /* and every opcode it (and what it calls) runs here */
    char pts_why[120];          /* the first that does not */
    unsigned s5_type;           /* what \_S5_ is (an ObjectType): 4 Package, 8 Method */
};

/* Loads dry and checks \_PTS without running it; prints nothing. */
void acpi_aml_survey(struct acpi_aml_facts *out, const struct acpi_tables *t,
                     const struct bootinfo *bi, unsigned pci_mech);

/* The "acpi: AML ..." lines of the report. */
void acpi_aml_report(const struct acpi_aml_facts *f);

/* method=acpi: loads live, runs _REG, finds the EC. false (why says) when the
 * interpreter could not start; a table whose load stopped half way is said and the
 * rest goes on, as in ACPICA. */
bool acpi_aml_start(const struct acpi_tables *t, const struct bootinfo *bi,
                    unsigned pci_mech, char *why, unsigned size);

/* ACPICA's AcpiGetSleepTypeData: \_Sx_ (a Package, or a Method that returns one)
 * evaluated; one element holds both values (A in bits 0-7, B in 8-15). */
bool acpi_aml_sleep_type(unsigned state, uint8_t *typa, uint8_t *typb, char *why,
                         unsigned size);

/* ACPICA's AcpiEnterSleepStatePrep after \_Sx_: \_PTS(state), then \_SST with the
 * indicator for the state; each write printed as it is made. An error in \_PTS is
 * said and the sleep goes on (Linux ignores it too); returns whether \_PTS ran to
 * its end (or there is none). */
bool acpi_aml_prepare_sleep(unsigned state);

#endif
