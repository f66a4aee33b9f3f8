/* The option ROMs between C0000h and EFFFFh (#52's action=dump; work in progress):
 * each begins 55h AAh on a 2 KiB boundary, its length in 512-byte units in the third
 * byte, and its bytes sum to 0 when it is whole (a video BIOS that shadows itself may
 * have patched its own bytes: the verdict says so rather than refuse it). Pure: reads
 * through a physmem window; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_OPTIONROM_H
#define APMOFF_SURVEY_OPTIONROM_H

#include <stdbool.h>
#include <stdint.h>

#include "physmem.h"

#define OPTIONROM_START     0xC0000u
#define OPTIONROM_END       0xF0000u
#define OPTIONROM_STEP      0x800u          /* ROMs begin on 2 KiB boundaries */
#define OPTIONROM_MAX       24              /* 192 KiB of 2 KiB steps, 8 KiB each at least */

struct option_rom {
    uint32_t addr;
    uint32_t length;            /* bytes: the header's count x 512, cut at EFFFFh */
    bool sum_ok;                /* its bytes sum to 0 */
    bool cut;                   /* its header's length ran past EFFFFh */
};

/* Finds up to OPTIONROM_MAX ROMs; returns how many. A ROM's bytes are skipped whole, so
 * a 55h AAh inside one is not taken for another. */
unsigned optionrom_scan(const struct physmem *pm, struct option_rom *out, unsigned max);

#endif
