/* The record a run leaves for the next (lib/record.c): its bytes, checksum and
 * damage; the clock's arithmetic (lib/rtctime.c): BCD and binary, 12 and 24 hours,
 * seconds since 2000 and back, the alarm's encoding; and the words for the next boot
 * (app/common/record_story.c): how the machine came back, judged from the warm-boot flag. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../app/common/record_story.h"
#include "../../lib/bda.h"
#include "../../lib/pc.h"

static struct record sample(void)
{
    struct record r = {
        .asked = RECORD_RESET, .state = RECORD_CALLING, .attempt = 2, .have_time = true,
        .reset_flag = BDA_RESET_WARM, .run_ms = 230,
        .time = { 2026, 12, 5, 23, 10, 4 },
    };
    strcpy(r.method, "kbd");
    return r;
}

/* --- the record's bytes ----------------------------------------------------------- */

static void test_round_trip(void **state)
{
    uint8_t bytes[RECORD_SIZE];
    struct record in = sample(), out;
    (void)state;
    record_encode(&in, bytes);
    assert_int_equal(record_decode(bytes, &out), RECORD_INTACT);
    assert_int_equal(out.asked, RECORD_RESET);
    assert_int_equal(out.attempt, 2);
    assert_int_equal(out.reset_flag, 0x1234);
    assert_int_equal(out.run_ms, 230);
    assert_int_equal(out.time.year, 2026);
    assert_int_equal(out.time.second, 4);
    assert_string_equal(out.method, "kbd");
    assert_memory_equal(bytes, "apmoffLR", 8);  /* the mark a memory dump shows */
}

/* The ways that ended earlier runs ride along in every record, as bits of their
 * words; a word that is no power-off way has none. */
static void test_stuck(void **state)
{
    uint8_t bytes[RECORD_SIZE];
    struct record in = sample(), out;
    char names[32];
    (void)state;
    in.stuck = (uint8_t)(record_stuck_bit("rm") | record_stuck_bit("chipset"));
    record_encode(&in, bytes);
    assert_int_equal(record_decode(bytes, &out), RECORD_INTACT);
    assert_int_equal(out.stuck, in.stuck);
    assert_int_not_equal(record_stuck_bit("pm32"), 0);
    assert_int_equal(record_stuck_bit("kbd"), 0);
    assert_int_equal(record_stuck_bit("apm"), 0);
    record_stuck_names(out.stuck, names, sizeof(names));
    assert_string_equal(names, "rm,chipset");
    record_stuck_names(0, names, sizeof(names));
    assert_string_equal(names, "");
}

/* Zeroed memory (a cleared record, RAM after a memory test) holds none; any byte
 * changed after the mark is damage; a method name fills its field and stays ended. */
static void test_damage(void **state)
{
    uint8_t bytes[RECORD_SIZE], zero[RECORD_SIZE] = { 0 };
    struct record r = sample(), out;
    (void)state;
    assert_int_equal(record_decode(zero, &out), RECORD_NONE);
    record_encode(&r, bytes);
    for (unsigned i = 8; i < RECORD_SIZE; i++) {
        uint8_t copy[RECORD_SIZE];
        memcpy(copy, bytes, sizeof(copy));
        copy[i] ^= 0x40;
        assert_int_equal(record_decode(copy, &out), RECORD_DAMAGED);
    }
    bytes[0] = 'A';
    assert_int_equal(record_decode(bytes, &out), RECORD_NONE);
    strcpy(r.method, "0123456789ABCDE");                /* RECORD_METHOD_MAX */
    record_encode(&r, bytes);
    assert_int_equal(record_decode(bytes, &out), RECORD_INTACT);
    assert_string_equal(out.method, "0123456789ABCDE");
}

/* --- the clock -------------------------------------------------------------------- */

static void test_decode_modes(void **state)
{
    struct rtc_time t;
    (void)state;
    /* BCD, 24 hours, with a century byte. */
    struct rtc_regs bcd = { 0x59, 0x30, 0x23, 0x31, 0x12, 0x26, 0x20, RTC_B_24H };
    assert_true(rtc_decode(&bcd, &t));
    assert_int_equal(t.year, 2026);
    assert_int_equal(t.month, 12);
    assert_int_equal(t.day, 31);
    assert_int_equal(t.hour, 23);
    assert_int_equal(t.minute, 30);
    assert_int_equal(t.second, 59);
    /* Binary, 12 hours: 12 AM is 0, 12 PM is 12, 1 PM is 13; no century byte. */
    struct rtc_regs bin = { 7, 8, 12, 1, 2, 99, 0, RTC_B_BINARY };
    assert_true(rtc_decode(&bin, &t));
    assert_int_equal(t.hour, 0);
    assert_int_equal(t.year, 1999);
    bin.hour = 12 | RTC_HOURS_PM;
    assert_true(rtc_decode(&bin, &t));
    assert_int_equal(t.hour, 12);
    bin.hour = 1 | RTC_HOURS_PM;
    bin.year = 5;
    assert_true(rtc_decode(&bin, &t));
    assert_int_equal(t.hour, 13);
    assert_int_equal(t.year, 2005);
    /* What a missing or stopped clock reads. */
    struct rtc_regs ff = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, RTC_B_24H };
    assert_false(rtc_decode(&ff, &t));
    struct rtc_regs feb30 = { 0, 0, 0, 0x30, 0x02, 0x24, 0x20, RTC_B_24H };
    assert_false(rtc_decode(&feb30, &t));
    feb30.day = 0x29;                                   /* 2024 is a leap year */
    assert_true(rtc_decode(&feb30, &t));
}

static void test_seconds(void **state)
{
    struct rtc_time t = { 2000, 1, 1, 0, 0, 0 }, back;
    (void)state;
    assert_int_equal(rtc_seconds(&t), 0);
    t = (struct rtc_time){ 2024, 2, 29, 23, 59, 59 };
    uint32_t s = rtc_seconds(&t);
    rtc_from_seconds(s + 1, &back);                     /* into March */
    assert_int_equal(back.month, 3);
    assert_int_equal(back.day, 1);
    assert_int_equal(back.hour, 0);
    t = (struct rtc_time){ 2026, 12, 31, 23, 59, 30 };
    rtc_from_seconds(rtc_seconds(&t) + 45, &back);      /* wake=45 over New Year */
    assert_int_equal(back.year, 2027);
    assert_int_equal(back.month, 1);
    assert_int_equal(back.day, 1);
    assert_int_equal(back.second, 15);
    for (uint32_t x = 0; x < 40u * 365 * 86400; x += 86400 * 37 + 3601) {
        rtc_from_seconds(x, &back);
        assert_int_equal(rtc_seconds(&back), x);
    }
    char text[24];
    rtc_format(&t, text, sizeof(text));
    assert_string_equal(text, "2026-12-31 23:59:30");
}

/* The alarm registers in the clock's own mode. */
static void test_encode(void **state)
{
    (void)state;
    assert_int_equal(rtc_encode_field(59, RTC_B_24H), 0x59);
    assert_int_equal(rtc_encode_field(59, RTC_B_BINARY), 59);
    assert_int_equal(rtc_encode_hour(23, RTC_B_24H), 0x23);
    assert_int_equal(rtc_encode_hour(23, 0), 0x11 | RTC_HOURS_PM);
    assert_int_equal(rtc_encode_hour(0, 0), 0x12);
    assert_int_equal(rtc_encode_hour(12, RTC_B_BINARY), 12 | RTC_HOURS_PM);
    assert_int_equal(bin_to_bcd(7), 0x07);
    assert_int_equal(bcd_to_bin(0x42), 42);
    assert_false(bcd_valid(0x1A));
}

/* --- the words for the next boot -------------------------------------------------- */

static const struct record_now bios_now = {
    .legacy = true, .reset_flag = BDA_RESET_WARM, .have_time = true,
    .time = { 2026, 12, 5, 23, 10, 18 },
};

static void test_story_warm(void **state)
{
    struct record r = sample();
    struct record_story s;
    (void)state;
    record_story(&r, &bios_now, &s);
    assert_string_equal(s.said, "the previous run asked for a reset via kbd; the machine came "
                        "back through a warm boot (40:72h = 1234h)");
    assert_string_equal(s.detail, "asked at 2026-12-05 23:10:04, 14 s ago, 230 ms into that "
                        "run, its attempt 2; CMOS shutdown status 00h now");
    assert_string_equal(s.tag, "reset:kbd:warm");
}

/* A BIOS that clears its BDA at POST (SeaBIOS): the flag tells nothing, RAM does. */
static void test_story_flag_cleared(void **state)
{
    struct record r = sample();
    struct record_now now = bios_now;
    struct record_story s;
    (void)state;
    now.reset_flag = 0;
    record_story(&r, &now, &s);
    assert_non_null(strstr(s.said, "POST left 40:72h at 0000h (1234h was asked): warm or "
                           "cold cannot be told"));
    assert_string_equal(s.tag, "reset:kbd:flag-cleared");
    r.reset_flag = BDA_RESET_COLD;                      /* boot=cold */
    record_story(&r, &now, &s);
    assert_non_null(strstr(s.said, "through a cold boot, as asked"));
    assert_string_equal(s.tag, "reset:kbd:cold");
    now.legacy = false;                                 /* UEFI: no flag to read */
    record_story(&r, &now, &s);
    assert_string_equal(s.tag, "reset:kbd:ram-kept");
}

static void test_story_sleep_and_off(void **state)
{
    struct record r = sample();
    struct record_story s;
    (void)state;
    r.asked = RECORD_SUSPEND;
    strcpy(r.method, "rm");
    record_story(&r, &bios_now, &s);
    assert_non_null(strstr(s.said, "asked for suspend via rm and did not come back into "
                           "that run"));
    r.state = RECORD_RETURNED;
    r.away_s = 30;
    record_story(&r, &bios_now, &s);
    assert_string_equal(s.said, "the previous run's suspend via rm came back into that run "
                        "after 30 s");
    assert_string_equal(s.tag, "suspend:rm:returned");
    r = sample();
    r.asked = RECORD_OFF;
    strcpy(r.method, "acpi");
    record_story(&r, &bios_now, &s);
    assert_non_null(strstr(s.said, "asked for a power-off via acpi, and did not get it"));
    r.have_time = false;                                /* no clock then */
    record_story(&r, &bios_now, &s);
    assert_non_null(strstr(s.detail, "(the clock did not answer)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_stuck),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_decode_modes),
        cmocka_unit_test(test_seconds),
        cmocka_unit_test(test_encode),
        cmocka_unit_test(test_story_warm),
        cmocka_unit_test(test_story_flag_cleared),
        cmocka_unit_test(test_story_sleep_and_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
