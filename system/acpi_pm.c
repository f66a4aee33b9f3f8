/* ACPI fixed hardware: see acpi_pm.h. */
#include "acpi_pm.h"
#include "io.h"
#include "pci_conf.h"
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

/* Both halves of PM1 get the same value, as ACPICA's AcpiHwWriteMultiple does. */
static void write_pm1(uint16_t a, uint16_t b, uint16_t value)
{
    if (a)
        outw(a, value);
    if (b)
        outw(b, value);
}

static void gpe_fill(uint16_t block, uint8_t len, unsigned half, uint8_t value)
{
    for (unsigned i = 0; block && i < len / 2u; i++)
        outb((uint16_t)(block + half * (len / 2u) + i), value);
}

unsigned acpi_pm_quiesce(const struct acpi_pm_regs *r)
{
    write_pm1(r->pm1a_sts, r->pm1b_sts, ACPI_PM1_WAK_STS);
    gpe_fill(r->gpe0, r->gpe0_len, 1, 0x00);        /* enables off */
    gpe_fill(r->gpe1, r->gpe1_len, 1, 0x00);
    write_pm1(r->pm1a_sts, r->pm1b_sts, ACPI_PM1_ALL_STATUS);
    gpe_fill(r->gpe0, r->gpe0_len, 0, 0xFF);        /* status cleared */
    gpe_fill(r->gpe1, r->gpe1_len, 0, 0xFF);
    return (r->gpe0 ? r->gpe0_len / 2u : 0) + (r->gpe1 ? r->gpe1_len / 2u : 0);
}

static uint16_t read_cnt(const struct acpi_pm_regs *r)
{
    uint16_t v = r->pm1a_cnt ? inw(r->pm1a_cnt) : 0;

    if (r->pm1b_cnt)
        v |= inw(r->pm1b_cnt);
    return (uint16_t)(v & ~ACPI_PM1_CNT_WRITE_ONLY);
}

/* ACPICA writes the type first and SLP_EN in a second write: some chipsets latch
 * SLP_TYP only while SLP_EN is clear. */
void acpi_pm_sleep(const struct acpi_pm_regs *r, uint8_t typa, uint8_t typb,
                   void (*flush)(void))
{
    uint16_t base = (uint16_t)(read_cnt(r) & ~(ACPI_PM1_SLP_TYP_MASK | ACPI_PM1_SLP_EN));
    uint16_t a = (uint16_t)(base | ((typa << ACPI_PM1_SLP_TYP_SHIFT) & ACPI_PM1_SLP_TYP_MASK));
    uint16_t b = (uint16_t)(base | ((typb << ACPI_PM1_SLP_TYP_SHIFT) & ACPI_PM1_SLP_TYP_MASK));

    if (r->pm1a_cnt)
        outw(r->pm1a_cnt, a);
    if (r->pm1b_cnt)
        outw(r->pm1b_cnt, b);
    if (flush)
        flush();
    if (r->pm1a_cnt)
        outw(r->pm1a_cnt, (uint16_t)(a | ACPI_PM1_SLP_EN));
    if (r->pm1b_cnt)
        outw(r->pm1b_cnt, (uint16_t)(b | ACPI_PM1_SLP_EN));
}

void acpi_pm_sleep_again(const struct acpi_pm_regs *r)
{
    uint16_t v = (uint16_t)(ACPI_PM1_SLP_EN | (read_cnt(r) & ACPI_PM1_CNT_PRESERVED));

    write_pm1(r->pm1a_cnt, r->pm1b_cnt, v);
}

bool acpi_pm_gas_write(uint8_t space, uint64_t addr, uint8_t bit_width, uint32_t value)
{
    if (space == ACPI_SPACE_IO && addr <= 0xFFFF) {
        if (bit_width == 32)
            outl((uint16_t)addr, value);
        else if (bit_width == 16)
            outw((uint16_t)addr, (uint16_t)value);
        else
            outb((uint16_t)addr, (uint8_t)value);
        return true;
    }
    if (space == ACPI_SPACE_MEMORY && addr < 0x100000000ull) {
        volatile void *p = (volatile void *)(uintptr_t)addr;
        if (bit_width == 32)
            *(volatile uint32_t *)p = value;
        else if (bit_width == 16)
            *(volatile uint16_t *)p = (uint16_t)value;
        else
            *(volatile uint8_t *)p = (uint8_t)value;
        return true;
    }
    return false;
}

bool acpi_pm_reset(uint8_t space, uint64_t addr, uint8_t value, unsigned pci_mech)
{
    if (space == ACPI_SPACE_PCI_CONFIG)
        return ACPI_GAS_PCI_VALID(addr) &&
               pci_conf_write(pci_mech, 0, (uint8_t)ACPI_GAS_PCI_DEVICE(addr),
                              (uint8_t)ACPI_GAS_PCI_FUNCTION(addr),
                              (uint16_t)ACPI_GAS_PCI_REGISTER(addr), 1, value);
    return acpi_pm_gas_write(space, addr, 8, value);
}
