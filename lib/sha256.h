/* SHA-256 (FIPS 180-4), for action=dump: each block a person archives carries the
 * digest the archive's own tools print (sha256sum), beside its CRC-32. Fed a piece at
 * a time, since a ROM is read in pieces the kernel's memory can hold. 32-bit
 * arithmetic only: it runs on a 386. Compiled for the kernel and the host. */
#ifndef APMOFF_LIB_SHA256_H
#define APMOFF_LIB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST 32

struct sha256 {
    uint32_t h[8];
    uint32_t bytes_hi, bytes_lo;        /* the message's length so far, in bytes */
    uint8_t block[64];
    unsigned used;                      /* bytes waiting in block[] */
};

void sha256_start(struct sha256 *s);
void sha256_feed(struct sha256 *s, const uint8_t *data, size_t len);
void sha256_finish(struct sha256 *s, uint8_t digest[SHA256_DIGEST]);

/* The digest as 64 lowercase hex digits and a NUL, as sha256sum prints it. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST], char out[2 * SHA256_DIGEST + 1]);

#endif
