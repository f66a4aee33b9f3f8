/* What loading a multiboot 1 kernel means, worked out before anything is copied: the
 * header found and checked, then where each piece of the file goes (an ELF file's
 * PT_LOAD segments, or the header's own addresses when it sets the a.out kludge flag),
 * and where the kernel starts. The loader then only copies and clears.
 *
 * Multiboot Specification 0.6.96, 3.1: the header lies 4-byte aligned within the
 * file's first 8 KiB; the three words magic, flags, checksum add up to 0; flags bits
 * 0-15 are requirements a loader that does not meet them must refuse.
 *
 * Pure: the host tests run it on the kernel and on broken copies of it. */
#ifndef APMOFF_LOADER_MBLOAD_H
#define APMOFF_LOADER_MBLOAD_H

#include <stdint.h>

#include "../lib/multiboot.h"

#define MB1_SEARCH          8192
#define MB1_PAGE_ALIGN      0x00000001u     /* modules page-aligned: we load none */
#define MB1_MEMORY_INFO     0x00000002u     /* mem_* and mmap_*: we give both */
#define MB1_VIDEO_MODE      0x00000004u     /* a graphics mode set for it: we set none */
#define MB1_AOUT_KLUDGE     0x00010000u     /* load addresses in the header */
#define MB1_SUPPORTED       (MB1_PAGE_ALIGN | MB1_MEMORY_INFO)

#define MBLOAD_PIECES_MAX   8

struct mbload_piece {
    uint32_t dest;              /* physical address */
    uint32_t offset;            /* in the file */
    uint32_t file_bytes;        /* copied from the file */
    uint32_t mem_bytes;         /* file_bytes, then zeros up to this */
};

struct mbload_plan {
    uint32_t header_offset;     /* where the multiboot header lies in the file */
    uint32_t flags;
    int aout_kludge;
    uint32_t entry;
    unsigned count;
    struct mbload_piece piece[MBLOAD_PIECES_MAX];
    uint32_t low, high;         /* the lowest and the first address past the kernel */
};

/* Plans the load of file[0..size) into physical memory [min_addr, max_addr). 0, or -1
 * with *why saying why the file cannot be loaded. */
int mbload_plan(const uint8_t *file, uint32_t size, uint32_t min_addr, uint32_t max_addr,
                struct mbload_plan *p, const char **why);

#endif
