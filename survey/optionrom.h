/* The option ROMs between C0000h and EFFFFh (action=dump): each begins 55h AAh on a
 * 2 KiB boundary, its length in 512-byte units in the third byte, and its bytes sum
 * to 0 when it is whole. Below E0000h a bad sum is reported, not refused: a video
 * BIOS that shadows itself may have patched its own bytes. From E0000h on only a
 * ROM whose sum holds is taken: there the system BIOS of 128 KiB and more keeps its
 * own code, in which 55h AAh on a 2 KiB boundary happens (SeaBIOS's at E8000h), and
 * a BIOS's own scan of that segment skips a bad sum too. Pure: reads through a
 * physmem window; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_OPTIONROM_H
#define APMOFF_SURVEY_OPTIONROM_H

#include <stdbool.h>
#include <stdint.h>

#include "physmem.h"

#define OPTIONROM_START     0xC0000u
#define OPTIONROM_END       0xF0000u
#define OPTIONROM_STEP      0x800u          /* ROMs begin on 2 KiB boundaries */
#define OPTIONROM_STRICT    0xE0000u        /* from here a bad sum is no ROM */
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
