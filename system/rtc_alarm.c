/* The clock's alarm: see rtc_alarm.h. Register B is written with only AIE changed
 * (SET, DM, 24h and the other enables as the BIOS left them), so the time keeps
 * running and keeps its format. */
#include "rtc_alarm.h"
#include "cmos.h"
#include "../lib/pc.h"

void rtc_alarm_set(const struct rtc_time *at, struct rtc_alarm_saved *saved)
{
    saved->second = cmos_read(RTC_SECONDS_ALARM);
    saved->minute = cmos_read(RTC_MINUTES_ALARM);
    saved->hour = cmos_read(RTC_HOURS_ALARM);
    saved->status_b = cmos_read(RTC_STATUS_B);
    uint8_t b = saved->status_b;
    cmos_write(RTC_SECONDS_ALARM, rtc_encode_field(at->second, b));
    cmos_write(RTC_MINUTES_ALARM, rtc_encode_field(at->minute, b));
    cmos_write(RTC_HOURS_ALARM, rtc_encode_hour(at->hour, b));
    (void)cmos_read(RTC_STATUS_C);      /* an old alarm's flag must not count */
    cmos_write(RTC_STATUS_B, (uint8_t)(b | RTC_B_AIE));
}

void rtc_alarm_restore(const struct rtc_alarm_saved *saved)
{
    uint8_t b = cmos_read(RTC_STATUS_B);
    cmos_write(RTC_STATUS_B, (uint8_t)((b & ~RTC_B_AIE) | (saved->status_b & RTC_B_AIE)));
    cmos_write(RTC_SECONDS_ALARM, saved->second);
    cmos_write(RTC_MINUTES_ALARM, saved->minute);
    cmos_write(RTC_HOURS_ALARM, saved->hour);
}
