/* The VBE controller information block (INT 10h AX=4F00h), read defensively.
 *
 * The BIOS fills 512 bytes (we ask for "VBE2" so a 2.0+ BIOS adds its vendor,
 * product and revision strings); every string is a real-mode far pointer, into
 * the video ROM or into the block itself, and goes through the physmem window.
 * Compiled for the kernel and the host; fuzzed (tests/fuzz/fuzz_vbe.c). */
#ifndef APMOFF_SURVEY_VBE_H
#define APMOFF_SURVEY_VBE_H

#include <stdbool.h>
#include <stdint.h>

#include "physmem.h"

#define VBE_INFO_SIZE           512
#define VBE_STR_MAX             31      /* what the survey keeps of each string */

struct vbe_info {
    bool valid;                 /* "VESA" signature and a version we can read */
    uint16_t version;           /* BCD, 0200h is 2.0 */
    uint16_t memory_64k;        /* total memory in 64 KiB blocks */
    uint32_t capabilities;
    uint16_t oem_revision;      /* 2.0+ */
    char oem[VBE_STR_MAX + 1];
    char vendor[VBE_STR_MAX + 1];   /* 2.0+ */
    char product[VBE_STR_MAX + 1];  /* 2.0+ */
    char product_rev[VBE_STR_MAX + 1]; /* 2.0+ */
};

/* Parses the block the BIOS wrote at physical address block (its far pointers may
 * point back into it). False, with info->valid clear, when it is not a VBE block. */
bool vbe_parse(struct vbe_info *info, const struct physmem *pm, uint32_t block);

#endif
