/* Unpacking the kernel for the loader: the kernel travels LZ4-packed on the floppy
 * (iso/mkfloppy.sh: Debian's lz4 -12, frame format with the content's size and its
 * XXH32 checksum). LZ4 over deflate because of the CPUs it runs on: a 386DX-33 took
 * 5 s to inflate the kernel and takes a fraction of one to unpack LZ4, while the
 * 16 KiB more that LZ4 leaves on the disk read in under a second. The checksum and
 * the size prove that what was read is what was written.
 *
 * The LZ4 frame format 1.6.4 and block format (github.com/lz4/lz4, doc/), XXH32 as its
 * author specifies it. Pure and bounded: it never reads past in[in_len) or writes
 * past out[out_max), and every malformed input ends in an error naming what was
 * wrong; the host tests and a libFuzzer target run the same code. */
#ifndef APMOFF_LOADER_LZ4_H
#define APMOFF_LOADER_LZ4_H

#include <stdint.h>

/* True when the data starts as an LZ4 frame does. */
int lz4_magic(const uint8_t *in, uint32_t in_len);

/* Unpacks the one LZ4 frame in[0..in_len) into out; *out_len gets its length. 0, or -1
 * with *why saying what is wrong. */
int lz4_unpack(const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_max,
               uint32_t *out_len, const char **why);

/* XXH32 of data[0..len) with a seed. */
uint32_t xxh32(const uint8_t *data, uint32_t len, uint32_t seed);

#endif
