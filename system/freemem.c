/* Finding free RAM: see freemem.h. */
#include "freemem.h"

#define ONE_MIB         0x100000ull
#define FOUR_GIB        0x100000000ull
#define ALIGN           16ull

/* The lowest piece of [base, end) that no range of avoid[] touches, at or above
 * *from; false when none is left. */
static bool next_gap(uint64_t base, uint64_t end, const struct mem_range *avoid,
                     unsigned navoid, uint64_t *from, struct mem_range *gap)
{
    uint64_t lo = *from > base ? *from : base;

    for (;;) {
        lo = (lo + ALIGN - 1) & ~(ALIGN - 1);
        if (lo >= end)
            return false;
        bool moved = false;
        for (unsigned i = 0; i < navoid; i++)
            if (avoid[i].base <= lo && lo < avoid[i].end) {
                lo = avoid[i].end;
                moved = true;
            }
        if (!moved)
            break;
    }
    uint64_t hi = end;
    for (unsigned i = 0; i < navoid; i++)
        if (avoid[i].base > lo && avoid[i].base < hi)
            hi = avoid[i].base;
    *gap = (struct mem_range){ lo, hi };
    *from = hi;
    return true;
}

bool freemem_find(const struct mmap_entry *map, unsigned n, const struct mem_range *avoid,
                  unsigned navoid, uint64_t size, struct mem_range *out, uint64_t *largest)
{
    struct mem_range all[FREEMEM_AVOID_MAX + BOOTINFO_MMAP_MAX];
    unsigned nall = 0;
    bool found = false;

    /* Memory another entry calls reserved is reserved, even where an available
     * entry overlaps it (overlapping entries are common): avoid it too. */
    for (unsigned i = 0; i < navoid && i < FREEMEM_AVOID_MAX; i++)
        all[nall++] = avoid[i];
    for (unsigned i = 0; i < n && i < BOOTINFO_MMAP_MAX; i++)
        if (map[i].type != MMAP_AVAILABLE)
            all[nall++] = (struct mem_range){ map[i].base, map[i].base + map[i].length };
    *largest = 0;
    for (unsigned i = 0; i < n && i < BOOTINFO_MMAP_MAX; i++) {
        if (map[i].type != MMAP_AVAILABLE)
            continue;
        uint64_t base = map[i].base < ONE_MIB ? ONE_MIB : map[i].base;
        uint64_t end = map[i].base + map[i].length;
        if (end > FOUR_GIB)
            end = FOUR_GIB;
        if (end < map[i].base || base >= end)
            continue;
        uint64_t from = base;
        struct mem_range gap;
        while (next_gap(base, end, all, nall, &from, &gap)) {
            uint64_t have = gap.end - gap.base;
            if (have > *largest)
                *largest = have;
            if (!found && have >= size) {
                *out = (struct mem_range){ gap.base, gap.base + size };
                found = true;
            }
        }
    }
    return found;
}

extern char kernel_start[], kernel_end[];

struct mem_range freemem_kernel(void)
{
    return (struct mem_range){ (uintptr_t)kernel_start, (uintptr_t)kernel_end };
}
