/* Installing and calling the real-mode trampoline: see trampoline.h.
 *
 * Placement: the highest free stretch of conventional memory below everything the
 * BIOS may have taken, and above the IVT and BDA. Real BIOSes take memory at POST
 * (an option ROM's work area, a moved EBDA) and lower INT 12h and 40:13h for it,
 * while E820's first entry may still say 0-9FC00h is usable (Linux's ebda.c trusts
 * neither alone; OpenBSD's apmfixmem() keeps the APM data segment out of use). So the
 * ceiling is the lowest of the map, INT 12h as the loader saw it, 40:13h, the EBDA
 * segment at 40:0Eh (when it looks like one) and 9F000h, and no part of the region
 * may touch an entry the map does not call available. The boot loader's own
 * structures may be below, which is why system/bootinfo.c copied them out first.
 *
 * One more owner shows itself only later: the APM data segment, named by the 5302h
 * or 5303h connect. A BIOS may keep it in conventional memory it never took from
 * INT 12h, which is where we are (OpenBSD's apmfixmem() exists for such machines);
 * tramp_keep_out() then moves the trampoline before any protected-mode call runs. */
#include "trampoline.h"
#include "../system/segcheck.h"
#include "../system/bootinfo.h"
#include "../system/console.h"
#include "../system/descriptors.h"
#include "../system/io.h"
#include "../lib/bda.h"
#include "../lib/pc.h"
#include "../lib/string.h"

#define TRAMP_REGION    0x3000u /* code, scratch, the BIOS buffer, then the stack, then
                                   the register block */
#define BUFFER_OFF      0x1000u /* TRAMP_BUFFER_SIZE bytes the BIOS may fill */
#define LOWMEM_FLOOR    0x1000u /* keep off the IVT, BDA and the boot sector area */
#define LOWMEM_CEILING  0x9F000u /* EBDA and video memory above, whatever the map says */
#define NO_MAP_BASE     0x80000u /* without a map: 512 KiB, which every PC has */

extern const uint8_t trampoline_blob[], trampoline_blob_end[];
extern void tramp_enter(void);
extern char tramp_return[];

static struct tramp_header *header;
static uint32_t base;
static uint32_t scratch_off;
static const struct bootinfo *boot;

/* Memory the BIOS named as its own after we were placed (tramp_keep_out). */
#define KEEP_OUT_MAX 8
static struct {
    uint32_t lo, end;
} keep_out[KEEP_OUT_MAX];
static unsigned keep_out_count;

struct ceiling {
    uint32_t top;
    const char *why;
};

static void lower(struct ceiling *c, uint32_t top, const char *why)
{
    if (top < c->top) {
        c->top = top;
        c->why = why;
    }
}

/* The lowest address anything says the BIOS owns. */
static struct ceiling memory_ceiling(const struct bootinfo *bi)
{
    struct ceiling c = { LOWMEM_CEILING, "9F000h, below any EBDA" };
    uint32_t bda_kb = peek32(BDA_MEMORY_KB) & 0xFFFF;
    uint32_t ebda = ebda_from_bda((uint16_t)peek32(BDA_EBDA_SEGMENT));

    if (bi->have_mem)
        lower(&c, bi->mem_lower_kb * 1024, "INT 12h as the boot loader saw it");
    if (bda_kb >= 64 && bda_kb * 1024 <= VIDEO_MEMORY)
        lower(&c, bda_kb * 1024, "40:13h, the conventional memory INT 12h reports");
    if (ebda)
        lower(&c, ebda, "the EBDA at 40:0Eh");
    return c;
}

static bool meets(uint64_t start, uint64_t end, uint32_t lo)
{
    return start < lo + TRAMP_REGION && end > lo;
}

/* Whether [lo, lo + TRAMP_REGION) touches something not ours: an entry the map does
 * not call available (overlapping entries are common, and the reserved one wins) or
 * a keep-out range. *start is where the first such thing begins. */
static bool taken(const struct bootinfo *bi, uint32_t lo, uint32_t *start)
{
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        if (e->type != MMAP_AVAILABLE && meets(e->base, e->base + e->length, lo)) {
            *start = (uint32_t)e->base;
            return true;
        }
    }
    for (unsigned i = 0; i < keep_out_count; i++) {
        if (meets(keep_out[i].lo, keep_out[i].end, lo)) {
            *start = keep_out[i].lo;
            return true;
        }
    }
    return false;
}

/* The highest page-aligned region in [lo, top) that touches nothing taken, or 0. */
static uint32_t highest_free(const struct bootinfo *bi, uint32_t lo, uint32_t top)
{
    while (top >= lo + TRAMP_REGION) {
        uint32_t candidate = (top - TRAMP_REGION) & ~0xFFFu;
        uint32_t start;
        if (candidate < lo)
            break;
        if (!taken(bi, candidate, &start))
            return candidate;
        top = start;
    }
    return 0;
}

static uint32_t pick_base(const struct bootinfo *bi, const struct ceiling *c)
{
    uint32_t best = 0;

    if (!bi->mmap_count) {
        uint32_t top = bi->have_mem ? c->top : NO_MAP_BASE + TRAMP_REGION;
        say("no memory map from the boot loader; trampoline below %05Xh", (unsigned)top);
        return highest_free(bi, LOWMEM_FLOOR, top);
    }
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        if (e->type != MMAP_AVAILABLE || e->base >= c->top)
            continue;
        uint64_t end = e->base + e->length;
        uint32_t top = end > c->top ? c->top : (uint32_t)end;
        uint32_t lo = e->base < LOWMEM_FLOOR ? LOWMEM_FLOOR : (uint32_t)e->base;
        uint32_t candidate = highest_free(bi, lo, top);
        if (candidate > best)
            best = candidate;
    }
    return best;
}

/* The trampoline's code now lives at `at`: its real-mode segment and descriptors. */
static void settle_at(uint32_t at)
{
    base = at;
    header = (struct tramp_header *)(uintptr_t)base;
    header->rm_segment = (uint16_t)(base >> 4);
    gdt_set(SEL_TRAMP_CODE16, base, 0xFFFF, SEG_CODE16);
    gdt_set(SEL_TRAMP_DATA16, base, 0xFFFF, SEG_DATA16);
}

bool tramp_install(const struct bootinfo *bi)
{
    uint32_t blob_size = (uint32_t)(trampoline_blob_end - trampoline_blob);

    struct ceiling ceiling = memory_ceiling(bi);

    boot = bi;
    uint32_t at = pick_base(bi, &ceiling);
    if (!at) {
        say("no free conventional memory for the real-mode trampoline");
        return false;
    }
    scratch_off = (blob_size + 15) & ~15u;
    _Static_assert(BUFFER_OFF + TRAMP_BUFFER_SIZE + 0x1000 <= TRAMP_REGION,
                   "the BIOS buffer leaves the stack 4 KiB");
    if (scratch_off + TRAMP_SCRATCH_SIZE > BUFFER_OFF) {
        say("the real-mode trampoline's code (%u bytes) overlaps its BIOS buffer",
            (unsigned)blob_size);
        return false;
    }
    memcpy((void *)(uintptr_t)at, trampoline_blob, blob_size);
    settle_at(at);

    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) gdtr;
    __asm__ volatile("sgdt %0" : "=m"(gdtr));

    header->kernel_return = (uint32_t)(uintptr_t)tramp_return;
    header->kernel_cs = SEL_CODE32;
    header->gdtr_limit = gdtr.limit;
    header->gdtr_base = gdtr.base;
    header->rm_idtr_limit = IVT_LIMIT;
    header->rm_idtr_base = 0;
    header->regs_off = (uint16_t)(TRAMP_REGION - sizeof(struct biosregs));
    header->regs_end = (uint16_t)TRAMP_REGION;
    say("real-mode trampoline at %05Xh (%u bytes of code, %u-byte region), below %05Xh: %s",
        (unsigned)base, (unsigned)blob_size, TRAMP_REGION, (unsigned)ceiling.top,
        ceiling.why);
    return true;
}

bool tramp_keep_out(uint32_t lo, uint32_t end, const char *owner)
{
    bool noted = keep_out_count < KEEP_OUT_MAX;

    if (!header)
        return true;
    if (noted) {                        /* a later move must avoid it too */
        keep_out[keep_out_count].lo = lo;
        keep_out[keep_out_count].end = end;
        keep_out_count++;
    }
    if (end <= base || lo >= base + TRAMP_REGION)
        return true;
    if (!noted) {
        say("real-mode trampoline at %05Xh lies in %s at %05Xh-%05Xh, and there is no "
            "room to note one more range", (unsigned)base, owner, (unsigned)lo,
            (unsigned)end - 1);
        return false;
    }

    struct ceiling ceiling = memory_ceiling(boot);
    uint32_t old = base;
    uint32_t moved = pick_base(boot, &ceiling);
    if (!moved) {
        say("real-mode trampoline at %05Xh lies in %s at %05Xh-%05Xh, and no other "
            "conventional memory is free", (unsigned)old, owner, (unsigned)lo,
            (unsigned)end - 1);
        return false;
    }
    /* The header, the code and the scratch stubs; the stack and the register block
     * are written afresh by every call. memmove: the two places may overlap. */
    memmove((void *)(uintptr_t)moved, (void *)(uintptr_t)old,
            scratch_off + TRAMP_SCRATCH_SIZE);
    settle_at(moved);
    say("real-mode trampoline moved from %05Xh to %05Xh: %s is at %05Xh-%05Xh",
        (unsigned)old, (unsigned)base, owner, (unsigned)lo, (unsigned)end - 1);
    return true;
}

bool tramp_installed(void)
{
    return header != 0;
}

uint32_t tramp_base(void)
{
    return base;
}

uint16_t tramp_scratch(void)
{
    return (uint16_t)scratch_off;
}

uint8_t *tramp_buffer(uint16_t *seg, uint16_t *off)
{
    *seg = (uint16_t)(base >> 4);
    *off = BUFFER_OFF;
    return (uint8_t *)(uintptr_t)(base + BUFFER_OFF);
}

uint16_t tramp_stack_top(void)
{
    return header->regs_off;
}

void tramp_call(enum tramp_mode mode, uint16_t target_seg, uint16_t target_off,
                struct biosregs *regs)
{
    struct biosregs *block = (struct biosregs *)(uintptr_t)(base + header->regs_off);

    header->mode = (uint16_t)mode;
    header->target_seg = target_seg;
    header->target_off = target_off;
    header->a20_status = 0;
    *block = *regs;
    tramp_enter();
    segs_verify("the trampoline");
    *regs = *block;
}

/* A20 off: 200h and 100200h are the same byte (IVT slot 80h, unused with
 * interrupts off, written and put back), as the trampoline's a20_wraps tests. */
#define A20_PROBE 0x200u
#define MEGABYTE 0x100000u

static bool a20_off(void)
{
    uint32_t saved = peek32(A20_PROBE);

    poke32(A20_PROBE, ~peek32(A20_PROBE + MEGABYTE));
    bool off = peek32(A20_PROBE) == peek32(A20_PROBE + MEGABYTE);
    poke32(A20_PROBE, saved);
    return off;
}

bool tramp_a20_restore(void)
{
    if (!header || !a20_off())
        return false;
    struct biosregs r;
    initregs(&r);
    uint32_t equipment = peek32(IVT_ENTRY_ADDR(BIOS_INT_EQUIPMENT));
    tramp_call(TRAMP_MODE_INT, (uint16_t)(equipment >> 16), (uint16_t)equipment, &r);
    return true;
}

bool tramp_a20_was_off(void)
{
    return header && (header->a20_status & TRAMP_A20_WAS_OFF);
}
