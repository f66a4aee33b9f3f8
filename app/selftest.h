/* selftest=: proofs of mechanisms a normal run never exercises (test support).
 *
 * selftest=exception raises #UD on purpose: the register dump must appear, and the
 * machine must not reboot.
 *
 * selftest=idle proves that irq=on lets interrupts reach a BIOS call. APM 5305h (CPU
 * idle) is the call that waits for an interrupt: SeaBIOS executes STI; HLT in it.
 * With irq=on the timer's IRQ ends each wait, and the BIOS data area's tick count
 * (40:6Ch) moves by about one per call; the emulator test reads that count from guest
 * memory itself, before and after (tests/emu, qemu-pc-irq-on-idle).
 *
 * selftest=clock proves that the clock (system/timer.h) is true across steps that do
 * not read it: it waits for the RTC's seconds to change, reads the clock, then
 * watches the RTC alone, reading nothing else, for SELFTEST_CLOCK_SHORT_S seconds
 * (the PIT wraps 55 times) and again for SELFTEST_CLOCK_LONG_S (longer than the PIT
 * vernier's 14 s or 7 s: the RTC's own settling), and prints what the clock says each took.
 * The emulator test holds those figures against the RTC's seconds; a clock that
 * counted one wrap a read said 27 ms for three seconds. */
#ifndef APMOFF_SELFTEST_H
#define APMOFF_SELFTEST_H

#include "../apm/apm.h"
#include "../apm/poweroff.h"

#define SELFTEST_IDLE_CALLS     10
#define SELFTEST_READ_WINDOW_US 300000  /* nothing runs: the test reads the tick */
#define SELFTEST_CLOCK_SHORT_S  3
#define SELFTEST_CLOCK_LONG_S   17
/* Reads of the seconds before a wait for their change gives up: a second is under a
 * million reads on any PC (each crosses the ISA bus, a microsecond or more); this bounds
 * a clock that stopped without reading the clock under test. */
#define SELFTEST_CLOCK_POLLS    50000000u

/* selftest=exception: never returns (the exception handler halts). */
void selftest_exception(void) __attribute__((noreturn));

/* selftest=clock: halts with HALT_SELFTEST_DONE, its figures printed, or without them
 * and saying why when the RTC does not tick. */
void selftest_clock(void) __attribute__((noreturn));

/* selftest=idle: connects `only` (pm32 for auto), makes the idle calls, and halts. */
void selftest_idle(struct apm_state *apm, const struct apm_ports *ports, int only)
    __attribute__((noreturn));

#endif
