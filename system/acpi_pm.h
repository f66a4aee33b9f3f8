/* ACPI fixed hardware for soft off: the PM1 control registers and the SMI command
 * port that hands the chipset from legacy (SMM) mode to ACPI mode.
 *
 * Port numbers and values come from the FADT (survey/acpi_tables.h reads it); this
 * unit only does the I/O, in the order ACPICA's hwsleep.c and hwacpi.c do it. The
 * register bits (SCI_EN bit 0, SLP_TYP bits 10-12, SLP_EN bit 13) are in
 * lib/acpi_pm1.h. Called by app/ in 32-bit protected mode, interrupts off. */
#ifndef APMOFF_ACPI_PM_H
#define APMOFF_ACPI_PM_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/acpi_pm1.h"


#define ACPI_ENABLE_WAIT_MS 3000    /* ACPICA's AcpiEnable() polls 3 s for SCI_EN */

/* Whether SCI_EN is set in the PM1 control register at port. */
bool acpi_pm_sci_enabled(uint16_t pm1_cnt);

/* Writes acpi_enable to smi_cmd and polls SCI_EN at pm1_cnt until it is set, at most
 * ACPI_ENABLE_WAIT_MS. Returns the milliseconds it took, or -1 if it never came. */
int acpi_pm_enable(uint16_t pm1_cnt, uint16_t smi_cmd, uint8_t acpi_enable);

/* Enters S-state type slp_typ: SLP_TYP into PM1a (and PM1b when pm1b is not 0), then
 * SLP_TYP|SLP_EN into each, keeping their other bits. Returns if the machine is
 * still on. */
void acpi_pm_sleep(uint16_t pm1a, uint8_t slp_typa, uint16_t pm1b, uint8_t slp_typb);

#endif
