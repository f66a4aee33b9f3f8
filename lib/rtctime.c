/* Calendar time: see rtctime.h. Days are counted the civil way (Gregorian leap
 * years), which a clock that keeps two digits of year only needs from 2000 on. */
#include "rtctime.h"
#include "format.h"
#include "pc.h"

#define EPOCH_YEAR      2000
#define SECONDS_PER_DAY 86400u

uint8_t bcd_to_bin(uint8_t v)
{
    return (uint8_t)((v >> 4) * 10 + (v & 15));
}

uint8_t bin_to_bcd(uint8_t v)
{
    return (uint8_t)((v / 10) << 4 | v % 10);
}

bool bcd_valid(uint8_t v)
{
    return (v >> 4) <= 9 && (v & 15) <= 9;
}

static bool leap(unsigned year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static unsigned month_days(unsigned year, unsigned month)
{
    static const uint8_t days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return month == 2 && leap(year) ? 29 : days[month - 1];
}

/* One register: BCD or binary as the mode says; false when it is no number. */
static bool field(uint8_t v, uint8_t status_b, uint8_t *out)
{
    if (status_b & RTC_B_BINARY) {
        *out = v;
        return true;
    }
    if (!bcd_valid(v))
        return false;
    *out = bcd_to_bin(v);
    return true;
}

/* The hour register as 0-23, whichever mode it is kept in. */
static bool hour24(uint8_t reg, uint8_t status_b, uint8_t *out)
{
    uint8_t hour, pm = 0;

    if (!(status_b & RTC_B_24H)) {
        pm = reg & RTC_HOURS_PM;
        reg &= (uint8_t)~RTC_HOURS_PM;
    }
    if (!field(reg, status_b, &hour))
        return false;
    if (!(status_b & RTC_B_24H)) {
        if (hour < 1 || hour > 12)
            return false;
        hour = (uint8_t)(hour % 12 + (pm ? 12 : 0));    /* 12 AM is 0, 12 PM 12 */
    }
    *out = hour;
    return hour <= 23;
}

bool rtc_time_of_day(const struct rtc_regs *r, uint32_t *seconds)
{
    uint8_t hour, minute, second;

    if (!hour24(r->hour, r->status_b, &hour) || !field(r->minute, r->status_b, &minute) ||
        !field(r->second, r->status_b, &second) || minute > 59 || second > 59)
        return false;
    *seconds = (uint32_t)hour * 3600u + minute * 60u + second;
    return true;
}

bool rtc_decode(const struct rtc_regs *r, struct rtc_time *t)
{
    uint8_t year;

    if (!field(r->second, r->status_b, &t->second) || !field(r->minute, r->status_b,
        &t->minute) || !hour24(r->hour, r->status_b, &t->hour) || !field(r->day,
        r->status_b, &t->day) || !field(r->month, r->status_b, &t->month) ||
        !field(r->year, r->status_b, &year))
        return false;
    if (r->century == 0x19 || r->century == 0x20)
        t->year = (uint16_t)(bcd_to_bin(r->century) * 100 + year);
    else
        t->year = (uint16_t)(year < 80 ? 2000 + year : 1900 + year);
    return year <= 99 && t->month >= 1 && t->month <= 12 && t->day >= 1 &&
           t->day <= month_days(t->year, t->month) && t->hour <= 23 && t->minute <= 59 &&
           t->second <= 59;
}

uint8_t rtc_encode_field(uint8_t v, uint8_t status_b)
{
    return status_b & RTC_B_BINARY ? v : bin_to_bcd(v);
}

uint8_t rtc_encode_hour(uint8_t hour, uint8_t status_b)
{
    if (status_b & RTC_B_24H)
        return rtc_encode_field(hour, status_b);
    uint8_t twelve = (uint8_t)(hour % 12 ? hour % 12 : 12);
    return (uint8_t)(rtc_encode_field(twelve, status_b) | (hour >= 12 ? RTC_HOURS_PM : 0));
}

uint32_t rtc_seconds(const struct rtc_time *t)
{
    uint32_t days = 0;

    if (t->year < EPOCH_YEAR)
        return 0;
    for (unsigned y = EPOCH_YEAR; y < t->year; y++)
        days += leap(y) ? 366 : 365;
    for (unsigned m = 1; m < t->month; m++)
        days += month_days(t->year, m);
    days += t->day - 1u;
    return days * SECONDS_PER_DAY + t->hour * 3600u + t->minute * 60u + t->second;
}

void rtc_from_seconds(uint32_t s, struct rtc_time *t)
{
    uint32_t days = s / SECONDS_PER_DAY, rest = s % SECONDS_PER_DAY;
    unsigned year = EPOCH_YEAR, month = 1;

    while (days >= (leap(year) ? 366u : 365u))
        days -= leap(year++) ? 366 : 365;
    while (days >= month_days(year, month))
        days -= month_days(year, month++);
    t->year = (uint16_t)year;
    t->month = (uint8_t)month;
    t->day = (uint8_t)(days + 1);
    t->hour = (uint8_t)(rest / 3600);
    t->minute = (uint8_t)(rest / 60 % 60);
    t->second = (uint8_t)(rest % 60);
}

void rtc_format(const struct rtc_time *t, char *buf, unsigned size)
{
    fmt_snprintf(buf, size, "%04u-%02u-%02u %02u:%02u:%02u", t->year, t->month, t->day,
                 t->hour, t->minute, t->second);
}
