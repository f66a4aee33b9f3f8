/* ACPI PM1 control and SMI_CMD: see acpi_pm.h. */
#include "acpi_pm.h"
#include "io.h"
#include "timer.h"

#define POLL_US 1000

bool acpi_pm_sci_enabled(uint16_t pm1_cnt)
{
    return inw(pm1_cnt) & ACPI_PM1_SCI_EN;
}

int acpi_pm_enable(uint16_t pm1_cnt, uint16_t smi_cmd, uint8_t acpi_enable)
{
    outb(smi_cmd, acpi_enable);
    for (int ms = 0; ms <= ACPI_ENABLE_WAIT_MS; ms++) {
        if (acpi_pm_sci_enabled(pm1_cnt))
            return ms;
        pit_delay_us(POLL_US);
    }
    return -1;
}

static uint16_t with_type(uint16_t pm1_cnt, uint8_t slp_typ)
{
    uint16_t v = inw(pm1_cnt) & (uint16_t)~(ACPI_PM1_SLP_TYP_MASK | ACPI_PM1_SLP_EN);
    return (uint16_t)(v | ((slp_typ << ACPI_PM1_SLP_TYP_SHIFT) & ACPI_PM1_SLP_TYP_MASK));
}

/* ACPICA writes the type first and SLP_EN in a second write: some chipsets latch
 * SLP_TYP only while SLP_EN is clear. */
void acpi_pm_sleep(uint16_t pm1a, uint8_t slp_typa, uint16_t pm1b, uint8_t slp_typb)
{
    uint16_t a = with_type(pm1a, slp_typa);
    uint16_t b = pm1b ? with_type(pm1b, slp_typb) : 0;

    outw(pm1a, a);
    if (pm1b)
        outw(pm1b, b);
    outw(pm1a, (uint16_t)(a | ACPI_PM1_SLP_EN));
    if (pm1b)
        outw(pm1b, (uint16_t)(b | ACPI_PM1_SLP_EN));
}
