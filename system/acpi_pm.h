/* ACPI fixed hardware for soft off: the PM1 control and status registers, the GPE
 * blocks, the SMI command port that hands the chipset from legacy (SMM) mode to ACPI
 * mode, and the hardware-reduced sleep registers.
 *
 * Port numbers and values come from the FADT (survey/acpi_tables.h reads it); this
 * unit only does the I/O, in the order ACPICA's hwsleep.c, hwesleep.c and hwacpi.c do
 * it. The register bits are in lib/acpi_pm1.h. Called by app/ in 32-bit protected
 * mode, interrupts off. */
#ifndef APMOFF_ACPI_PM_H
#define APMOFF_ACPI_PM_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/acpi_pm1.h"

#define ACPI_ENABLE_WAIT_MS 3000    /* ACPICA's AcpiEnable() polls 3 s for SCI_EN */

/* The registers the S5 sequence touches; a port 0 is a block the FADT does not have. */
struct acpi_pm_regs {
    uint16_t pm1a_cnt, pm1b_cnt;
    uint16_t pm1a_sts, pm1b_sts;    /* the event blocks: status is their first half */
    uint16_t gpe0, gpe1;            /* GPE blocks: status, then enable, a byte each */
    uint8_t gpe0_len, gpe1_len;     /* bytes in each block */
};

/* Whether SCI_EN is set in the PM1 control register at port. */
bool acpi_pm_sci_enabled(uint16_t pm1_cnt);

/* Writes acpi_enable to smi_cmd and polls SCI_EN at pm1_cnt until it is set, at most
 * ACPI_ENABLE_WAIT_MS. Returns the milliseconds it took, or -1 if it never came. */
int acpi_pm_enable(uint16_t pm1_cnt, uint16_t smi_cmd, uint8_t acpi_enable);

/* What ACPICA's AcpiHwLegacySleep does before the sleep: WAK_STS cleared, every
 * GPE enable register zeroed, then every PM1 fixed status bit and GPE status bit
 * cleared. Returns how many GPE registers there were. */
unsigned acpi_pm_quiesce(const struct acpi_pm_regs *r);

/* Enters S-state type typa/typb: the PM1 control register read (PM1a | PM1b, the
 * write-only bits masked), SLP_TYP and SLP_EN cleared in it; SLP_TYP written, the
 * cache flushed (flush, when not NULL: a 486 and later have WBINVD), then
 * SLP_TYP|SLP_EN. Returns if the machine is still on. */
void acpi_pm_sleep(const struct acpi_pm_regs *r, uint8_t typa, uint8_t typb,
                   void (*flush)(void));

/* ACPICA's second try for chipsets that poll slowly: SLP_EN alone, with the control
 * register's preserved bits (SCI_EN and bit 9) as they read. */
void acpi_pm_sleep_again(const struct acpi_pm_regs *r);

/* A register of a Generic Address Structure (I/O or memory below 4 GiB, 8-32 bits):
 * hardware-reduced ACPI's SLEEP_STATUS_REG and SLEEP_CONTROL_REG. false for any other
 * kind. */
bool acpi_pm_gas_write(uint8_t space, uint64_t addr, uint8_t bit_width, uint32_t value);

/* The FADT's reset register (4.8.3.6): RESET_VALUE written, a byte, to RESET_REG in
 * system I/O, system memory below 4 GiB or bus 0's PCI configuration space (through
 * mechanism pci_mech). false, with nothing written, for any other place. */
bool acpi_pm_reset(uint8_t space, uint64_t addr, uint8_t value, unsigned pci_mech);

#endif
