/* The multiboot 1 information the loader hands the kernel, built in one place: the
 * memory sizes, the memory map, the boot drive, the command line and the loader's
 * name (lib/multiboot.h has the layout). When the BIOS has no E820h map the map is
 * made from the sizes (INT 12h, and E801h or 88h above 1 MiB), as GRUB does, so a
 * kernel that reads only the map still sees the memory.
 *
 * Pure: it writes into a buffer whose first byte is at physical address base, so the
 * host tests can hand the result to the kernel's own reader (system/bootinfo.c). */
#ifndef APMOFF_LOADER_MBINFO_H
#define APMOFF_LOADER_MBINFO_H

#include <stdint.h>

#include "../lib/multiboot.h"

#define MBINFO_MAP_MAX      32
#define E820_AVAILABLE      1
#define E820_RESERVED       2

struct mbinfo_range {
    uint64_t base, length;
    uint32_t type;
};

struct mbinfo_in {
    uint32_t lower_kb;          /* INT 12h: conventional memory */
    uint32_t upper_kb;          /* contiguous memory from 1 MiB (E801h or 88h) */
    unsigned map_count;         /* E820h ranges, as the BIOS gave them; 0: none */
    const struct mbinfo_range *map;
    uint8_t drive;              /* the BIOS drive booted (00h: A:) */
    const char *cmdline;        /* the kernel's path, a space, the words */
    const char *loader;         /* "apmoff loader 0.3" */
};

/* Writes the information block into buf (its physical address: base). Returns the
 * bytes used, or 0 when size is too small. */
uint32_t mbinfo_build(const struct mbinfo_in *in, uint8_t *buf, uint32_t size, uint32_t base);

/* upper_kb from the E820h map: the available memory contiguous from 1 MiB. */
uint32_t mbinfo_upper_from_map(const struct mbinfo_range *map, unsigned count);

#endif
