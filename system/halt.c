/* The end of a run: see halt.h. */
#include "halt.h"
#include "console.h"
#include "io.h"
#include "../lib/pc.h"


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

static void __attribute__((noreturn)) reset_machine(void)
{
    for (int i = 0; i < 100000 && (inb(KBC_CTRL) & KBC_STATUS_IN_FULL); i++)
        io_delay();
    outb(KBC_CTRL, KBC_CMD_RESET);
    /* No 8042, or it ignored us: a null IDT turns the next interrupt into a triple
     * fault, which every PC turns into a reset. */
    static const struct { uint16_t limit; uint32_t base; } __attribute__((packed))
        null_idt = { 0, 0 };
    __asm__ volatile("lidt %0; int $3" : : "m"(null_idt));
    cpu_halt_forever();
}

bool halt_is_failure(enum halt_code code)
{
    return code != HALT_SURVEY_DONE && code != HALT_STATE_RETURNED &&
           code != HALT_CHECK_PASSED && code != HALT_CHECK_AS_EXPECTED &&
           code != HALT_SELFTEST_DONE;
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
        /* QEMU exits here; elsewhere the write goes nowhere and we halt below. */
        outb(PORT_DEBUG_EXIT, (uint8_t)code);
    } else {
        say("halted: %s", reason);
    }
    cpu_halt_forever();
}
