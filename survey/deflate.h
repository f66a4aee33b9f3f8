/* A small zlib stream writer (RFC 1950 around RFC 1951 DEFLATE) with a preset
 * dictionary, for putting the whole survey line into one QR code.
 *
 * One fixed-Huffman block, LZ77 over hash chains with zlib's lazy matching: no allocation, a work
 * area the caller owns, bounded time (each position looks at most DEFLATE_CHAIN
 * earlier ones). The preset dictionary holds what every survey line has (its keys
 * and common values), so most of a line is a few back-references into it; any
 * zlib inflater given the same dictionary (Python's zlib.decompressobj(zdict=...),
 * in tools/apmoff-collect) gives the line back byte for byte. Compiled for the
 * kernel and the host. */
#ifndef APMOFF_SURVEY_DEFLATE_H
#define APMOFF_SURVEY_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/* Dictionary + input, bytes: the frozen dictionary (survey/survey3.zdict, 15240 bytes)
 * and the longest survey line (SURVEY_JSON_MAX, 6144), no more: the work area is
 * three bytes a window byte of the kernel's BSS, and a 3 MiB machine booting the ISO
 * has GRUB's heap above the kernel's end (QEMU -m 3, case qemu-486-3m-iso). */
#define DEFLATE_WINDOW_MAX  21504
#define DEFLATE_HASH_BITS   12
#define DEFLATE_CHAIN       48

struct deflate_work {
    uint8_t text[DEFLATE_WINDOW_MAX];
    uint16_t head[1 << DEFLATE_HASH_BITS];  /* position + 1 of the last 3-byte hash */
    uint16_t prev[DEFLATE_WINDOW_MAX];      /* the position before with that hash, + 1 */
};

/* The zlib stream of in[0..len) whose preset dictionary is dict[0..dict_len): its
 * length in out, or 0 when dictionary and input exceed DEFLATE_WINDOW_MAX or the
 * stream would exceed out_size. */
size_t zlib_compress_dict(const uint8_t *dict, size_t dict_len, const uint8_t *in,
                          size_t len, uint8_t *out, size_t out_size,
                          struct deflate_work *w);

uint32_t zlib_adler32(const uint8_t *p, size_t n);

#endif
