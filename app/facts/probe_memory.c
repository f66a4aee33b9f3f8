/* Memory as each BIOS interface reports it: see probes.h.
 *
 * E820 is walked entry by entry with its continuation value, bounded, as Linux's
 * arch/x86/boot/memory.c does; a BIOS that ends the list with CF set instead of a
 * zero continuation is normal (Phoenix). E801 answers in AX/BX on some BIOSes and
 * in CX/DX on others: Linux takes CX/DX when they are non-zero, and so do we.
 *
 * E801h and AH=88h go in with CF clear and are judged by what the registers show
 * (int15_ask(), int15_answered(): lib/biosregs.h says why). */
#include "probes.h"
#include "../../lib/pc.h"
#include "../../lib/string.h"
#include "../../lib/e820.h"

#define E820_CALLS_MAX  (PROBE_E820_MAX + 8)

struct e820_keep {
    const struct bios_access *b;
    struct mem_probe *m;
};

static int e820_call(void *ctx, struct biosregs *r)
{
    const char *why;
    return ((struct e820_keep *)ctx)->b->call(BIOS_INT_SYSTEM, r, r, &why);
}

static int e820_keep(void *ctx, const struct e820_entry *e)
{
    struct mem_probe *m = ((struct e820_keep *)ctx)->m;
    if (m->e820_count == PROBE_E820_MAX)
        return 0;
    m->e820[m->e820_count++] = *e;
    return 1;
}

static void probe_e820(struct mem_probe *m, const struct bios_access *b)
{
    struct e820_keep keep = { b, m };
    struct e820_walk w = { .call = e820_call, .each = e820_keep, .ctx = &keep,
                           .calls_max = E820_CALLS_MAX };
    uint16_t off;

    w.buffer = b->buffer(&w.es, &off);
    w.di = off;
    enum e820_end end = e820_walk(&w);
    m->have_e820 = end != E820_NONE;
    m->e820_truncated = end == E820_FULL || end == E820_ENDLESS;
}

/* INT 15h AX=ax, asked and judged as lib/biosregs.h says. */
static bool ask(const struct bios_access *b, uint16_t ax, struct biosregs *r)
{
    const char *why;
    int15_ask(r, ax);
    return b->call(BIOS_INT_SYSTEM, r, r, &why) && int15_answered(r, ax);
}

void probe_memory(struct mem_probe *m, const struct bios_access *b)
{
    struct biosregs r;
    const char *why;

    memset(m, 0, sizeof(*m));
    initregs(&r);
    if (b->call(BIOS_INT_MEMORY, &r, &r, &why)) {
        m->have_int12 = true;
        m->int12_kb = r.ax;
    }
    probe_e820(m, b);

    if (ask(b, 0xE801, &r)) {
        bool cxdx = r.cx || r.dx;
        m->have_e801 = true;
        m->e801_1m_16m_kb = cxdx ? r.cx : r.ax;
        m->e801_above_16m_64k = cxdx ? r.dx : r.bx;
    }

    if (ask(b, 0x8800, &r)) {
        m->have_88 = true;
        m->ext_kb = r.ax;
    }
}
