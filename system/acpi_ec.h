/* The ACPI Embedded Controller, through its two I/O ports (ACPI 6.x, 12.2-12.3), for
 * the firmware's AML: a laptop's \_PTS often writes EC registers.
 *
 * Polled, as Linux's EC driver works without its GPE: every wait for the input buffer
 * to empty or the output buffer to fill is bounded (EC_WAIT_US), so a dead or absent
 * EC costs milliseconds and an error, never a hang. Called with interrupts off. */
#ifndef APMOFF_ACPI_EC_H
#define APMOFF_ACPI_EC_H

#include <stdbool.h>
#include <stdint.h>

#define EC_WAIT_US      100000u /* one handshake step; Linux allows 500 ms a transaction */

struct acpi_ec {
    uint16_t data;              /* data port (62h on most PCs) */
    uint16_t command;           /* command/status port (66h) */
};

/* One byte at EC address addr. Returns false when the EC did not answer in time. */
bool acpi_ec_read(const struct acpi_ec *ec, uint8_t addr, uint8_t *value);
bool acpi_ec_write(const struct acpi_ec *ec, uint8_t addr, uint8_t value);

#endif
