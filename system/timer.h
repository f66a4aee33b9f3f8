/* Time without interrupts: the PIT's channel 2 as a one-shot for delays, and the TSC,
 * calibrated against it, for measuring (when the CPU has one). */
#ifndef APMOFF_TIMER_H
#define APMOFF_TIMER_H

#include <stdbool.h>
#include <stdint.h>

void pit_delay_us(uint32_t us);

/* Remembers the TSC at kernel entry (when there is one). */
void timer_mark_start(bool have_tsc);
/* Microseconds since timer_mark_start(); false when there is no TSC to tell. */
bool timer_elapsed_us(uint32_t *us);
/* The TSC's rate in kHz, measured against the PIT; false without a TSC. */
bool timer_tsc_khz(uint32_t *khz);

#endif
