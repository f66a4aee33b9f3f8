/* The PIT clock's arithmetic: counting the timer's wraps so that none is lost, apart
 * from the ports, so the host tests feed it any reading (system/timer.c reads them).
 *
 * A PIT channel counts 1.193182 MHz down through at most 65536 and starts over every
 * 54.9 ms. One channel alone cannot tell one wrap from two: a span measured across a
 * step that reads nothing (a BIOS call, a mode set, a QR encode) was known only
 * modulo 55 ms. Two channels fed by the same clock, whose periods differ by
 * PITCLOCK_STEP ticks, slide past each other by that much at every wrap, as a
 * caliper's vernier does: their phase difference counts the wraps. Channel 0 keeps
 * the BIOS's period (65536, its 18.2 Hz tick, which the real-mode calls need and which
 * apmoff never reprograms); channel 2, ours, runs PITCLOCK_STEP ticks shorter. One
 * 8254 read-back command latches both counts and both status bytes on the same clock
 * edge, so their difference is exact, and the wraps are known modulo PITCLOCK_SPAN:
 * reading the clock every 14 s is enough. Channel 0 in mode 3 (a square wave, as most
 * BIOSes run it) counts down by two through each half of its period, and only its
 * output pin tells the halves apart; the pin is not trusted (QEMU latches it apart
 * from the count, and a reading at the turn of a half put the phase off by exactly
 * half a period, which is on the grid: 7 s gained, unseen). Its count alone gives the
 * phase modulo 32768, and the wraps are then known modulo half the span: 7 s.
 *
 * Longer silences (a standby, a BIOS call that waits) are settled by the RTC's
 * seconds (pitclock_rtc()): they place a span within a second or two, and the vernier
 * says which 14 s (or 7 s) window it ends in. A channel that is not as the clock left it (a
 * BIOS that beeped through channel 2, or that ran channel 0 as a one-shot for a wait)
 * breaks the vernier: the read that sees it records a loss and starts the vernier
 * again, and a span that includes the loss is only a lower bound
 * (pitclock_exact_since()). Without a read-back command, or with channel 0 in a mode
 * that does not repeat, nothing is exact. */
#ifndef APMOFF_LIB_PITCLOCK_H
#define APMOFF_LIB_PITCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define PIT_HZ                  1193182u
#define PITCLOCK_CH0_PERIOD     65536u  /* the BIOS's tick: a count of 0 */
#define PITCLOCK_STEP           256u    /* a power of two: the wraps fall on its grid */
#define PITCLOCK_CH2_PERIOD     (PITCLOCK_CH0_PERIOD - PITCLOCK_STEP)
#define PITCLOCK_SPAN           (PITCLOCK_CH0_PERIOD / PITCLOCK_STEP)   /* 256 wraps */
#define PITCLOCK_SPAN_TICKS     ((uint64_t)PITCLOCK_SPAN * PITCLOCK_CH2_PERIOD) /* 14.0 s */
#define PITCLOCK_HALF_SPAN_TICKS (PITCLOCK_SPAN_TICKS / 2)   /* channel 0 in mode 3 */
/* How far a latched pair may sit off the grid: both counts are latched on one edge,
 * so only a square wave's halves (channel 0 in mode 3 counts by two) move it, by one
 * tick. A channel 0 reprogrammed at a random phase lands this close to the grid, and
 * goes unseen, once in 256 / (2 x 4 + 1) = 28 times. */
#define PITCLOCK_SLACK          4
#define PITCLOCK_DAY_S          86400u

/* The 8254's status byte, as a read-back command latches it. */
#define PIT_STATUS_OUT          0x80    /* the output pin */
#define PIT_STATUS_NULL         0x40    /* a count written but not yet loaded */
#define PIT_STATUS_RW_MASK      0x30
#define PIT_STATUS_RW_WORD      0x30    /* low byte, then high */
#define PIT_STATUS_MODE_SHIFT   1       /* three bits; modes 2 and 3 also read as 6, 7 */
#define PIT_STATUS_BCD          0x01

/* One read-back of channels 0 and 2: status and count, latched together. */
struct pit_latch {
    uint8_t status0, status2;
    uint16_t count0, count2;    /* as read: 0 stands for 65536 */
};

enum pitclock_verdict {
    PITCLOCK_OK,                /* the ticks are exact since the last loss */
    PITCLOCK_LOST,              /* the channels were not as left: wraps may be lost */
    PITCLOCK_REARM,             /* channel 2 is not ours any more: program it again */
};

struct pitclock {
    bool vernier;               /* channel 0 runs the BIOS's tick: the wraps are counted */
    uint32_t modulus;           /* channel 0's phase is known modulo this: 65536 in mode
                                   2, 32768 in mode 3 */
    uint16_t offset;            /* channel 0's phase minus channel 2's at the base */
    uint16_t base2;             /* channel 2's phase at the base */
    uint16_t last2;             /* channel 2's phase at the last read */
    uint32_t wraps;             /* channel 2's periods since the base */
    uint64_t base;              /* the ticks at the base */
    uint64_t ticks;             /* the ticks at the last read */
    uint64_t lost_at;           /* spans from here on are exact; ~0: none is */
    uint32_t losses;            /* reads that found the channels changed */
    bool have_rtc;              /* the RTC's baseline below is set */
    uint32_t rtc_base_s;        /* its seconds of the day there */
    uint64_t rtc_base_ticks;
    uint32_t rtc_windows;       /* windows (14 or 7 s) the RTC found the vernier missed */
};

/* Two latches in a row must agree (AGREE_TICKS apart at most, both on the grid)
 * before a reading counts: a latch that straddles a host's pause (QEMU latches the two
 * channels one after the other; a 27 us gap between them was seen under load) is off
 * the grid, or worse on it by chance, and one such reading must not cost the clock its
 * exactness. A channel truly reprogrammed never agrees: after PITCLOCK_TRIES pairs the
 * last reading goes in as it is, and the loss is seen. */
#define PITCLOCK_AGREE_TICKS    2048    /* 1.7 ms: two latches in a row, even on a 386 */
#define PITCLOCK_TRIES          8

typedef void (*pit_latch_fn)(void *ctx, struct pit_latch *l);

/* Starts the clock from its first reading, channel 2 just programmed as ours. */
void pitclock_start(struct pitclock *c, const struct pit_latch *l);
/* Takes a reading; c->ticks is then the ticks since the start. */
enum pitclock_verdict pitclock_read(struct pitclock *c, const struct pit_latch *l);
/* Latches pairs through `latch` until two agree (or PITCLOCK_TRIES pairs), then reads
 * the second; *used is that reading (for a re-arm). */
enum pitclock_verdict pitclock_sample(struct pitclock *c, pit_latch_fn latch, void *ctx,
                                      struct pit_latch *used);
/* After channel 2 was programmed again, its reading: a new base. */
void pitclock_rearm(struct pitclock *c, const struct pit_latch *l);
/* The RTC's seconds of the day, read now (right after a pitclock_read()): settles a
 * silence longer than the vernier's span. */
void pitclock_rtc(struct pitclock *c, uint32_t seconds_of_day);
/* Whether a span that began at this tick count is exact (no loss since). */
bool pitclock_exact_since(const struct pitclock *c, uint64_t start_ticks);

/* Channel 0's phase modulo *modulus (65536 in mode 2, 32768 in mode 3, from the count
 * alone), and channel 2's within its period, from the latched status and count;
 * false for a mode or access that the clock cannot follow. */
bool pit_phase0(uint8_t status, uint16_t count, uint16_t *phase, uint32_t *modulus);
bool pit_phase2(uint8_t status, uint16_t count, uint16_t *phase);

#endif
