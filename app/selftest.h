/* selftest=: proofs of mechanisms a normal run never exercises (test support).
 *
 * selftest=exception raises #UD on purpose: the register dump must appear, and the
 * machine must not reboot.
 *
 * selftest=idle proves that irq=on lets interrupts reach a BIOS call. APM 5305h (CPU
 * idle) is the call that waits for an interrupt: SeaBIOS executes STI; HLT in it.
 * With irq=on the timer's IRQ ends each wait, and the BIOS data area's tick count
 * (40:6Ch) moves by about one per call; the emulator test reads that count from guest
 * memory itself, before and after (tests/emu, qemu-pc-irq-on-idle). */
#ifndef APMOFF_SELFTEST_H
#define APMOFF_SELFTEST_H

#include "../apm/apm.h"
#include "../apm/poweroff.h"

#define SELFTEST_IDLE_CALLS     10
#define SELFTEST_READ_WINDOW_US 300000  /* nothing runs: the test reads the tick */

/* selftest=exception: never returns (the exception handler halts). */
void selftest_exception(void) __attribute__((noreturn));

/* selftest=idle: connects `only` (pm32 for auto), makes the idle calls, and halts. */
void selftest_idle(struct apm_state *apm, const struct apm_ports *ports, int only)
    __attribute__((noreturn));

#endif
