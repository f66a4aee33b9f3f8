/* GDT descriptor encoding: see segdesc.h. */
#include "segdesc.h"

struct seg_desc seg_desc_make(uint32_t base, uint32_t limit, enum seg_kind kind)
{
    static const uint8_t access[] = {
        [SEG_CODE32] = SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_CODE_RX,
        [SEG_DATA32] = SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_DATA_RW,
        [SEG_CODE16] = SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_CODE_RX,
        [SEG_DATA16] = SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_DATA_RW,
        [SEG_TSS32]  = SEG_ACCESS_PRESENT | SEG_ACCESS_TSS32,
    };
    uint8_t flags = (kind == SEG_CODE32 || kind == SEG_DATA32) ? SEG_FLAG_32BIT : 0;
    struct seg_desc d;

    if (limit > 0xFFFFF) {      /* only byte-granular limits fit in 20 bits */
        limit >>= 12;
        flags |= SEG_FLAG_GRAN_4K;
    }
    d.limit_lo = limit & 0xFFFF;
    d.limit_hi_flags = (uint8_t)(((limit >> 16) & 0x0F) | flags);
    d.base_lo = base & 0xFFFF;
    d.base_mid = (base >> 16) & 0xFF;
    d.base_hi = (uint8_t)(base >> 24);
    d.access = access[kind];
    return d;
}

uint32_t seg_desc_base(const struct seg_desc *d)
{
    return d->base_lo | (uint32_t)d->base_mid << 16 | (uint32_t)d->base_hi << 24;
}

uint32_t seg_desc_limit(const struct seg_desc *d)
{
    uint32_t limit = d->limit_lo | (uint32_t)(d->limit_hi_flags & 0x0F) << 16;
    return (d->limit_hi_flags & SEG_FLAG_GRAN_4K) ? limit << 12 | 0xFFF : limit;
}

bool seg_desc_is_32bit(const struct seg_desc *d)
{
    return d->limit_hi_flags & SEG_FLAG_32BIT;
}
