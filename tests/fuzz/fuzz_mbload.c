/* libFuzzer target: loader/mbload.c's mbload_plan() on hostile kernel files. The
 * input is the file, in a heap block of exactly its size, so a read past it is an
 * AddressSanitizer report; the kernel may have [1 MiB, 64 MiB).
 *
 * A plan must be one the loader can carry out blindly: each piece inside that memory
 * and inside the file, no two overlapping, the entry in bytes copied from the file,
 * the header where it says, low and high the pieces' bounds. And the bound is exact:
 * the same file plans the same within [low, high) and is refused with one byte less. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/mbload.h"
#include "../../lib/le.h"

#define MIN     0x100000u
#define MAX     0x4000000u

static void check(const uint8_t *file, size_t size, const struct mbload_plan *p,
                  uint32_t min, uint32_t max)
{
    uint32_t at = p->header_offset;
    if (at % 4 || at + 12 > size || at + 12 > MB1_SEARCH ||
        le32(file + at) != MB1_HEADER_MAGIC || le32(file + at + 4) != p->flags ||
        le32(file + at) + le32(file + at + 4) + le32(file + at + 8) != 0)
        abort();
    if (!p->count || p->count > MBLOAD_PIECES_MAX)
        abort();
    uint64_t low = UINT64_MAX, high = 0;
    int entry_inside = 0;
    for (unsigned i = 0; i < p->count; i++) {
        const struct mbload_piece *q = &p->piece[i];
        if (q->file_bytes > q->mem_bytes || !q->mem_bytes || q->dest < min ||
            (uint64_t)q->dest + q->mem_bytes > max ||
            (uint64_t)q->offset + q->file_bytes > size)
            abort();
        for (unsigned k = 0; k < i; k++)
            if (q->dest < p->piece[k].dest + (uint64_t)p->piece[k].mem_bytes &&
                p->piece[k].dest < q->dest + (uint64_t)q->mem_bytes)
                abort();
        if (p->entry >= q->dest && p->entry - q->dest < q->file_bytes)
            entry_inside = 1;
        if (q->dest < low)
            low = q->dest;
        if (q->dest + (uint64_t)q->mem_bytes > high)
            high = q->dest + (uint64_t)q->mem_bytes;
    }
    if (!entry_inside || p->low != low || p->high != high)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *file = malloc(size ? size : 1);
    struct mbload_plan p, q;
    const char *why = 0;

    memcpy(file, data, size);
    int r = mbload_plan(file, (uint32_t)size, MIN, MAX, &p, &why);
    if (r == -1) {
        if (!why || !*why)
            abort();
    } else if (r) {
        abort();
    } else {
        check(file, size, &p, MIN, MAX);
        if (mbload_plan(file, (uint32_t)size, p.low, p.high, &q, &why) ||
            memcmp(&p, &q, sizeof(p)))
            abort();
        if (!mbload_plan(file, (uint32_t)size, p.low, p.high - 1, &q, &why) ||
            !mbload_plan(file, (uint32_t)size, p.low + 1, p.high, &q, &why))
            abort();
    }
    free(file);
    return 0;
}
