/* Free RAM for a large working area: the AML interpreter's pool.
 *
 * The boot loader's memory map (bootinfo) says which RAM is available; from that the
 * kernel image and anything the caller names (the ACPI tables, which a 1990s BIOS may
 * leave in memory it calls available) are taken away, and the lowest block of at
 * least the size asked for, above 1 MiB and below 4 GiB, is given. Everything below
 * 1 MiB belongs to the BIOS and the real-mode trampoline. Pure: the host tests feed it
 * maps. */
#ifndef APMOFF_FREEMEM_H
#define APMOFF_FREEMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "bootinfo.h"

struct mem_range {
    uint64_t base, end;         /* [base, end) */
};

#define FREEMEM_AVOID_MAX 72

/* A block of size bytes (16-byte aligned) in available RAM outside avoid[]; false
 * when there is none, with *largest the largest block there is. */
bool freemem_find(const struct mmap_entry *map, unsigned n, const struct mem_range *avoid,
                  unsigned navoid, uint64_t size, struct mem_range *out, uint64_t *largest);

/* The kernel image, BSS and stack included (linker symbols kernel_start, kernel_end). */
struct mem_range freemem_kernel(void);

#endif
