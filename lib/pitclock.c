/* The PIT clock's arithmetic: see pitclock.h.
 *
 * Why the phase difference counts wraps: after T ticks channel 0 (period 65536) is at
 * p0 = a0 + T and channel 2 (period 65536 - STEP) at p2 = a2 + T - k (65536 - STEP),
 * k being its wraps; so (a0 - a2) + p2 - p0 = k STEP, modulo 65536 (or modulo 32768,
 * where only the phase within channel 0's half period is known: 65536 - STEP is
 * 32768 - STEP there too). With the offset a0 - a2 taken at the base, k modulo
 * M / STEP is that sum divided by STEP. */
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

bool pit_phase0(uint8_t status, uint16_t count, uint16_t *phase, uint32_t *modulus)
{
    uint32_t left = count ? count : PITCLOCK_CH0_PERIOD;

    if (!readable(status))
        return false;
    if (mode_of(status) == 2) {                 /* rate generator: down by one */
        *phase = (uint16_t)(PITCLOCK_CH0_PERIOD - left);
        *modulus = PITCLOCK_CH0_PERIOD;
        return true;
    }
    if (mode_of(status) == 3) {                 /* square wave: down by two, twice */
        *phase = (uint16_t)((PITCLOCK_CH0_PERIOD - left) / 2);
        *modulus = PITCLOCK_CH0_PERIOD / 2;
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

static uint32_t span_of(const struct pitclock *c)
{
    return c->modulus / PITCLOCK_STEP;
}

/* A new base at this reading: ticks go on from c->ticks. */
static void rebase(struct pitclock *c, const struct pit_latch *l, uint16_t p2)
{
    uint16_t p0 = 0;

    c->base = c->ticks;
    c->base2 = c->last2 = p2;
    c->wraps = 0;
    c->vernier = pit_phase0(l->status0, l->count0, &p0, &c->modulus);
    c->offset = (uint16_t)((p0 - p2) & (c->modulus - 1));
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
    uint32_t modulus;
    if (!c->vernier) {
        /* One channel alone: a wrap since the last read is seen, more are not. A
         * channel 0 that repeats again starts the vernier from here. */
        if (p2 < c->last2)
            c->wraps++;
        c->last2 = p2;
        c->ticks = ticks_now(c, p2);
        if (pit_phase0(l->status0, l->count0, &p0, &modulus)) {
            rebase(c, l, p2);
            c->lost_at = c->ticks;
        }
        return PITCLOCK_LOST;
    }
    if (!pit_phase0(l->status0, l->count0, &p0, &modulus) || modulus != c->modulus) {
        lose(c, l, p2);                 /* channel 0 stopped, or changed its mode */
        return PITCLOCK_LOST;
    }
    uint32_t r = (c->offset + p2 - p0) & (c->modulus - 1);
    uint32_t steps = (r + PITCLOCK_STEP / 2) / PITCLOCK_STEP;
    int32_t off_grid = (int32_t)r - (int32_t)(steps * PITCLOCK_STEP);
    if (off_grid > (int32_t)PITCLOCK_SLACK || off_grid < -(int32_t)PITCLOCK_SLACK) {
        lose(c, l, p2);
        return PITCLOCK_LOST;
    }
    uint32_t delta = (steps - c->wraps) & (span_of(c) - 1);
    if (delta == 0 && p2 < c->last2)
        delta = span_of(c);             /* a whole span went by unread: the RTC says
                                           whether more did */
    c->wraps += delta;
    c->last2 = p2;
    c->ticks = ticks_now(c, p2);
    return PITCLOCK_OK;
}

/* Where a reading falls against the base: channel 2's wraps modulo the span (*steps)
 * and its phase (*p2); false when it is off the grid or not readable. */
static bool place(const struct pitclock *c, const struct pit_latch *l, uint32_t *steps,
                  uint16_t *p2)
{
    uint16_t p0;
    uint32_t modulus;

    if (!pit_phase2(l->status2, l->count2, p2) ||
        !pit_phase0(l->status0, l->count0, &p0, &modulus) || modulus != c->modulus)
        return false;
    uint32_t r = (c->offset + *p2 - p0) & (c->modulus - 1);
    uint32_t n = (r + PITCLOCK_STEP / 2) / PITCLOCK_STEP;
    int32_t off_grid = (int32_t)r - (int32_t)(n * PITCLOCK_STEP);
    *steps = n & (span_of(c) - 1);
    return off_grid <= (int32_t)PITCLOCK_SLACK && off_grid >= -(int32_t)PITCLOCK_SLACK;
}

/* Whether b, latched right after a, agrees with it: both on the grid, and b a little
 * later than a. */
static bool agree(const struct pitclock *c, const struct pit_latch *a,
                  const struct pit_latch *b)
{
    uint32_t sa, sb;
    uint16_t pa, pb;

    if (!c->vernier)
        return true;                    /* one channel: nothing to hold it against */
    if (!place(c, a, &sa, &pa) || !place(c, b, &sb, &pb))
        return false;
    uint32_t wraps = (sb - sa) & (span_of(c) - 1);
    int64_t apart = (int64_t)wraps * PITCLOCK_CH2_PERIOD + pb - pa;
    return apart >= 0 && apart <= PITCLOCK_AGREE_TICKS;
}

enum pitclock_verdict pitclock_sample(struct pitclock *c, pit_latch_fn latch, void *ctx,
                                      struct pit_latch *used)
{
    struct pit_latch a;

    for (int i = 0; i < PITCLOCK_TRIES; i++) {
        latch(ctx, &a);
        latch(ctx, used);
        if (agree(c, &a, used))
            break;
    }
    return pitclock_read(c, used);
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
    uint64_t window = (uint64_t)span_of(c) * PITCLOCK_CH2_PERIOD;   /* 7 or 14 s */
    /* Each reading of the seconds is up to one second late: the two clocks agree to
     * within two, and a missed window is seven or fourteen. */
    if (by_rtc <= by_pit + window / 2)
        return;
    uint32_t windows = (uint32_t)div64(by_rtc - by_pit + window / 2, window, 0);
    c->wraps += windows * span_of(c);
    c->ticks += windows * window;
    c->rtc_windows += windows;
}

bool pitclock_exact_since(const struct pitclock *c, uint64_t start_ticks)
{
    return c->lost_at != NONE_EXACT && start_ticks >= c->lost_at;
}
