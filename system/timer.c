/* PIT one-shot delays and TSC timing: see timer.h.
 *
 * Channel 2 is the one software may use freely (channel 0 is the BIOS's tick, and we
 * leave it alone for the real-mode calls). In mode 0 its output, readable as bit 5 of
 * port 61h, goes high when the count runs out. */
#include "timer.h"
#include "cpu.h"
#include "io.h"
#include "../lib/pc.h"

#define PIT_CH2_MODE0   0xB0    /* channel 2, low then high byte, mode 0, binary */
#define PIT_HZ_PER_MS   1193    /* 1.193182 MHz */
#define CHUNK_US        50000   /* fits the 16-bit counter */
#define CALIBRATE_US    10000
#define CALIBRATE_BASE_US 2000
#define CALIBRATE_ROUNDS 3

static void pit_one_shot(uint32_t us)
{
    uint32_t count = us * PIT_HZ_PER_MS / 1000;
    if (count < 2)
        count = 2;
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~PORT_B_SPEAKER) | PORT_B_GATE2));
    outb(PIT_COMMAND, PIT_CH2_MODE0);
    outb(PIT_CH2, count & 0xFF);
    outb(PIT_CH2, (count >> 8) & 0xFF);
    for (uint32_t spin = 0; !(inb(PORT_B) & PORT_B_OUT2) && spin < 0x1000000; spin++)
        ;                               /* bounded: a missing PIT must not hang us */
}

void pit_delay_us(uint32_t us)
{
    while (us > CHUNK_US) {
        pit_one_shot(CHUNK_US);
        us -= CHUNK_US;
    }
    pit_one_shot(us);
}

static bool tsc;
static uint64_t start;

void timer_mark_start(bool have_tsc)
{
    tsc = have_tsc;
    if (tsc)
        start = cpu_rdtsc();
}

/* 64-by-32-bit division with two DIVs, so no libgcc helper is needed. */
static uint32_t div64_32(uint64_t n, uint32_t d)
{
    uint32_t hi = (uint32_t)(n >> 32), lo = (uint32_t)n, q_hi, q_lo, r;
    q_hi = hi / d;
    r = hi % d;
    __asm__("divl %4" : "=a"(q_lo), "=d"(r) : "a"(lo), "d"(r), "rm"(d));
    return q_hi ? 0xFFFFFFFFu : q_lo;
}

/* TSC ticks in CALIBRATE_US, measured once against the PIT. Two one-shots, the
 * second CALIBRATE_US longer: their difference cancels the fixed cost of programming
 * and polling the PIT, about a millisecond under emulation, which made a single
 * 10 ms window read 10% short (8 s measured as 7.2 s). Kept per window, not per
 * microsecond: at Bochs' 4 MHz a rate of 3.999 ticks/us rounded to 3 read a third long.
 * Each window is the short_window of CALIBRATE_ROUNDS: a pause of the CPU (an
 * emulator's host busy elsewhere) can only lengthen a window, and one long window
 * made an 8 s standby read as 5.3 s. 0 when the PIT disagrees. */
static uint32_t tsc_per_window(void)
{
    static uint32_t ticks;
    uint64_t short_window = ~0ull, long_window = ~0ull;

    if (ticks)
        return ticks;
    for (int round = 0; round < CALIBRATE_ROUNDS; round++) {
        uint64_t t0 = cpu_rdtsc();
        pit_delay_us(CALIBRATE_BASE_US);
        uint64_t t1 = cpu_rdtsc();
        pit_delay_us(CALIBRATE_BASE_US + CALIBRATE_US);
        uint64_t t2 = cpu_rdtsc();
        if (t1 - t0 < short_window)
            short_window = t1 - t0;
        if (t2 - t1 < long_window)
            long_window = t2 - t1;
    }
    uint64_t d = long_window - short_window;
    if (long_window > short_window && d >> 32 == 0)
        ticks = (uint32_t)d;
    return ticks;
}

bool timer_tsc_khz(uint32_t *khz)
{
    uint32_t window = tsc ? tsc_per_window() : 0;
    if (!window)
        return false;
    *khz = window / (CALIBRATE_US / 1000);
    return true;
}

bool timer_elapsed_us(uint32_t *us)
{
    if (!tsc)
        return false;
    uint64_t now = cpu_rdtsc();
    uint32_t window = tsc_per_window();
    if (!window)
        return false;
    *us = div64_32((now - start) * CALIBRATE_US, window);
    return true;
}
