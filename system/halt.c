/* The end of a run: see halt.h. */
#include "halt.h"
#include "console.h"
#include "io.h"
#include "reset.h"
#include "timer.h"
#include "unittester.h"
#include "../lib/pc.h"

#define ONFAIL_RESET_WAIT_MS 500    /* for the 8042's pulse to take effect */


static enum onfail onfail = ONFAIL_HALT;

void halt_set_onfail(enum onfail o)
{
    onfail = o;
}

static void (*epilogue)(enum halt_code, const char *);

void halt_set_epilogue(void (*fn)(enum halt_code, const char *))
{
    epilogue = fn;
}

/* onfail=reboot: the 8042's reset line, then, with no 8042 or one that ignored us,
 * a triple fault, which every PC turns into a reset. (action=reboot has every way,
 * each named: app/reset/resets.h.) */
static void __attribute__((noreturn)) reset_machine(void)
{
    kbc_pulse_reset();
    pit_delay_us(ONFAIL_RESET_WAIT_MS * 1000u);
    triple_fault();
}

bool halt_is_failure(enum halt_code code)
{
    return code != HALT_SURVEY_DONE && code != HALT_STATE_RETURNED &&
           code != HALT_CHECK_PASSED && code != HALT_CHECK_AS_EXPECTED &&
           code != HALT_SELFTEST_DONE && code != HALT_DUMP_DONE;
}

void halt(enum halt_code code, const char *reason)
{
    if (epilogue)
        epilogue(code, reason);
    if (halt_is_failure(code) && onfail == ONFAIL_REBOOT) {
        say("halted: %s; rebooting (onfail=reboot)", reason);
        reset_machine();
    }
    if (onfail == ONFAIL_EXIT) {
        say("halted: %s; exit code %u (onfail=exit)", reason, (unsigned)code);
        /* QEMU exits here with (code << 1) | 1; 86Box, where its Unit Tester is on,
         * with the same status; elsewhere the writes go nowhere and we halt below. */
        outb(PORT_DEBUG_EXIT, (uint8_t)code);
        (void)unittester_exit((uint8_t)(code << 1 | 1));
    } else {
        say("halted: %s", reason);
    }
    cpu_halt_forever();
}
