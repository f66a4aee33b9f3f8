/* The real-mode APM port: INT 15h through bios_int(), whichever path it takes. */
#include "ports.h"
#include "apm_spec.h"
#include "../realmode/bios.h"
#include "../realmode/v86.h"
#include "../system/console.h"
#include "../lib/pc.h"
#include "../lib/x86.h"
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

/* bioscall=auto: every call runs under the v86 monitor, which sees a BIOS halt with
 * interrupts off (86Box's HP Vectra 500MT in 5307h at F78C:00FDh, believing the power
 * gone), a CLI loop, or the watchdog's time run out, and names where; then the chain
 * goes on. The off call says so only after a grace (below), and one that comes back
 * with the power on is made once more through the trampoline (rm_again): a BIOS may
 * do under v86 what it would not (the A20 ports are the monitor's). */
#define HALTED_GRACE_MS 2000

static bool watch_off;
static bool watched_came_back;  /* the last off call: under v86, and it returned */
static bool unwatched_next;     /* rm_again asked for the trampoline */

void apm_port_rm_watch_off(void)
{
    watch_off = true;
}

static bool rm_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    bool watched = watch_off && is_off(regs) && !unwatched_next;
    bool done;

    (void)port;
    regs->eflags = apm_ports_eflags(regs->eflags);
    bios_call_limit(apm_call_blocks(regs) ? 0 : is_off(regs) ? OFF_LIMIT_S
                                                            : BIOS_CALL_LIMIT_S);
    if (watched) {
        v86_quiet(true);
        done = bios_int_via(BIOS_PATH_V86, APM_INT, regs, regs, why);
        v86_quiet(false);
        /* Stopped: maybe at the HLT of a BIOS whose power is going (SeaBIOS halts
         * right after its sleep write, and QEMU ends a moment later). Give it that
         * moment before anything more is said. */
        if (!done)
            pit_delay_us(HALTED_GRACE_MS * 1000u);
    } else {
        /* Standby and suspend return when the machine resumes, so no watchdog bounds
         * them and the monitor gains nothing; a BIOS that waits for its resume with
         * CLI; HLT (an SMI wakes it) would be stopped at once: the trampoline. */
        bool trampoline = unwatched_next || (watch_off && apm_call_blocks(regs));
        done = bios_int_via(trampoline ? BIOS_PATH_TRAMPOLINE : bios_path(), APM_INT,
                            regs, regs, why);
    }
    bios_call_limit(BIOS_CALL_LIMIT_S);
    /* Repeated through the trampoline already (a privileged instruction): not again. */
    watched_came_back = watched && done && !v86_stopped_on_privileged();
    unwatched_next = false;
    return done;
}

static bool rm_again(const struct apm_port *port)
{
    (void)port;
    if (!watched_came_back)
        return false;
    watched_came_back = false;
    unwatched_next = true;
    say("rm: 5307h came back under the v86 monitor with the power on; once more through "
        "the real-mode trampoline, as bioscall=trampoline makes it");
    return true;
}

/* A BIOS may finish a power-off from its timer tick: the wait lets its own handlers
 * serve the IRQs. Through the trampoline: short BIOS calls with IF set, which take the
 * IRQs that came in during pauses timed by the PIT with interrupts off (INT 11h only
 * reads the BIOS data area). Under the v86 monitor an IRQ that came between two calls
 * is lost, as the PICs' initialisation for the next call clears it: the wait itself
 * runs in v86 mode, STI; HLT until an IRQ comes, which goes to the BIOS's handler. */
#define WAIT_STEP_MS    10

static const uint8_t wait_for_irq[] = {
    X86_OPCODE_STI, X86_OPCODE_HLT, X86_OPCODE_CLI, X86_OPCODE_RETF,
};

static void rm_wait_trampoline(unsigned ms)
{
    for (unsigned t = 0; t < ms; t += WAIT_STEP_MS) {
        struct biosregs r;
        const char *why;
        initregs(&r);
        r.eflags |= X86_EFLAGS_IF;
        (void)bios_int_via(BIOS_PATH_TRAMPOLINE, BIOS_INT_EQUIPMENT, &r, &r, &why);
        pit_delay_us(WAIT_STEP_MS * 1000u);
    }
}

/* A stub the monitor stopped (the BIOS's IRQ handler ran something it cannot run)
 * must not end the wait early: the next interface would start while the power may be
 * going. The rest is waited the trampoline's way, and the stop said only after the
 * whole wait, as the off call's is: the last line before the power goes stays the
 * off line. */
static void rm_wait_v86(unsigned ms)
{
    uint64_t start = timer_us();
    bool exact;
    uint32_t done;

    v86_quiet(true);
    while ((done = timer_ms_since(start, &exact)) < ms) {
        struct biosregs r;
        const char *why;
        initregs(&r);
        if (!v86_run_stub(wait_for_irq, sizeof(wait_for_irq), &r, &why)) {
            v86_quiet(false);
            rm_wait_trampoline(ms - done);
            say("rm: the wait for the BIOS's IRQs stopped under the v86 monitor (%s); "
                "the rest went through the real-mode trampoline", why);
            return;
        }
    }
    v86_quiet(false);
}

static void rm_wait(const struct apm_port *port, unsigned ms)
{
    (void)port;
    if (bios_path() == BIOS_PATH_V86)
        rm_wait_v86(ms);
    else
        rm_wait_trampoline(ms);
}

struct apm_port apm_port_rm = {
    .name = "rm",
    .call = rm_call,
    .wait = rm_wait,
    .again = rm_again,
};

void apm_port_rm_tag_v86(void)
{
    apm_port_rm.tag = " (v86)";
}
