/* ACPI PM1 control register bits (ACPI 6.x, 4.8.3.2.1), written once for the FADT
 * reader (survey/) and the code that writes the register (system/acpi_pm.c). */
#ifndef APMOFF_LIB_ACPI_PM1_H
#define APMOFF_LIB_ACPI_PM1_H

#define ACPI_PM1_SCI_EN         (1u << 0)   /* SCI, not SMI: the OS owns the events */
#define ACPI_PM1_SLP_TYP_SHIFT  10
#define ACPI_PM1_SLP_TYP_MASK   (7u << 10)
#define ACPI_PM1_SLP_EN         (1u << 13)  /* write-only: starts the sleep */

#endif
