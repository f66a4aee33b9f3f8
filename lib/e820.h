/* INT 15h E820h, the BIOS's memory map, walked once for everyone: the kernel's survey
 * and the floppy loader each reach the BIOS their own way and keep the entries their
 * own way, and walk the map through e820_walk().
 *
 * The walk is Linux's (arch/x86/boot/memory.c): entry by entry with the continuation
 * value in EBX, bounded (some BIOSes never return EBX to 0), and ended by CF as well as
 * by EBX = 0 (Phoenix ends the list with CF set). Pure: the caller makes the call. */
#ifndef APMOFF_LIB_E820_H
#define APMOFF_LIB_E820_H

#include <stdint.h>
#include "biosregs.h"

#define E820_SMAP           0x534D4150u /* "SMAP", in EDX and back in EAX */
#define E820_ENTRY_SIZE     20u         /* base, length, type */
#define E820_ASK_SIZE       24u         /* room for ACPI 3.0's extended attributes */

struct e820_entry {
    uint64_t base, length;
    uint32_t type;              /* 1 available, 2 reserved, 3 ACPI, 4 NVS, 5 bad */
};

struct e820_walk {
    /* INT 15h with r in and out; 0 when the call could not be made at all. */
    int (*call)(void *ctx, struct biosregs *r);
    /* One entry as the BIOS gave it; 0 ends the walk (no room for more). */
    int (*each)(void *ctx, const struct e820_entry *e);
    void *ctx;
    uint8_t *buffer;            /* where the BIOS writes each entry ... */
    uint16_t es;                /* ... as ES:DI shows it to the BIOS */
    uint32_t di;
    unsigned calls_max;
};

enum e820_end {
    E820_NONE,                  /* no entry: no E820h, or a call that failed */
    E820_DONE,                  /* the BIOS's end: EBX = 0, or CF after an entry */
    E820_FULL,                  /* each() had no room for more */
    E820_ENDLESS,               /* still going after calls_max entries */
};

enum e820_end e820_walk(const struct e820_walk *w);

#endif
