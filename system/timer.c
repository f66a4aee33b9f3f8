/* The PIT clock and the TSC: see timer.h.
 *
 * Channel 2 is the one software may use freely (channel 0 is the BIOS's tick, and we
 * leave it alone for the real-mode calls). Mode 2 (rate generator) with a count of 0
 * divides by 65536 and reloads by itself; a latched read gives the count without
 * stopping it. The count falls: a reading above the last one means it wrapped. */
#include "timer.h"
#include "cpu.h"
#include "io.h"
#include "../lib/div64.h"
#include "../lib/pc.h"

#define PIT_CH2_MODE2   0xB4    /* channel 2, low then high byte, mode 2, binary */
#define PIT_CH2_LATCH   0x80    /* counter latch command for channel 2 */
#define PIT_HZ          1193182u
#define PIT_PERIOD      65536u
#define CALIBRATE_US    5000u   /* TSC rate: a window of 5 ms, one part in 5000 */

static bool tsc;
static uint64_t tsc_start;
static uint16_t last;           /* the count at the last read */
static uint64_t ticks;          /* PIT ticks since timer_start() */
static uint32_t tsc_khz;

static uint16_t pit_count(void)
{
    outb(PIT_COMMAND, PIT_CH2_LATCH);
    uint16_t count = inb(PIT_CH2);
    return (uint16_t)(count | inb(PIT_CH2) << 8);
}

void timer_start(bool have_tsc)
{
    tsc = have_tsc;
    if (tsc)
        tsc_start = cpu_rdtsc();
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~PORT_B_SPEAKER) | PORT_B_GATE2));
    outb(PIT_COMMAND, PIT_CH2_MODE2);
    outb(PIT_CH2, 0);
    outb(PIT_CH2, 0);
    last = pit_count();
    ticks = 0;
}

uint64_t timer_pit_ticks(void)
{
    uint16_t now = pit_count();
    /* Counting down: from last to now, through a reload when now is above last. */
    ticks += (uint16_t)(last - now);
    last = now;
    return ticks;
}

uint32_t timer_us(void)
{
    uint64_t t = timer_pit_ticks();
    return (uint32_t)div64(t * 1000000u, PIT_HZ, 0);
}

void pit_delay_us(uint32_t us)
{
    uint64_t until = timer_pit_ticks() + div64((uint64_t)us * PIT_HZ + 999999u, 1000000u, 0);
    while (timer_pit_ticks() < until)
        ;
}

bool timer_tsc_khz(uint32_t *khz)
{
    if (!tsc)
        return false;
    if (!tsc_khz) {
        uint64_t t0 = cpu_rdtsc(), p0 = timer_pit_ticks();
        pit_delay_us(CALIBRATE_US);
        uint64_t t1 = cpu_rdtsc(), p1 = timer_pit_ticks();
        uint64_t khz64 = div64((t1 - t0) * PIT_HZ, (p1 - p0) * 1000u, 0);
        tsc_khz = khz64 >> 32 ? 0 : (uint32_t)khz64;
    }
    *khz = tsc_khz;
    return tsc_khz != 0;
}

bool timer_tsc_us(uint32_t *us)
{
    uint32_t khz;
    if (!timer_tsc_khz(&khz))
        return false;
    uint64_t elapsed = div64((cpu_rdtsc() - tsc_start) * 1000u, khz, 0);
    *us = elapsed >> 32 ? 0xFFFFFFFFu : (uint32_t)elapsed;
    return true;
}
