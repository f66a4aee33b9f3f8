/* The PIT clock's arithmetic: see pitclock.h.
 *
 * Why the phase difference counts wraps: after T ticks channel 0 (period 65536) is at
 * p0 = a0 + T and channel 2 (period 65536 - STEP) at p2 = a2 + T - k (65536 - STEP),
 * k being its wraps; so (a0 - a2) + p2 - p0 = k STEP, modulo 65536. With the offset
 * a0 - a2 taken at the base, k modulo 65536 / STEP is that sum divided by STEP. */
#include "pitclock.h"
#include "div64.h"

#define NONE_EXACT      (~(uint64_t)0)

static unsigned mode_of(uint8_t status)
{
    return (unsigned)(status >> PIT_STATUS_MODE_SHIFT) & 3u;   /* 6 and 7 are 2 and 3 */
}

static bool readable(uint8_t status)
{
    return (status & PIT_STATUS_RW_MASK) == PIT_STATUS_RW_WORD &&
           !(status & (PIT_STATUS_BCD | PIT_STATUS_NULL));
}

bool pit_phase0(uint8_t status, uint16_t count, uint16_t *phase)
{
    uint32_t left = count ? count : PITCLOCK_CH0_PERIOD;

    if (!readable(status))
        return false;
    if (mode_of(status) == 2) {                 /* rate generator: down by one */
        *phase = (uint16_t)(PITCLOCK_CH0_PERIOD - left);
        return true;
    }
    if (mode_of(status) == 3) {                 /* square wave: down by two, twice, the
                                                   output high in the first half */
        uint32_t half = (PITCLOCK_CH0_PERIOD - left) / 2;
        *phase = (uint16_t)(half + (status & PIT_STATUS_OUT ? 0 : PITCLOCK_CH0_PERIOD / 2));
        return true;
    }
    return false;                               /* a one-shot: no period to follow */
}

bool pit_phase2(uint8_t status, uint16_t count, uint16_t *phase)
{
    if (!readable(status) || mode_of(status) != 2 || !count || count > PITCLOCK_CH2_PERIOD)
        return false;
    *phase = (uint16_t)(PITCLOCK_CH2_PERIOD - count);
    return true;
}

static uint64_t ticks_now(const struct pitclock *c, uint16_t p2)
{
    return c->base + (uint64_t)c->wraps * PITCLOCK_CH2_PERIOD + p2 - c->base2;
}

/* A new base at this reading: ticks go on from c->ticks. */
static void rebase(struct pitclock *c, const struct pit_latch *l, uint16_t p2)
{
    uint16_t p0;

    c->base = c->ticks;
    c->base2 = c->last2 = p2;
    c->wraps = 0;
    c->vernier = pit_phase0(l->status0, l->count0, &p0);
    c->offset = (uint16_t)(p0 - p2);
}

/* The channels were not as the clock left them: what went by since the last read is
 * unknown beyond one wrap, and spans across here are lower bounds from now on. */
static void lose(struct pitclock *c, const struct pit_latch *l, uint16_t p2)
{
    if (p2 < c->last2)
        c->wraps++;
    c->ticks = ticks_now(c, p2);
    c->losses++;
    rebase(c, l, p2);
    c->lost_at = c->vernier ? c->ticks : NONE_EXACT;
}

void pitclock_start(struct pitclock *c, const struct pit_latch *l)
{
    uint16_t p2 = 0;

    *c = (struct pitclock){ 0 };
    pit_phase2(l->status2, l->count2, &p2);
    rebase(c, l, p2);
    c->lost_at = c->vernier ? 0 : NONE_EXACT;
}

void pitclock_rearm(struct pitclock *c, const struct pit_latch *l)
{
    uint16_t p2 = 0;

    pit_phase2(l->status2, l->count2, &p2);
    rebase(c, l, p2);
    c->lost_at = c->vernier ? c->ticks : NONE_EXACT;
}

enum pitclock_verdict pitclock_read(struct pitclock *c, const struct pit_latch *l)
{
    uint16_t p0, p2;

    if (!pit_phase2(l->status2, l->count2, &p2)) {
        c->losses++;
        c->lost_at = NONE_EXACT;        /* until pitclock_rearm() */
        return PITCLOCK_REARM;
    }
    if (!c->vernier) {
        /* One channel alone: a wrap since the last read is seen, more are not. A
         * channel 0 that repeats again starts the vernier from here. */
        if (p2 < c->last2)
            c->wraps++;
        c->last2 = p2;
        c->ticks = ticks_now(c, p2);
        if (pit_phase0(l->status0, l->count0, &p0)) {
            rebase(c, l, p2);
            c->lost_at = c->ticks;
        }
        return PITCLOCK_LOST;
    }
    if (!pit_phase0(l->status0, l->count0, &p0)) {
        lose(c, l, p2);
        return PITCLOCK_LOST;
    }
    uint32_t r = (uint16_t)(c->offset + p2 - p0);
    uint32_t steps = (r + PITCLOCK_STEP / 2) / PITCLOCK_STEP;
    int32_t off_grid = (int32_t)r - (int32_t)(steps * PITCLOCK_STEP);
    if (off_grid > (int32_t)PITCLOCK_SLACK || off_grid < -(int32_t)PITCLOCK_SLACK) {
        lose(c, l, p2);
        return PITCLOCK_LOST;
    }
    uint32_t delta = (steps - c->wraps) & (PITCLOCK_SPAN - 1);
    if (delta == 0 && p2 < c->last2)
        delta = PITCLOCK_SPAN;          /* a whole span went by unread: the RTC says
                                           whether more did */
    c->wraps += delta;
    c->last2 = p2;
    c->ticks = ticks_now(c, p2);
    return PITCLOCK_OK;
}

void pitclock_rtc(struct pitclock *c, uint32_t seconds_of_day)
{
    if (!c->vernier || seconds_of_day >= PITCLOCK_DAY_S)
        return;
    /* A baseline from before a loss would count the lost time as missed windows. */
    if (!c->have_rtc || c->rtc_base_ticks < c->lost_at) {
        c->have_rtc = true;
        c->rtc_base_s = seconds_of_day;
        c->rtc_base_ticks = c->ticks;
        return;
    }
    uint32_t elapsed = (seconds_of_day + PITCLOCK_DAY_S - c->rtc_base_s) % PITCLOCK_DAY_S;
    uint64_t by_rtc = (uint64_t)elapsed * PIT_HZ;
    uint64_t by_pit = c->ticks - c->rtc_base_ticks;
    /* Each reading of the seconds is up to one second late: the two clocks agree to
     * within two, and a missed window is fourteen. */
    if (by_rtc <= by_pit + PITCLOCK_SPAN_TICKS / 2)
        return;
    uint32_t windows = (uint32_t)div64(by_rtc - by_pit + PITCLOCK_SPAN_TICKS / 2,
                                       PITCLOCK_SPAN_TICKS, 0);
    c->wraps += windows * PITCLOCK_SPAN;
    c->ticks += windows * PITCLOCK_SPAN_TICKS;
    c->rtc_windows += windows;
}

bool pitclock_exact_since(const struct pitclock *c, uint64_t start_ticks)
{
    return c->lost_at != NONE_EXACT && start_ticks >= c->lost_at;
}
