/* The EC's read and write transactions: see acpi_ec.h. */
#include "acpi_ec.h"
#include "io.h"
#include "timer.h"

#define STEP_US         10

static bool wait_status(const struct acpi_ec *ec, uint8_t bit, bool set)
{
    for (uint32_t us = 0; us < EC_WAIT_US; us += STEP_US) {
        if (!!(inb(ec->command) & bit) == set)
            return true;
        pit_delay_us(STEP_US);
    }
    return false;
}

/* A byte the EC left in its output buffer (a query answer nobody read) would be
 * taken for ours: read it away first, a few at most. */
static void drain(const struct acpi_ec *ec)
{
    for (unsigned i = 0; i < 8 && (inb(ec->command) & EC_STATUS_OBF); i++)
        (void)inb(ec->data);
}

bool acpi_ec_read(const struct acpi_ec *ec, uint8_t addr, uint8_t *value)
{
    drain(ec);
    if (!wait_status(ec, EC_STATUS_IBF, false))
        return false;
    outb(ec->command, EC_CMD_READ);
    if (!wait_status(ec, EC_STATUS_IBF, false))
        return false;
    outb(ec->data, addr);
    if (!wait_status(ec, EC_STATUS_OBF, true))
        return false;
    *value = inb(ec->data);
    return true;
}

bool acpi_ec_write(const struct acpi_ec *ec, uint8_t addr, uint8_t value)
{
    drain(ec);
    if (!wait_status(ec, EC_STATUS_IBF, false))
        return false;
    outb(ec->command, EC_CMD_WRITE);
    if (!wait_status(ec, EC_STATUS_IBF, false))
        return false;
    outb(ec->data, addr);
    if (!wait_status(ec, EC_STATUS_IBF, false))
        return false;
    outb(ec->data, value);
    return wait_status(ec, EC_STATUS_IBF, false);
}
