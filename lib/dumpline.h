/* One line of action=dump's wire format: where the bytes lie,
 * the bytes in hex, and a CRC-32 of both, so a line lost or damaged on the serial line
 * is found and named by the reader (apmoff-collect dump), not silently taken:
 *
 *     000F0000 55aa40e9...(up to 32 bytes) 1a2b3c4d
 *
 * The CRC-32 (lib/crc32.h) covers the address's four bytes, little-endian, then the
 * line's bytes: a line moved to another address fails its check too. Pure: formats
 * into the caller's buffer; runs on the host in the unit tests. */
#ifndef APMOFF_LIB_DUMPLINE_H
#define APMOFF_LIB_DUMPLINE_H

#include <stddef.h>
#include <stdint.h>

#define DUMPLINE_BYTES  32                          /* bytes a line at most */
#define DUMPLINE_MAX    (8 + 1 + 2 * DUMPLINE_BYTES + 1 + 8 + 1)

/* The check of a line: CRC-32 of the address (little-endian) and the bytes. */
uint32_t dumpline_check(uint32_t addr, const uint8_t *bytes, unsigned n);

/* Writes the line for n (1..DUMPLINE_BYTES) bytes at addr into out (DUMPLINE_MAX
 * bytes at least), NUL-terminated; returns its length, or 0 for a bad n. */
unsigned dumpline_format(char *out, uint32_t addr, const uint8_t *bytes, unsigned n);

#endif
