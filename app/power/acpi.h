/* method=acpi: power off through ACPI S5 as an operating system does it.
 *
 * The facts come from survey/acpi_s5.h (the FADT, and \_S5_ as the byte-level reader
 * found it); with pts=on (the default) the firmware's AML runs too (acpi_aml.h):
 * \_S5_ is evaluated (a Method included), then \_PTS(5) and \_SST, each write printed.
 * Then the S5 sequence of ACPICA's AcpiHwLegacySleep (system/acpi_pm.h): WAK_STS and
 * the PM1 status cleared, the GPEs disabled and cleared, SLP_TYP, then SLP_TYP|SLP_EN;
 * SLP_EN again for slow chipsets; and the 32-bit PM1a_CNT port when the X_ one was
 * used and differs. A hardware-reduced machine (no PM1 blocks) goes through
 * SLEEP_CONTROL_REG as ACPICA's hwesleep.c does. */
#ifndef APMOFF_METHOD_ACPI_H
#define APMOFF_METHOD_ACPI_H

#include "../facts/acpi_aml.h"
#include "../common/chain.h"
#include "../../survey/acpi_s5.h"
#include "../../system/bootinfo.h"

/* What action=check says of S5, without changing any power state (SCI_EN is read,
 * never written; the AML was loaded dry). */
struct acpi_check_facts {
    const char *unusable;       /* why method=acpi would find no S5, or NULL */
    bool sci_en;                /* PM1a_CNT's SCI_EN: already in ACPI mode */
    bool smi_can_enable;        /* the FADT gives SMI_CMD and ACPI_ENABLE */
    bool hw_reduced;            /* hardware-reduced ACPI: SLEEP_CONTROL_REG */
};

/* Reports S5 for action=check ("check: acpi: ..." lines) and fills out. */
void acpi_check(const struct acpi_s5 *s5, const struct acpi_aml_facts *aml,
                struct acpi_check_facts *out);

struct acpi_off {
    const struct acpi_s5 *s5;
    const struct bootinfo *bi;
    unsigned pci_mech;          /* the survey's PCI mechanism, for PCI_Config regions */
    bool run_aml;               /* pts=on */
    bool can_flush;             /* the CPU has WBINVD (a 486 or later) */
    /* Just before the first write or call: the time from entry, the record for
     * the next run (given ctx and the method's name) */
    void (*announce)(void *ctx, const char *method);
    void *ctx;
};

/* Powers off through S5. Returns WAY_ABSENT without touching a port when the
 * tables do not give what S5 needs, else WAY_STILL_ON after the grace waits. */
enum way_result acpi_power_off(const struct acpi_off *c, char *why, unsigned size);

#endif
