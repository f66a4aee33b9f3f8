/* The clock's wrap arithmetic (lib/pitclock.c) against a simulated 8254: channel 0 as
 * a BIOS leaves it (mode 3 as SeaBIOS and most BIOSes, mode 2 as Bochs' BIOS), channel 2
 * as the clock programs it, read back together at chosen moments. A span is right
 * only if it is right to the tick, however long the silence before the read; the
 * one-channel clock apmoff had before 0.4 reported a 961 ms QR encode as 28 ms, which
 * test_silence_of_a_second shows the arithmetic now gets whole. Also the time of day
 * the RTC settles long silences with (lib/rtctime.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../../lib/pitclock.h"
#include "../../lib/pc.h"
#include "../../lib/rtctime.h"

#define STATUS_MODE(m)  ((uint8_t)(PIT_STATUS_RW_WORD | (m) << PIT_STATUS_MODE_SHIFT))
#define MS(n)           ((uint64_t)(n) * PIT_HZ / 1000u)

struct sim {
    unsigned mode0;             /* 2 or 3; 0 for a one-shot in progress */
    uint64_t phase0;            /* channel 0's phase at t = 0 */
    uint64_t armed2;            /* when channel 2 was programmed */
    bool beeping;               /* channel 2 taken for a tone (mode 3) */
};

static struct pit_latch read_at(const struct sim *s, uint64_t t)
{
    struct pit_latch l;
    uint32_t p0 = (uint32_t)((s->phase0 + t) % PITCLOCK_CH0_PERIOD);

    if (s->mode0 == 3) {
        uint32_t half = p0 % (PITCLOCK_CH0_PERIOD / 2);
        l.status0 = (uint8_t)(STATUS_MODE(3) | (p0 < PITCLOCK_CH0_PERIOD / 2 ? PIT_STATUS_OUT : 0));
        l.count0 = (uint16_t)(PITCLOCK_CH0_PERIOD - 2 * half);
    } else if (s->mode0 == 2) {
        l.status0 = STATUS_MODE(2);
        l.count0 = (uint16_t)(PITCLOCK_CH0_PERIOD - p0);
    } else {
        l.status0 = STATUS_MODE(0);
        l.count0 = 1234;
    }
    if (s->beeping) {
        l.status2 = STATUS_MODE(3);
        l.count2 = 1356;
    } else {
        uint32_t p2 = (uint32_t)((t - s->armed2) % PITCLOCK_CH2_PERIOD);
        l.status2 = STATUS_MODE(2);
        l.count2 = (uint16_t)(PITCLOCK_CH2_PERIOD - p2);
    }
    return l;
}

static void start(struct pitclock *c, const struct sim *s, uint64_t t)
{
    struct pit_latch l = read_at(s, t);
    pitclock_start(c, &l);
}

static enum pitclock_verdict read(struct pitclock *c, const struct sim *s, uint64_t t)
{
    struct pit_latch l = read_at(s, t);
    return pitclock_read(c, &l);
}

static void test_phases(void **state)
{
    uint16_t p;
    uint32_t m;
    (void)state;
    assert_true(pit_phase0(STATUS_MODE(2), 0, &p, &m));
    assert_int_equal(p, 0);
    assert_int_equal(m, 65536);
    assert_true(pit_phase0(STATUS_MODE(2), 1, &p, &m));
    assert_int_equal(p, 65535);
    /* mode 3: the count alone, modulo half the period; the output pin is not read */
    assert_true(pit_phase0(STATUS_MODE(3) | PIT_STATUS_OUT, 0, &p, &m));
    assert_int_equal(p, 0);
    assert_int_equal(m, 32768);
    assert_true(pit_phase0(STATUS_MODE(3), 2, &p, &m));
    assert_int_equal(p, 32767);
    assert_true(pit_phase0(STATUS_MODE(7), 0, &p, &m));    /* mode 3 read as 7 */
    assert_int_equal(p, 0);
    assert_false(pit_phase0(STATUS_MODE(0), 100, &p, &m));  /* a one-shot */
    assert_false(pit_phase0(STATUS_MODE(2) | PIT_STATUS_BCD, 100, &p, &m));
    assert_false(pit_phase0(STATUS_MODE(2) | PIT_STATUS_NULL, 100, &p, &m));
    assert_false(pit_phase0((uint8_t)(0x10 | 2 << PIT_STATUS_MODE_SHIFT), 100, &p, &m));
    assert_true(pit_phase2(STATUS_MODE(2), PITCLOCK_CH2_PERIOD, &p));
    assert_int_equal(p, 0);
    assert_false(pit_phase2(STATUS_MODE(2), 0, &p));        /* 65536: not our period */
    assert_false(pit_phase2(STATUS_MODE(3), 100, &p));
}

/* Reads at random moments, gaps up to just under the vernier's span: every read is
 * exact to the tick, for both of channel 0's modes and any phase between them. */
static void test_random_gaps(void **state)
{
    (void)state;
    srand(47);
    for (unsigned mode = 2; mode <= 3; mode++)
        for (int run = 0; run < 40; run++) {
            struct sim s = { mode, (uint64_t)rand() % 65536, (uint64_t)rand() % 100000, 0 };
            struct pitclock c;
            uint64_t t0 = s.armed2 + (uint64_t)(rand() % 50), t = t0;
            start(&c, &s, t0);
            uint64_t span = mode == 3 ? PITCLOCK_HALF_SPAN_TICKS : PITCLOCK_SPAN_TICKS;
            for (int i = 0; i < 200; i++) {
                uint64_t gap = (uint64_t)rand() % 4 == 0
                    ? (uint64_t)rand() % (span - PITCLOCK_CH2_PERIOD)
                    : (uint64_t)rand() % 200000;
                t += gap;
                assert_int_equal(read(&c, &s, t), PITCLOCK_OK);
                assert_true(c.ticks == t - t0);
            }
            assert_true(pitclock_exact_since(&c, 0));
        }
}

/* QEMU latches channel 0's output pin apart from its count: at the turn of a half
 * period the pin may belong to the other half. A minute of reads every few hundred
 * ticks, the pin at random: every read exact (the count alone decides; the pin once
 * put the phase off by half a period, on the grid, and 7 s were gained unseen). */
static void test_out_pin_ignored(void **state)
{
    struct sim s = { 3, 31000, 0, 0 };
    struct pitclock c;
    uint64_t t = 0;
    (void)state;
    srand(48);
    start(&c, &s, 0);
    while (t < 60 * (uint64_t)PIT_HZ) {
        t += 1 + (uint64_t)rand() % 400;
        struct pit_latch l = read_at(&s, t);
        l.status0 = (uint8_t)((l.status0 & ~PIT_STATUS_OUT) | (rand() & 1 ? PIT_STATUS_OUT : 0));
        assert_int_equal(pitclock_read(&c, &l), PITCLOCK_OK);
        assert_true(c.ticks == t);
    }
    assert_true(pitclock_exact_since(&c, 0));
}

/* A host that pauses QEMU between its latch of channel 0 and of channel 2 (a 27 us
 * gap, under load): one latch in 32 here takes channel 2 up to 2000 ticks late.
 * Sampled in agreeing pairs, a minute of reads stays exact; a persistent change of
 * channel 0 is still a loss. */
struct glitchy {
    const struct sim *s;
    uint64_t t;
};

static void glitchy_latch(void *ctx, struct pit_latch *l)
{
    struct glitchy *g = ctx;
    g->t += 3;                                          /* each latch a few us later */
    *l = read_at(g->s, g->t);
    if (rand() % 32 == 0) {
        struct pit_latch late = read_at(g->s, g->t + 1 + (uint64_t)rand() % 2000);
        l->status2 = late.status2;
        l->count2 = late.count2;
    }
}

static void test_glitches_sampled(void **state)
{
    struct sim s = { 2, 777, 0, 0 };
    struct glitchy g = { &s, 0 };
    struct pitclock c;
    struct pit_latch used;
    (void)state;
    srand(49);
    start(&c, &s, 0);
    while (g.t < 60 * (uint64_t)PIT_HZ) {
        g.t += (uint64_t)rand() % 3000;
        assert_int_equal(pitclock_sample(&c, glitchy_latch, &g, &used), PITCLOCK_OK);
        /* a latch late by no more than the grid's slack passes as on time */
        assert_true(c.ticks >= g.t && c.ticks - g.t <= PITCLOCK_SLACK);
    }
    assert_true(pitclock_exact_since(&c, 0));
    s.phase0 += 20000;                                  /* channel 0 reprogrammed */
    g.t += 1000;
    assert_int_equal(pitclock_sample(&c, glitchy_latch, &g, &used), PITCLOCK_LOST);
    assert_false(pitclock_exact_since(&c, 0));
}

/* The case that made the clock lie: an encode of about a second that reads nothing. */
static void test_silence_of_a_second(void **state)
{
    struct sim s = { 3, 4000, 0, 0 };
    struct pitclock c;
    (void)state;
    start(&c, &s, 10);
    assert_int_equal(read(&c, &s, 10 + MS(961)), PITCLOCK_OK);
    assert_true(c.ticks == MS(961));
    /* one channel alone would have said 961 ms modulo 54.9 ms: 27 ms */
    assert_int_equal(MS(961) % PITCLOCK_CH0_PERIOD * 1000 / PIT_HZ, 27);
}

/* Longer than the vernier's span: the RTC's seconds settle which window it ends in. */
static void test_long_silence_settled_by_rtc(void **state)
{
    struct sim s = { 2, 100, 0, 0 };
    struct pitclock c;
    uint64_t t = 0;
    (void)state;
    start(&c, &s, t);
    pitclock_rtc(&c, 3600);                             /* 01:00:00, at 0.0 s */
    for (unsigned silence_s = 15; silence_s < 200; silence_s += 23) {
        uint64_t gap = (uint64_t)silence_s * PIT_HZ + 12345;
        t += gap;
        assert_int_equal(read(&c, &s, t), PITCLOCK_OK);
        assert_true(c.ticks != t);                      /* whole windows are missing */
        pitclock_rtc(&c, (uint32_t)(3600 + t / PIT_HZ));
        assert_true(c.ticks == t);
    }
    /* The RTC one second off either way still settles it. */
    t += 40 * (uint64_t)PIT_HZ;
    read(&c, &s, t);
    pitclock_rtc(&c, (uint32_t)(3600 + t / PIT_HZ + 1));
    assert_true(c.ticks == t);
    assert_true(pitclock_exact_since(&c, 0));
}

/* Around midnight the seconds of the day start over. */
static void test_rtc_across_midnight(void **state)
{
    struct sim s = { 3, 0, 0, 0 };
    struct pitclock c;
    uint64_t t = 30 * (uint64_t)PIT_HZ;
    (void)state;
    start(&c, &s, 0);
    pitclock_rtc(&c, PITCLOCK_DAY_S - 10);
    read(&c, &s, t);
    pitclock_rtc(&c, 20);
    assert_true(c.ticks == t);
}

/* A BIOS that ran channel 0 as a one-shot for a wait (our test BIOS's standby) and
 * then set its tick again: the span across is a lower bound, later spans exact. */
static void test_channel0_taken_and_given_back(void **state)
{
    struct sim s = { 3, 500, 0, 0 };
    struct pitclock c;
    (void)state;
    start(&c, &s, 0);
    assert_int_equal(read(&c, &s, MS(100)), PITCLOCK_OK);
    s.mode0 = 0;
    assert_int_equal(read(&c, &s, MS(3000)), PITCLOCK_LOST);
    assert_false(pitclock_exact_since(&c, 0));
    assert_true(c.ticks <= MS(3000));                   /* never more than true */
    s.mode0 = 3;
    s.phase0 = 9999;                                    /* a new phase: reprogrammed */
    assert_int_equal(read(&c, &s, MS(3100)), PITCLOCK_LOST);
    uint64_t back = c.ticks;
    assert_int_equal(read(&c, &s, MS(5300)), PITCLOCK_OK);
    assert_true(c.ticks - back == MS(5300) - MS(3100));
    assert_true(pitclock_exact_since(&c, back));
    assert_false(pitclock_exact_since(&c, back - 1));
}

/* Channel 0 reprogrammed in a call to the same mode at another phase: the pair falls
 * off the grid and the read says so, instead of counting wrong wraps (unless the new
 * phase lands within PITCLOCK_SLACK of the grid: 9 phases in 256). */
static void test_channel0_phase_jump(void **state)
{
    struct sim s = { 2, 0, 0, 0 };
    struct pitclock c;
    (void)state;
    start(&c, &s, 0);
    s.phase0 = 20000;                                   /* 78 steps and 32 ticks */
    assert_int_equal(read(&c, &s, MS(700)), PITCLOCK_LOST);
    assert_false(pitclock_exact_since(&c, 0));
    assert_int_equal(c.losses, 1);
}

/* A BIOS beep takes channel 2: the clock asks to be armed again and goes on. */
static void test_channel2_beeped(void **state)
{
    struct sim s = { 3, 0, 0, 0 };
    struct pitclock c;
    (void)state;
    start(&c, &s, 0);
    assert_int_equal(read(&c, &s, MS(50)), PITCLOCK_OK);
    s.beeping = true;
    assert_int_equal(read(&c, &s, MS(400)), PITCLOCK_REARM);
    assert_false(pitclock_exact_since(&c, c.ticks));
    s.beeping = false;
    s.armed2 = MS(401);
    struct pit_latch l = read_at(&s, MS(401));
    pitclock_rearm(&c, &l);
    uint64_t back = c.ticks;
    assert_int_equal(read(&c, &s, MS(2401)), PITCLOCK_OK);
    assert_true(c.ticks - back == MS(2401) - MS(401));
    assert_true(pitclock_exact_since(&c, back));
}

/* No repeating channel 0 from the start (a one-shot, or no read-back command: the
 * status bytes are then counts): the clock still runs, and nothing is exact. */
static void test_no_vernier(void **state)
{
    struct sim s = { 0, 0, 0, 0 };
    struct pitclock c;
    (void)state;
    start(&c, &s, 0);
    assert_false(c.vernier);
    assert_false(pitclock_exact_since(&c, 0));
    assert_int_equal(read(&c, &s, MS(30)), PITCLOCK_LOST);
    assert_true(c.ticks == MS(30));
    assert_int_equal(read(&c, &s, MS(70)), PITCLOCK_LOST);   /* one wrap: seen */
    assert_true(c.ticks == MS(70));
    pitclock_rtc(&c, 100);
    assert_false(c.have_rtc);                           /* no windows to settle */
}

static void test_time_of_day(void **state)
{
    uint32_t s;
    (void)state;
    struct rtc_regs bcd24 = { .second = 0x59, .minute = 0x59, .hour = 0x23,
                              .status_b = RTC_B_24H };
    assert_true(rtc_time_of_day(&bcd24, &s));
    assert_int_equal(s, 86399);
    struct rtc_regs pm12 = { .second = 5, .minute = 0, .hour = RTC_HOURS_PM | 12,
                             .status_b = RTC_B_BINARY };
    assert_true(rtc_time_of_day(&pm12, &s));
    assert_int_equal(s, 12 * 3600 + 5);
    struct rtc_regs am12 = { .second = 0, .minute = 0, .hour = 0x12, .status_b = 0 };
    assert_true(rtc_time_of_day(&am12, &s));
    assert_int_equal(s, 0);
    struct rtc_regs absent = { .second = 0xFF, .minute = 0xFF, .hour = 0xFF,
                               .status_b = 0xFF };
    assert_false(rtc_time_of_day(&absent, &s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_random_gaps),
        cmocka_unit_test(test_silence_of_a_second),
        cmocka_unit_test(test_out_pin_ignored),
        cmocka_unit_test(test_glitches_sampled),
        cmocka_unit_test(test_long_silence_settled_by_rtc),
        cmocka_unit_test(test_rtc_across_midnight),
        cmocka_unit_test(test_channel0_taken_and_given_back),
        cmocka_unit_test(test_channel0_phase_jump),
        cmocka_unit_test(test_channel2_beeped),
        cmocka_unit_test(test_no_vernier),
        cmocka_unit_test(test_time_of_day),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
