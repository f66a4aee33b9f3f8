/* The real-time clock, read: see rtc.h. The MC146818's datasheet: the time is safe
 * to read while UIP (register A bit 7) is clear, for at least 244 us; two reads that
 * agree cannot have straddled an update. */
#include "rtc.h"
#include "cmos.h"
#include "timer.h"
#include "../lib/pc.h"

#define READS_MAX 3

static bool update_over(void)
{
    uint64_t until = timer_us() + RTC_UPDATE_WAIT_MS * 1000u;
    while (cmos_read(RTC_STATUS_A) & RTC_A_UIP)
        if (timer_us() > until)
            return false;
    return true;
}

static void read_once(struct rtc_regs *r)
{
    r->second = cmos_read(RTC_SECONDS);
    r->minute = cmos_read(RTC_MINUTES);
    r->hour = cmos_read(RTC_HOURS);
    r->day = cmos_read(RTC_DAY_OF_MONTH);
    r->month = cmos_read(RTC_MONTH);
    r->year = cmos_read(RTC_YEAR);
    r->century = cmos_read(CMOS_CENTURY);
    r->status_b = cmos_read(RTC_STATUS_B);
}

static bool same(const struct rtc_regs *a, const struct rtc_regs *b)
{
    return a->second == b->second && a->minute == b->minute && a->hour == b->hour &&
           a->day == b->day && a->month == b->month && a->year == b->year;
}

bool rtc_read_regs(struct rtc_regs *r)
{
    struct rtc_regs again;

    for (int i = 0; i < READS_MAX; i++) {
        if (!update_over())
            return false;
        read_once(r);
        if (!update_over())
            return false;
        read_once(&again);
        if (same(r, &again))
            return true;
    }
    return false;
}

bool rtc_now(struct rtc_time *t, const char **why)
{
    struct rtc_regs r;

    if (!rtc_read_regs(&r)) {
        *why = "the clock's update never ended (no RTC?)";
        return false;
    }
    if (!rtc_decode(&r, t)) {
        *why = "the clock's registers make no date";
        return false;
    }
    return true;
}
