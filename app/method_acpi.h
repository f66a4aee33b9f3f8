/* method=acpi: power off through ACPI S5, from the facts survey/acpi_s5.h read out of
 * the firmware tables, with the port writes of system/acpi_pm.h. */
#ifndef APMOFF_METHOD_ACPI_H
#define APMOFF_METHOD_ACPI_H

#include "methods.h"
#include "../survey/acpi_s5.h"

/* The S5 facts as the survey prints them: the FADT's PM1 control blocks and SMI_CMD,
 * and \_S5_ (where it was and its SLP_TYP values, or why it was not found). */
void acpi_s5_report(const struct acpi_s5 *s5);

/* What action=check says of S5, without changing any power state (SCI_EN is read,
 * never written). */
struct acpi_check_facts {
    const char *unusable;       /* why method=acpi would find no S5, or NULL */
    bool sci_en;                /* PM1a_CNT's SCI_EN: already in ACPI mode */
    bool smi_can_enable;        /* the FADT gives SMI_CMD and ACPI_ENABLE */
};

/* Reports S5 for action=check ("check: acpi: ..." lines) and fills out. */
void acpi_check(const struct acpi_s5 *s5, struct acpi_check_facts *out);

/* Powers off through S5: ACPI mode first when SCI_EN is clear and SMI_CMD can set
 * it, then SLP_TYP|SLP_EN. announce() runs just before the writes (the survey line
 * and the timing). Returns METHOD_ABSENT without touching a port when the tables do
 * not give what S5 needs, else METHOD_STILL_ON after a grace wait. */
enum method_result acpi_power_off(const struct acpi_s5 *s5, void (*announce)(void),
                                  char *why, unsigned size);

#endif
