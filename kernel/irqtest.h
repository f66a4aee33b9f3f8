/* selftest=idle: proof that irq=on lets interrupts reach a BIOS call (test support).
 *
 * APM 5305h (CPU idle) is the call that waits for an interrupt: SeaBIOS executes
 * STI; HLT in it. With irq=on the timer's IRQ ends each wait, and the BIOS data area's
 * tick count (40:6Ch) moves by about one per call; the emulator test reads that count
 * from guest memory itself, before and after (tests/emu, qemu-pc-irq-on-idle). */
#ifndef APMOFF_IRQTEST_H
#define APMOFF_IRQTEST_H

#include "../apm/apm.h"
#include "../apm/poweroff.h"

#define IRQTEST_IDLE_CALLS      10
#define IRQTEST_READ_WINDOW_US  300000  /* nothing runs: the test reads the tick */

/* Connects `only` (pm32 for auto), makes the idle calls, and halts. */
void irq_selftest(struct apm_state *apm, const struct apm_ports *ports, int only)
    __attribute__((noreturn));

#endif
