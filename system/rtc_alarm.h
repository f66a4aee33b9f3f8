/* The clock's alarm, for wake= when the APM BIOS has no resume timer: the one place
 * apmoff itself writes CMOS (README's Safety). Only registers 1, 3 and 5 (the alarm's
 * seconds, minutes and hour) and register B's AIE bit, all put back as they were
 * afterwards; never a CMOS RAM byte, never the time itself. Whether the alarm wakes
 * a machine from standby or suspend is the BIOS's doing (its setup's resume on alarm,
 * or RTC wake-up): apmoff only sets the time. */
#ifndef APMOFF_RTC_ALARM_H
#define APMOFF_RTC_ALARM_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/rtctime.h"

struct rtc_alarm_saved {
    uint8_t second, minute, hour, status_b;
};

/* Sets the alarm to at's time of day in the clock's own mode (BCD or binary, 12 or
 * 24 hours) and AIE; saved receives what was there. */
void rtc_alarm_set(const struct rtc_time *at, struct rtc_alarm_saved *saved);

/* The alarm registers and AIE as they were before rtc_alarm_set(). */
void rtc_alarm_restore(const struct rtc_alarm_saved *saved);

#endif
