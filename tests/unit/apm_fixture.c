/* The test_apm harness: see apm_fixture.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apm_fixture.h"

struct simbios sim;
struct apm_state st;
struct apm_ports ports;
char why[128];

const struct apm_error_case apm_errors[] = {
    { 0x01, "power management functionality disabled" },
    { 0x02, "real-mode interface connection already established" },
    { 0x03, "interface not connected" },
    { 0x04, "real-mode interface not connected" },
    { 0x05, "16-bit protected-mode interface already established" },
    { 0x06, "16-bit protected-mode interface not supported" },
    { 0x07, "32-bit protected-mode interface already established" },
    { 0x08, "32-bit protected-mode interface not supported" },
    { 0x09, "unrecognized device ID" },
    { 0x0A, "parameter value out of range" },
    { 0x0B, "interface not engaged" },
    { 0x0C, "function not supported" },
    { 0x0D, "resume timer disabled" },
    { 0x60, "unable to enter requested state" },
    { 0x80, "no power management events pending" },
    { 0x86, "APM not present" },
    { 0x42, "unknown error 42h" },
    { 0xFF, "unknown error FFh" },
};
const unsigned apm_errors_count = sizeof(apm_errors) / sizeof(apm_errors[0]);

void fixture_reset(uint16_t version)
{
    log_reset();
    sim_init(&sim, version);
    ports = (struct apm_ports){ 0 };    /* hooks a test set do not outlive it */
    sim_ports(&sim, &ports);
    apm_init(&st, &sim.port[APM_IFACE_RM], 0);
    strcpy(why, "(why not set)");
}

int fixture_setup(void **state)
{
    (void)state;
    fixture_reset(APM_V1_2);
    return 0;
}

void fixture_dump(void)
{
    log_print(stderr);
    sim_print(&sim, stderr);
}

int fixture_teardown(void **state)
{
    (void)state;
    if (getenv("UNIT_VERBOSE"))
        fixture_dump();
    return 0;
}

void connect_ok(enum apm_iface iface)
{
    if (!apm_install_check(&st) ||
        !apm_connect(&st, iface, ports.iface[iface], why, sizeof(why))) {
        fixture_dump();
        fail_msg("connect %s failed: %s", apm_iface_name(iface), why);
    }
}
