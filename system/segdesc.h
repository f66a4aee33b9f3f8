/* One GDT descriptor, encoded and decoded: pure arithmetic with no I/O, so the host
 * unit tests (tests/unit/test_segdesc.c) check the very bytes the CPU and the APM
 * BIOS will see. system/descriptors.c owns the table; this file only fills entries. */
#ifndef APMOFF_SEGDESC_H
#define APMOFF_SEGDESC_H

#include <stdbool.h>
#include <stdint.h>

enum seg_kind {
    SEG_CODE32,
    SEG_DATA32,
    SEG_CODE16,
    SEG_DATA16,
    SEG_TSS32,
};

struct seg_desc {
    uint16_t limit_lo;
    uint16_t base_lo;
    uint8_t base_mid;
    uint8_t access;
    uint8_t limit_hi_flags;     /* limit 19:16 in the low nibble, G/D/L/AVL above */
    uint8_t base_hi;
} __attribute__((packed));

_Static_assert(sizeof(struct seg_desc) == 8, "a GDT descriptor is 8 bytes");

#define SEG_ACCESS_PRESENT  0x80
#define SEG_ACCESS_SEGMENT  0x10    /* code/data rather than system */
#define SEG_ACCESS_CODE_RX  0x0A    /* execute/read */
#define SEG_ACCESS_DATA_RW  0x02    /* read/write */
#define SEG_ACCESS_TSS32    0x09    /* available 32-bit TSS */
#define SEG_FLAG_GRAN_4K    0x80
#define SEG_FLAG_32BIT      0x40    /* D/B: 32-bit code or a 32-bit stack */

/* limit is the last valid offset; above 0xFFFFF it is stored in 4 KiB units. */
struct seg_desc seg_desc_make(uint32_t base, uint32_t limit, enum seg_kind kind);
uint32_t seg_desc_base(const struct seg_desc *d);
uint32_t seg_desc_limit(const struct seg_desc *d);     /* in bytes, granularity applied */
bool seg_desc_is_32bit(const struct seg_desc *d);

#endif
