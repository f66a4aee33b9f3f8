/* ACPI fixed-hardware register bits (ACPI 6.x, 4.8.3), written once for the FADT
 * reader (survey/) and the code that writes the registers (system/acpi_pm.c). */
#ifndef APMOFF_LIB_ACPI_PM1_H
#define APMOFF_LIB_ACPI_PM1_H

#include <stdint.h>

/* Generic Address Structure (5.2.3.2): the address space IDs apmoff reaches. A PCI
 * configuration space address is bus 0's: device in bits 32-47, function in 16-31,
 * register in 0-15. */
#define ACPI_SPACE_MEMORY       0
#define ACPI_SPACE_IO           1
#define ACPI_SPACE_PCI_CONFIG   2
#define ACPI_GAS_PCI_DEVICE(a)  ((unsigned)((a) >> 32 & 0xFFFF))
#define ACPI_GAS_PCI_FUNCTION(a) ((unsigned)((a) >> 16 & 0xFFFF))
#define ACPI_GAS_PCI_REGISTER(a) ((unsigned)((a) & 0xFFFF))
/* Whether such an address names a function and register that exist (the highest
 * word is reserved, 0). */
#define ACPI_GAS_PCI_VALID(a)   ((a) >> 48 == 0 && ACPI_GAS_PCI_DEVICE(a) < 32 && \
                                 ACPI_GAS_PCI_FUNCTION(a) < 8 && ACPI_GAS_PCI_REGISTER(a) < 256)

/* PM1 control (4.8.3.2.1). */
#define ACPI_PM1_SCI_EN         (1u << 0)   /* SCI, not SMI: the OS owns the events */
#define ACPI_PM1_GBL_RLS        (1u << 2)   /* write-only */
#define ACPI_PM1_SLP_TYP_SHIFT  10
#define ACPI_PM1_SLP_TYP_MASK   (7u << 10)
#define ACPI_PM1_SLP_EN         (1u << 13)  /* write-only: starts the sleep */
/* What ACPICA masks off what it reads, and keeps of what it read when it writes. */
#define ACPI_PM1_CNT_WRITE_ONLY (ACPI_PM1_SLP_EN | ACPI_PM1_GBL_RLS)
#define ACPI_PM1_CNT_PRESERVED  (ACPI_PM1_SCI_EN | (1u << 9))

/* PM1 status (4.8.3.1.1): write 1 to clear. */
#define ACPI_PM1_WAK_STS        (1u << 15)
#define ACPI_PM1_ALL_STATUS     0x8731u     /* TMR BM GBL PWRBTN SLPBTN RTC WAK */

/* Hardware-reduced sleep registers (4.8.3.7, 4.8.3.8). */
#define ACPI_SLEEP_WAK_STS      0x80u       /* SLEEP_STATUS_REG */
#define ACPI_SLEEP_TYP_SHIFT    2           /* SLEEP_CONTROL_REG */
#define ACPI_SLEEP_TYP_MASK     0x1Cu
#define ACPI_SLEEP_EN           0x20u

#endif
