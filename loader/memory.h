/* What the BIOS says of the machine's memory, asked the way GRUB and Linux ask it:
 * INT 12h for conventional memory; INT 15h E820h for the map (a BIOS of 1996 on);
 * E801h, then 88h, for the memory above 1 MiB; and the A20 gate opened (the kernel
 * lives at 2 MiB). */
#ifndef APMOFF_LOADER_MEMORY_H
#define APMOFF_LOADER_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "mbinfo.h"

struct memory {
    uint32_t lower_kb, upper_kb;
    unsigned map_count;
    struct mbinfo_range map[MBINFO_MAP_MAX];
    const char *upper_from;     /* "E820h", "E801h" or "88h" */
    bool map_dropped;           /* E820h gave a map without memory at 1 MiB */
    uint32_t ebda;              /* where conventional memory ends (the EBDA, if any) */
};

void memory_detect(struct memory *m);
/* Opens the A20 gate; the way that worked ("already open", "BIOS 2401h", "8042",
 * "port 92h"), or 0 when none did. */
const char *a20_enable(void);

#endif
