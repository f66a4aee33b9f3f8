/* CPU clock: see cpuclock.h.
 *
 * The loop is timed by the PIT clock (timer.h); the loop count doubles until the run
 * takes long enough to measure to a fraction of a percent (5 ms). */
#include "cpuclock.h"
#include "timer.h"
#include "../lib/pitclock.h"

#define DIVS_PER_ROUND      16
#define MIN_TICKS           6000u   /* 5 ms: a tick is under a thousandth of that */
#define MAX_ROUNDS          (1u << 20)

/* Clocks of one round of the loop below: 16 DIVs, then DEC and a taken JNZ (386:
 * 2 + 7 + m, with m = 2 for the DIV's bytes; 486: 1 + 3). i386 and i486
 * Programmer's Reference Manuals, instruction timing tables. */
#define ROUND_CLOCKS_386    (DIVS_PER_ROUND * 38 + 2 + 9)
#define ROUND_CLOCKS_486    (DIVS_PER_ROUND * 40 + 1 + 3)

static void div_rounds(uint32_t rounds)
{
    uint32_t a = 1, d = 0, b = 1;
    __asm__ volatile("1:\n\t"
                     ".rept 16\n\t"
                     "divl %[b]\n\t"
                     ".endr\n\t"
                     "decl %[n]\n\t"
                     "jnz 1b"
                     : [n] "+r"(rounds), "+a"(a), "+d"(d)
                     : [b] "r"(b));
}

/* PIT ticks the loop took. */
static uint32_t time_rounds(uint32_t rounds)
{
    uint64_t start = timer_pit_ticks();
    div_rounds(rounds);
    return (uint32_t)(timer_pit_ticks() - start);
}

/* cycles / ticks * 1193.182 kHz, without a 64-bit division (no libgcc here). */
static uint32_t khz_of(uint32_t cycles, uint32_t ticks)
{
    uint32_t q = cycles / ticks, r = cycles % ticks;
    return q * (PIT_HZ / 1000) + q * (PIT_HZ % 1000) / 1000 + r * (PIT_HZ / 1000) / ticks;
}

static uint32_t loop_khz(const struct cpu_info *c)
{
    uint32_t clocks = c->class[0] == '3' ? ROUND_CLOCKS_386 : ROUND_CLOCKS_486;
    for (uint32_t rounds = 64; rounds <= MAX_ROUNDS; rounds *= 2) {
        uint32_t ticks = time_rounds(rounds);
        if (!ticks)
            return 0;
        if (ticks >= MIN_TICKS)
            return khz_of(rounds * clocks, ticks);
    }
    return 0;
}

void cpu_clock_measure(const struct cpu_info *c, struct cpu_clock *out)
{
    out->method = "none";
    out->khz = 0;
    if (c->tsc && timer_tsc_khz(&out->khz)) {
        out->method = "tsc";
        return;
    }
    out->khz = loop_khz(c);
    if (out->khz)
        out->method = "div-loop";
}
