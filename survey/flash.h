/* The BIOS's flash (or EPROM) where the chipset decodes it below 4 GiB, for
 * action=dump. Every PC chipset maps the boot ROM so that its last byte is FFFFFFFFh:
 * the CPU's first fetch after reset is at FFFFFFF0h. How big the part is, nothing
 * standard says, so it is found from what the bus returns below it: probing down from
 * 4 GiB in powers of two, the part ends at size s where the 64 KiB below FFFFFFFFh - s
 * either read as one repeated byte (nothing decoded there: FFh on a real bus, 00h in
 * QEMU) or repeat the part's own last 64 KiB (a chipset that decodes more than the
 * part has address lines for sees the part again). A part whose lowest 64 KiB is
 * blank padding is found smaller than it is; only blank bytes are lost that way.
 *
 * Only where the whole 32-bit address space is decoded: a 386SX or an ISA board may
 * wrap at 16 MiB, where RAM can answer; the caller asks only on a machine with PCI.
 * Pure: reads through a physmem window; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_FLASH_H
#define APMOFF_SURVEY_FLASH_H

#include <stdint.h>

#include "physmem.h"

#define FLASH_PROBE         0x10000u        /* the window compared at each step */
#define FLASH_MAX           0x1000000u      /* 16 MiB: the largest decode of a BIOS */

enum flash_end {
    FLASH_UNKNOWN,          /* no end seen up to FLASH_MAX (or no window to read) */
    FLASH_BLANK,            /* below it the bus reads one repeated byte */
    FLASH_ALIAS,            /* below it the part repeats */
};

struct flash_probe {
    uint32_t size;          /* bytes, a power of two; 0 when FLASH_UNKNOWN */
    uint32_t base;          /* 4 GiB - size */
    enum flash_end end;
    uint8_t blank;          /* the repeated byte, for FLASH_BLANK */
};

/* Probes down from 4 GiB; returns how the part's end was found. */
enum flash_end flash_probe(const struct physmem *pm, struct flash_probe *out);

/* What the end means, for the dump's description: "below it the bus reads FFh". */
const char *flash_end_text(const struct flash_probe *f, char *buf, unsigned size);

/* A window of FLASH_PROBE bytes: the byte it repeats, or -1 when it holds others. */
int flash_window_blank(const uint8_t *p);
/* How many bytes of two windows of FLASH_PROBE bytes differ. */
unsigned flash_window_differing(const uint8_t *a, const uint8_t *b);

#endif
