/* A QR Code reader for the tests of survey/qr.c, written apart from the encoder so
 * that the two check each other: its tables are the specification's own (Annex E
 * alignment centres, Table 9 block groups) where the encoder computes or compacts
 * them, its Galois field uses log/antilog tables where the encoder multiplies bit by
 * bit, and it checks every function pattern, both copies of the format and version
 * information, the Reed-Solomon syndromes of every block, the remainder bits and the
 * padding. Byte mode, levels L and M, versions 1-40 only: what the encoder writes. */
#ifndef APMOFF_TESTS_QR_READ_H
#define APMOFF_TESTS_QR_READ_H

#include <stddef.h>
#include <stdint.h>

struct qr_read_info {
    int version;
    int level;              /* 0 for L, 1 for M (the order of enum qr_ecc) */
    int mask;
    const char *error;      /* what was wrong, when qr_read() returns -1 */
};

/* Decodes a symbol stored as survey/qr.h's bitmap. Returns the number of data bytes
 * written to out (at most out_max), or -1 with info->error set. */
int qr_read(const uint8_t *modules, int size, uint8_t *out, size_t out_max,
            struct qr_read_info *info);

#endif
