/* Calendar time as the MC146818 clock keeps it, and the arithmetic apmoff does with
 * it: how long a machine was away (the clock read before and after a standby), and
 * the time N seconds from now (the APM resume timer and the clock's alarm).
 *
 * The clock's registers hold BCD or binary (register B's DM bit) and a 12- or
 * 24-hour hour (its 24h bit; in 12-hour mode bit 7 of the hour says PM); the year is
 * two digits, the century in CMOS 32h on the BIOSes that keep one. APM's 5311h takes
 * BCD whatever the clock's mode. Pure: the kernel's clock reader (system/rtc.c) and
 * the host tests share it. */
#ifndef APMOFF_LIB_RTCTIME_H
#define APMOFF_LIB_RTCTIME_H

#include <stdbool.h>
#include <stdint.h>

struct rtc_time {
    uint16_t year;              /* 2000 and on, or 1980-1999 */
    uint8_t month, day;         /* 1-12, 1-31 */
    uint8_t hour, minute, second;   /* 24-hour */
};

/* The clock's own registers, as read. */
struct rtc_regs {
    uint8_t second, minute, hour, day, month, year;
    uint8_t century;            /* CMOS 32h, or 0 where the BIOS keeps none */
    uint8_t status_b;           /* RTC_B_BINARY, RTC_B_24H */
};

uint8_t bcd_to_bin(uint8_t v);
uint8_t bin_to_bcd(uint8_t v);      /* v < 100 */
bool bcd_valid(uint8_t v);

/* The registers as a date and time; false when they make none (a field out of range,
 * a BCD nibble above 9: a clock that is not there, or stopped). A year without a
 * century (32h not BCD 19 or 20) is taken as 1980-2079, as DOS's range. */
bool rtc_decode(const struct rtc_regs *r, struct rtc_time *t);

/* A 24-hour hour as the clock's hour or alarm-hour register holds it in the mode
 * status_b gives (BCD or binary, 12- or 24-hour). Minutes and seconds:
 * rtc_encode_field(). */
/* The time of day alone (seconds since midnight), from the second, minute, hour and
 * status B registers; false when they make none. */
bool rtc_time_of_day(const struct rtc_regs *r, uint32_t *seconds);

uint8_t rtc_encode_hour(uint8_t hour, uint8_t status_b);
uint8_t rtc_encode_field(uint8_t v, uint8_t status_b);

/* Seconds since 2000-01-01 00:00:00 (earlier dates: 0), and back. */
uint32_t rtc_seconds(const struct rtc_time *t);
void rtc_from_seconds(uint32_t s, struct rtc_time *t);

/* "2026-12-05 23:10:04" */
void rtc_format(const struct rtc_time *t, char *buf, unsigned size);

#endif
