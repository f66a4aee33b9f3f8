/* The FADT's power-management facts and \_S5_, as lines of the survey: where the
 * FADT is, its PM1 control ports and SMI_CMD, the blocks whose 64-bit and 32-bit
 * addresses differ, and the sleep type \_S5_ gives (or why there is none). */
#ifndef APMOFF_ACPI_REPORT_H
#define APMOFF_ACPI_REPORT_H

#include "../../survey/acpi_s5.h"

void acpi_s5_report(const struct acpi_s5 *s5);

#endif
