/* The BIOS32 Service Directory ("Standard BIOS 32-bit Service Directory Proposal",
 * Phoenix, 1993): a 16-byte header on a paragraph boundary in E0000h-FFFFFh, "_32_",
 * the directory's 32-bit entry point, revision 0, its length in paragraphs (1) and a
 * checksum over those bytes. The PCI BIOS's protected-mode interface is found through
 * it; action=dump archives the header and names the entry. Pure: reads through a
 * physmem window; runs on the host in the unit tests. */
#ifndef APMOFF_SURVEY_BIOS32_H
#define APMOFF_SURVEY_BIOS32_H

#include <stdbool.h>
#include <stdint.h>

#include "physmem.h"

#define BIOS32_SIGNATURE    0x5F32335Fu     /* "_32_" */
#define BIOS32_START        0xE0000u
#define BIOS32_END          0x100000u
#define BIOS32_ALIGN        16u

struct bios32 {
    uint32_t addr;          /* the header's */
    uint32_t length;        /* bytes, its paragraphs x 16 */
    uint32_t entry;         /* the service directory's 32-bit entry point */
    uint8_t revision;
};

/* Finds the first header whose length is at least one paragraph and whose sum holds. */
bool bios32_find(const struct physmem *pm, struct bios32 *out);

#endif
