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
#include "../lib/pc.h"
#include "../lib/string.h"

#define E820_SMAP       0x534D4150u     /* "SMAP" */
#define E820_ENTRY_SIZE 20u             /* base, length, type; ACPI 3.0 adds 4 */
#define E820_MAX_CALLS  (PROBE_E820_MAX + 8)

static uint32_t rd32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void probe_e820(struct mem_probe *m, const struct bios_access *b)
{
    uint16_t seg, off;
    uint8_t *buf = b->buffer(&seg, &off);
    uint32_t next = 0;
    const char *why;

    for (unsigned calls = 0; calls < E820_MAX_CALLS; calls++) {
        struct biosregs r;
        initregs(&r);
        r.eax = 0xE820;
        r.edx = E820_SMAP;
        r.ecx = 24;
        r.ebx = next;
        r.es = seg;
        r.edi = off;
        memset(buf, 0, 24);
        if (!b->call(BIOS_INT_SYSTEM, &r, &r, &why) || (r.eflags & X86_EFLAGS_CF) ||
            r.eax != E820_SMAP || r.cx < E820_ENTRY_SIZE)
            return;                     /* the end (CF), or no E820 at all */
        m->have_e820 = true;
        if (m->e820_count == PROBE_E820_MAX) {
            m->e820_truncated = true;
            return;
        }
        struct e820_entry *e = &m->e820[m->e820_count++];
        e->base = rd32(buf) | (uint64_t)rd32(buf + 4) << 32;
        e->length = rd32(buf + 8) | (uint64_t)rd32(buf + 12) << 32;
        e->type = rd32(buf + 16);
        next = r.ebx;
        if (!next)
            return;
    }
    m->e820_truncated = true;           /* a continuation that never ends */
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
