/* The real-time clock, read: the date and time for the record a run leaves, how long
 * a standby lasted, and when a wake-up is due. Reads only (the index port is written
 * to select a register, as system/cmos.h does). */
#ifndef APMOFF_RTC_H
#define APMOFF_RTC_H

#include <stdbool.h>

#include "../lib/rtctime.h"

#define RTC_UPDATE_WAIT_MS  10      /* an update lasts under 2 ms (UIP's 244 us, then
                                       the update): 10 ms is a clock that is not there */

/* The clock's registers as they stand, read between two updates: UIP clear, then
 * read twice until both reads agree. False when UIP never cleared within
 * RTC_UPDATE_WAIT_MS (by the PIT). */
bool rtc_read_regs(struct rtc_regs *r);

/* The date and time; false when the clock does not answer or its registers make no
 * date (why says which). */
bool rtc_now(struct rtc_time *t, const char **why);

#endif
