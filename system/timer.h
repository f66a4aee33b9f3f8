/* Time without interrupts, true over any span: the TSC where the CPU has one (its rate
 * measured against the PIT at entry); on a 386 or 486, which have none, the PIT's
 * channels 0 and 2 read together as a vernier that counts its own wraps, with the
 * RTC's seconds for silences longer than its 14 s (7 s with channel 0 in mode 3;
 * lib/pitclock.h). Reading the clock
 * is never needed to keep it right, so a BIOS call, a mode set or a QR encode that
 * reads nothing is timed whole.
 *
 * What the clock cannot know it says: where a BIOS reprogrammed a PIT channel, or the
 * chipset has no 8254 read-back command, a span that includes that moment is only a
 * lower bound, and timer_exact_since() is false for it; its printers write ">= ". */
#ifndef APMOFF_TIMER_H
#define APMOFF_TIMER_H

#include <stdbool.h>
#include <stdint.h>

/* At kernel entry: channel 2 free-running, the TSC (when there is one) calibrated. */
void timer_start(bool have_tsc);
/* Microseconds since timer_start(). */
uint64_t timer_us(void);
/* Whether a span from start_us (a timer_us() value) to now is exact, not a lower
 * bound. */
bool timer_exact_since(uint64_t start_us);
/* Milliseconds from start_us to now, and whether that is exact. */
uint32_t timer_ms_since(uint64_t start_us, bool *exact);
/* "" for an exact span, ">= " for a lower bound: the prefix its printed figure takes. */
const char *timer_bound(bool exact);
/* Which clock timer_us() runs on, in words for the boot report. */
const char *timer_source(void);

/* Waits us microseconds by the PIT. */
void pit_delay_us(uint32_t us);
/* PIT ticks (1.193182 MHz) since timer_start(), for short measurements. */
uint64_t timer_pit_ticks(void);

/* The TSC's rate in kHz, measured at timer_start() (10 ms against the PIT); false
 * without a TSC. */
bool timer_tsc_khz(uint32_t *khz);

#endif
