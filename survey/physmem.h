/* Reading firmware tables out of physical memory, defensively.
 *
 * The SMBIOS and ACPI finders read addresses that the firmware wrote, so every read
 * goes through a window: physical address a is visible at base + a, and only
 * addresses below limit may be read. The kernel passes base 0 and a 4 GiB limit
 * (flat segments, no paging); the host tests and fuzzers pass a buffer and its size,
 * so AddressSanitizer sees any read the checks let through.
 *
 * Also here: the byte checksum both specifications use and the copy of firmware text
 * into printable ASCII. Compiled for the kernel and the host. */
#ifndef APMOFF_SURVEY_PHYSMEM_H
#define APMOFF_SURVEY_PHYSMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PHYSMEM_4G      0x100000000ull

struct physmem {
    uintptr_t base;             /* where physical address 0 is visible (0 in the kernel) */
    uint64_t limit;             /* first address that may not be read (PHYSMEM_4G there) */
};

/* Whether [addr, addr + len) lies inside the window. */
static inline bool physmem_ok(const struct physmem *pm, uint64_t addr, uint64_t len)
{
    return addr <= pm->limit && len <= pm->limit - addr;
}

/* The bytes at addr; check physmem_ok() first (address 0 is a valid answer in the
 * kernel, so there is no NULL for "not there"). */
static inline const uint8_t *physmem_at(const struct physmem *pm, uint64_t addr)
{
    return (const uint8_t *)(pm->base + (uintptr_t)addr);
}

/* The 8-bit sum of n bytes: a valid SMBIOS or ACPI structure sums to 0. */
uint8_t fw_sum(const uint8_t *p, size_t n);

/* Copies at most max bytes of firmware text into dst (size bytes, always terminated):
 * it stops at a NUL, turns anything but printable ASCII into '?', and drops trailing
 * spaces (fixed-width fields are space-padded). Returns the length written. */
size_t fw_copy_text(char *dst, size_t size, const uint8_t *src, size_t max);

/* The same, but every byte but NUL is kept as it is (control characters and bytes
 * 80h-FFh included): for strings reported losslessly (the survey's JSON writes
 * them as \u00XX escapes). Only the trailing spaces go. */
size_t fw_copy_bytes(char *dst, size_t size, const uint8_t *src, size_t max);

#endif
