/* The real-mode APM port: INT 15h through bios_int(), whichever path it takes. */
#include "ports.h"
#include "apm_spec.h"
#include "../realmode/bios.h"
#include "../lib/pc.h"
#include "../system/timer.h"


static bool interrupts_on;

void apm_ports_allow_interrupts(bool on)
{
    interrupts_on = on;
}

bool apm_ports_interrupts(void)
{
    return interrupts_on;
}

uint32_t apm_ports_eflags(uint32_t eflags)
{
    return interrupts_on ? eflags | X86_EFLAGS_IF : eflags & ~X86_EFLAGS_IF;
}

bool apm_call_blocks(const struct biosregs *regs)
{
    return regs->ax == (APM_AH << 8 | APM_FN_SET_POWER_STATE) &&
           (regs->cx == APM_STATE_STANDBY || regs->cx == APM_STATE_SUSPEND);
}

/* 5307h off: a BIOS that flushes and spins disks down first may take longer than
 * the v86 watchdog's 6 s; stopping it halfway would run the fallback chain while the
 * machine goes down. It gets OFF_LIMIT_S, still a bound for one that hung. */
#define OFF_LIMIT_S     30

static bool is_off(const struct biosregs *regs)
{
    return regs->ax == (APM_AH << 8 | APM_FN_SET_POWER_STATE) && regs->cx == APM_STATE_OFF;
}

static bool rm_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    (void)port;
    regs->eflags = apm_ports_eflags(regs->eflags);
    bios_call_limit(apm_call_blocks(regs) ? 0 : is_off(regs) ? OFF_LIMIT_S
                                                            : BIOS_CALL_LIMIT_S);
    bool done = bios_int(APM_INT, regs, regs, why);
    bios_call_limit(BIOS_CALL_LIMIT_S);
    return done;
}

/* Short BIOS calls with IF set let the BIOS's own handlers serve the IRQs that came
 * in (a BIOS may finish a power-off from its timer tick), between pauses timed by
 * the PIT with interrupts off. INT 11h only reads the BIOS data area. Under the v86
 * monitor the IRQs that came are reflected to the same handlers. */
#define WAIT_STEP_MS    10

static void rm_wait(const struct apm_port *port, unsigned ms)
{
    (void)port;
    for (unsigned t = 0; t < ms; t += WAIT_STEP_MS) {
        struct biosregs r;
        const char *why;
        initregs(&r);
        r.eflags |= X86_EFLAGS_IF;
        (void)bios_int(BIOS_INT_EQUIPMENT, &r, &r, &why);
        pit_delay_us(WAIT_STEP_MS * 1000u);
    }
}

struct apm_port apm_port_rm = {
    .name = "rm",
    .call = rm_call,
    .wait = rm_wait,
};

void apm_port_rm_tag_v86(void)
{
    apm_port_rm.tag = " (v86)";
}
