/* Memory sizes, the E820h map and the A20 gate: see memory.h. */
#include "memory.h"
#include "bios.h"
#include "../lib/bda.h"
#include "../lib/e820.h"
#include "../lib/pc.h"
#include "../lib/x86.h"

#define E820_CALLS_MAX      64              /* a BIOS whose EBX never returns to 0 */
#define E801_ALL_BELOW_16M  15360           /* KiB from 1 MiB to 16 MiB */
#define MEG                 0x100000u
#define KBC_SPIN            100000
#define A20_TESTS           1000

static int e820_call(void *ctx, struct biosregs *r)
{
    (void)ctx;
    intcall(BIOS_INT_SYSTEM, r, r);
    return 1;
}

/* Empty ranges are left out; the map ends when the multiboot map is full. */
static int e820_keep(void *ctx, const struct e820_entry *e)
{
    struct memory *m = ctx;
    if (e->length)
        m->map[m->map_count++] = (struct mbinfo_range){ e->base, e->length, e->type };
    return m->map_count < MBINFO_MAP_MAX;
}

static void memory_map(struct memory *m)
{
    static uint8_t entry[E820_ASK_SIZE];
    struct e820_walk w = { .call = e820_call, .each = e820_keep, .ctx = m,
                           .buffer = entry, .di = (uint32_t)(uintptr_t)entry,
                           .calls_max = E820_CALLS_MAX };
    e820_walk(&w);
}

void memory_detect(struct memory *m)
{
    struct biosregs r;

    *m = (struct memory){ 0 };
    initregs(&r);
    intcall(BIOS_INT_MEMORY, &r, &r);
    m->lower_kb = r.ax <= 640 ? r.ax : 640;
    uint32_t ebda = (uint32_t)*(volatile uint16_t *)phys(BDA_EBDA_SEGMENT) << 4;
    m->ebda = ebda >= EBDA_LOWEST && ebda < m->lower_kb * 1024 ? ebda : m->lower_kb * 1024;

    memory_map(m);
    if (m->map_count) {
        m->upper_kb = mbinfo_upper_from_map(m->map, m->map_count);
        m->upper_from = "E820h";
        if (m->upper_kb)
            return;
        /* A map without memory at 1 MiB is a BIOS's half answer (86Box's Flytech A36,
         * a 386SX of 16 MB, gives 640 KiB alone); Linux too drops a map of fewer than
         * two entries. The sizes decide, and the kernel gets a map made of them. */
        m->map_count = 0;
        m->map_dropped = true;
    }
    int15_ask(&r, 0xE801);              /* asked and judged as lib/biosregs.h says */
    intcall(BIOS_INT_SYSTEM, &r, &r);
    if (int15_answered(&r, 0xE801)) {
        uint32_t below16 = r.cx || r.dx ? r.cx : r.ax, above16 = r.cx || r.dx ? r.dx : r.bx;
        m->upper_kb = below16 + (below16 == E801_ALL_BELOW_16M ? above16 * 64 : 0);
        m->upper_from = "E801h";
        return;
    }
    int15_ask(&r, 0x8800);
    intcall(BIOS_INT_SYSTEM, &r, &r);
    m->upper_kb = int15_answered(&r, 0x8800) ? r.ax : 0;
    m->upper_from = "88h";
}

/* Whether A20 is open: a word at 1 MiB above a word of ours is a different word. */
static int a20_open(void)
{
    static volatile uint32_t probe;
    volatile uint32_t *above = phys((uint32_t)(uintptr_t)&probe + MEG);
    uint32_t saved = probe, open = 0;
    for (int i = 0; i < A20_TESTS && !open; i++) {
        probe = 0x5A5A0000u + (uint32_t)i;
        *above = ~probe;
        open = probe != *above;
    }
    probe = saved;
    return open;
}

static void kbc_wait(void)
{
    for (int i = 0; i < KBC_SPIN; i++) {
        uint8_t status = inb(KBC_CTRL);
        if (status == 0xFF)             /* no controller there */
            return;
        if (status & KBC_STATUS_OUT_FULL) {
            (void)inb(KBC_DATA);        /* a byte in the way: drop it */
            continue;
        }
        if (!(status & KBC_STATUS_IN_FULL))
            return;
    }
}

const char *a20_enable(void)
{
    struct biosregs r;
    if (a20_open())
        return "already open";
    initregs(&r);
    r.ax = 0x2401;
    intcall(BIOS_INT_SYSTEM, &r, &r);
    if (a20_open())
        return "BIOS 2401h";
    kbc_wait();
    outb(KBC_CTRL, KBC_CMD_WRITE_OUTPUT);
    kbc_wait();
    outb(KBC_DATA, KBC_OUTPUT_A20);
    kbc_wait();
    outb(KBC_CTRL, KBC_CMD_NULL);
    kbc_wait();
    if (a20_open())
        return "8042";
    uint8_t a = inb(PORT_A);
    if (a != 0xFF) {                    /* a chipset with port 92h */
        outb(PORT_A, (uint8_t)((a | PORT_A_A20) & ~PORT_A_RESET));
        if (a20_open())
            return "port 92h";
    }
    return 0;
}
