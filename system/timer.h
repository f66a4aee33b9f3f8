/* Time without interrupts: the PIT's channel 2, free-running from kernel entry, is the
 * clock (timer_us(), delays), read in microseconds on any CPU, a 386 included; the TSC,
 * where the CPU has one, measures what may outlast the clock's reach (a BIOS call that
 * sleeps), once its rate has been measured against the clock.
 *
 * Channel 2 counts down from 65536 at 1.193182 MHz and starts over every 54.9 ms; the
 * clock counts those wraps when it is read, so it must be read at least that often:
 * every console line does (console.c), every delay does, and nothing on the way to a
 * power-off call takes longer. A BIOS call that does (a standby, a video mode set on
 * a slow board) is timed with the TSC instead, or not at all. */
#ifndef APMOFF_TIMER_H
#define APMOFF_TIMER_H

#include <stdbool.h>
#include <stdint.h>

/* At kernel entry: channel 2 free-running, the TSC (when there is one) noted. */
void timer_start(bool have_tsc);
/* Microseconds since timer_start(), by the PIT clock. */
uint32_t timer_us(void);
/* Waits us microseconds by the PIT clock. */
void pit_delay_us(uint32_t us);
/* PIT ticks (1.193182 MHz) since timer_start(), for short measurements. */
uint64_t timer_pit_ticks(void);

/* The TSC's rate in kHz, measured once (5 ms) against the PIT clock; false without a
 * TSC. */
bool timer_tsc_khz(uint32_t *khz);
/* Microseconds since timer_start() by the TSC, for spans the PIT clock cannot follow
 * (a standby); false without a TSC. */
bool timer_tsc_us(uint32_t *us);

#endif
