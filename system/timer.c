/* The clock: see timer.h; the wrap arithmetic is lib/pitclock.c.
 *
 * Channel 2 is the one software may use freely; channel 0 is the BIOS's tick, only
 * read here (the real-mode calls need it as the BIOS left it). Channel 2 runs in mode
 * 2 (rate generator), which reloads by itself, PITCLOCK_STEP ticks shorter than
 * channel 0. One read-back command latches the count and status of both on the same
 * edge; reading them out leaves no latch pending for the BIOS. */
#include "timer.h"
#include "cmos.h"
#include "cpu.h"
#include "io.h"
#include "../lib/div64.h"
#include "../lib/pc.h"
#include "../lib/pitclock.h"
#include "../lib/rtctime.h"

#define PIT_CH2_MODE2   0xB4    /* channel 2, low then high byte, mode 2, binary */
#define PIT_READ_BACK   0xC0    /* 8254 read-back: bit 5 clear latches the counts, bit 4
                                   clear the status bytes, of the channels in bits 1-3 */
#define PIT_RB_CH0      0x02
#define PIT_RB_CH2      0x08
#define PIT_CH2_LATCH   0x80    /* counter latch command for channel 2 (an 8253 too) */
#define STUCK_READS     1000000u /* reads of a count that never moves: no PIT there */
#define ARM_READS_MAX   64      /* a count is loaded on the next input edge: 1 us */
#define CALIBRATE_US    10000u  /* the TSC's rate: a window of 10 ms */
#define BRACKET_TICKS   24u     /* 20 us: a TSC read between two PIT reads this close
                                   was not stretched by an SMI or, in an emulator, by
                                   the host: 0.2 % of the window at worst */
#define BRACKET_TRIES   16

static struct pitclock pit;
static bool readback = true;    /* the chipset's 8254 takes the read-back command */
static bool have_rtc = true;    /* until the RTC's registers make no time */
static uint64_t tsc_start;
static uint32_t tsc_khz;

static void latch(struct pit_latch *l)
{
    if (!readback) {
        /* Channel 2's count alone, by the latch command every 8253 and 8254 takes;
         * no status, no channel 0: one channel, its spans lower bounds. */
        outb(PIT_COMMAND, PIT_CH2_LATCH);
        l->count2 = inb(PIT_CH2);
        l->count2 = (uint16_t)(l->count2 | inb(PIT_CH2) << 8);
        l->status2 = (uint8_t)(PIT_STATUS_RW_WORD | 2 << PIT_STATUS_MODE_SHIFT);
        l->status0 = 0;
        l->count0 = 0;
        return;
    }
    outb(PIT_COMMAND, PIT_READ_BACK | PIT_RB_CH0 | PIT_RB_CH2);
    l->status0 = inb(PIT_CH0);
    l->count0 = inb(PIT_CH0);
    l->count0 = (uint16_t)(l->count0 | inb(PIT_CH0) << 8);
    l->status2 = inb(PIT_CH2);
    l->count2 = inb(PIT_CH2);
    l->count2 = (uint16_t)(l->count2 | inb(PIT_CH2) << 8);
}

/* Channel 2 as ours, read once its count is loaded. */
static void arm(struct pit_latch *l)
{
    uint16_t phase;

    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~PORT_B_SPEAKER) | PORT_B_GATE2));
    outb(PIT_COMMAND, PIT_CH2_MODE2);
    outb(PIT_CH2, (uint8_t)PITCLOCK_CH2_PERIOD);
    outb(PIT_CH2, (uint8_t)(PITCLOCK_CH2_PERIOD >> 8));
    for (int i = 0; i < ARM_READS_MAX; i++) {
        latch(l);
        if (pit_phase2(l->status2, l->count2, &phase))
            return;
    }
    /* The status never said "ours": no read-back command here (its reads were counts),
     * or none that latches status. The plain latch from now on. */
    readback = false;
    latch(l);
}

/* The RTC's time of day, when it can be read at once: UIP clear promises 244 us
 * without an update, more than the reads take. No waiting: a later read settles. */
static void settle_by_rtc(void)
{
    struct rtc_regs r = { 0 };
    uint32_t seconds;

    if (!have_rtc || (cmos_read(RTC_STATUS_A) & RTC_A_UIP))
        return;
    r.second = cmos_read(RTC_SECONDS);
    r.minute = cmos_read(RTC_MINUTES);
    r.hour = cmos_read(RTC_HOURS);
    r.status_b = cmos_read(RTC_STATUS_B);
    if (!rtc_time_of_day(&r, &seconds)) {
        have_rtc = false;               /* no clock there (all FFh), or a stopped one */
        return;
    }
    pitclock_rtc(&pit, seconds);
}

static void latch_for(void *ctx, struct pit_latch *l)
{
    (void)ctx;
    latch(l);
}

uint64_t timer_pit_ticks(void)
{
    struct pit_latch l;

    if (pitclock_sample(&pit, latch_for, 0, &l) == PITCLOCK_REARM) {
        arm(&l);                        /* a BIOS beeped through channel 2 */
        pitclock_rearm(&pit, &l);
    }
    return pit.ticks;
}

/* A TSC reading and the PIT's ticks at the same moment, to within BRACKET_TICKS. */
static void sample(uint64_t *tsc, uint64_t *ticks)
{
    for (int i = 0; i < BRACKET_TRIES; i++) {
        uint64_t before = timer_pit_ticks();
        *tsc = cpu_rdtsc();
        *ticks = timer_pit_ticks();
        if (*ticks - before <= BRACKET_TICKS)
            break;
    }
}

static uint64_t ticks_to_us(uint64_t ticks)
{
    return div64(ticks * 1000000u, PIT_HZ, 0);
}

void timer_start(bool have_tsc)
{
    struct pit_latch l;

    tsc_khz = 0;
    if (have_tsc)
        tsc_start = cpu_rdtsc();
    arm(&l);
    pitclock_start(&pit, &l);
    settle_by_rtc();                    /* the RTC's baseline */
    if (have_tsc) {
        uint64_t t0, p0, t1, p1;
        sample(&t0, &p0);
        pit_delay_us(CALIBRATE_US);
        sample(&t1, &p1);
        uint64_t khz = div64((t1 - t0) * PIT_HZ, (p1 - p0) * 1000u, 0);
        tsc_khz = khz >> 32 ? 0 : (uint32_t)khz;
    }
}

uint64_t timer_us(void)
{
    if (tsc_khz)
        return div64((cpu_rdtsc() - tsc_start) * 1000u, tsc_khz, 0);
    timer_pit_ticks();
    settle_by_rtc();
    return ticks_to_us(pit.ticks);
}

bool timer_exact_since(uint64_t start_us)
{
    if (tsc_khz)
        return true;
    timer_pit_ticks();
    return pitclock_exact_since(&pit, pit.ticks) && start_us >= ticks_to_us(pit.lost_at);
}

uint32_t timer_ms_since(uint64_t start_us, bool *exact)
{
    uint64_t ms = div64(timer_us() - start_us, 1000u, 0);
    *exact = timer_exact_since(start_us);
    return ms >> 32 ? 0xFFFFFFFFu : (uint32_t)ms;
}

const char *timer_bound(bool exact)
{
    return exact ? "" : ">= ";
}

const char *timer_source(void)
{
    if (tsc_khz)
        return "the TSC, its rate measured against the PIT";
    if (!pitclock_exact_since(&pit, ~(uint64_t)0 - 1))
        return "PIT channel 2 alone (no TSC; channel 0 is not the BIOS's repeating tick "
               "or there is no read-back): spans are lower bounds";
    bool half = pit.modulus < PITCLOCK_CH0_PERIOD;     /* channel 0 in mode 3 */
    if (have_rtc)
        return half ? "PIT channels 0 and 2 as a vernier, the RTC beyond 7 s (no TSC)"
                    : "PIT channels 0 and 2 as a vernier, the RTC beyond 14 s (no TSC)";
    return half ? "PIT channels 0 and 2 as a vernier (no TSC, no RTC: spans without a "
                  "read for 7 s would be short)"
                : "PIT channels 0 and 2 as a vernier (no TSC, no RTC: spans without a "
                  "read for 14 s would be short)";
}

void pit_delay_us(uint32_t us)
{
    uint64_t now = timer_pit_ticks();
    uint64_t until = now + div64((uint64_t)us * PIT_HZ + 999999u, 1000000u, 0);
    /* A count that never moves is no PIT (a board without one, a gate held low):
     * the wait ends rather than the run. */
    for (uint32_t still = 0; now < until && still < STUCK_READS;) {
        uint64_t then = now;
        now = timer_pit_ticks();
        still = now == then ? still + 1 : 0;
    }
}

bool timer_tsc_khz(uint32_t *khz)
{
    *khz = tsc_khz;
    return tsc_khz != 0;
}
