/* A QR Code encoder (ISO/IEC 18004), for showing the survey's JSON line on a screen
 * that a phone can read.
 *
 * Byte mode, or alphanumeric mode for text in its 45 characters (0-9, A-Z, space and
 * $%*+-./:, 5.5 bits a character: what a Base45 payload is made of), error
 * correction level L or M, any version 1-40 (21 to 177
 * modules a side); the smallest version that holds the data is used and all eight
 * masks are scored with the specification's penalty rules. No allocation: the caller
 * gives two buffers of QR_BUFFER_LEN bytes (static in the kernel, about 4 KiB each);
 * the stack use is under 600 bytes. Compiled for the kernel and the host.
 *
 * Time: the mask search dominates. A version 40 symbol takes about 10 ms on a
 * current PC, which makes seconds on a 386; qr_encode_ex() with a fixed mask is
 * about four times faster where that matters. */
#ifndef APMOFF_SURVEY_QR_H
#define APMOFF_SURVEY_QR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QR_VERSION_MIN  1
#define QR_VERSION_MAX  40
#define QR_SIZE(version)        ((version) * 4 + 17)
#define QR_SIZE_MAX     QR_SIZE(QR_VERSION_MAX)

/* One bit a module: module (x, y) is bit (y * size + x) % 8 of byte (y * size + x) / 8,
 * 1 for dark. The largest symbol needs 3917 bytes. The work buffer holds the
 * codewords (3706 bytes at most), then a map of the function modules laid out like
 * the symbol: it needs as much. */
#define QR_BUFFER_LEN   ((QR_SIZE_MAX * QR_SIZE_MAX + 7) / 8)

#define QR_MASK_AUTO    (-1)

/* The levels the encoder offers: recovers about 7 % (L) or 15 % (M) of the codewords. */
enum qr_ecc {
    QR_ECC_LOW,
    QR_ECC_MEDIUM,
};

/* Encodes len bytes in byte mode with the smallest version that holds them and the
 * best mask. Returns the symbol's size in modules (21..177), or 0 when the data
 * does not fit version 40 (2331 bytes at M, 2953 at L) or ecc is not a level above. */
int qr_encode(const uint8_t *data, size_t len, enum qr_ecc ecc, uint8_t *modules,
              uint8_t *work);

/* The same with a smallest version to use (1..40) and a fixed mask (0..7) or
 * QR_MASK_AUTO; returns 0 also for a version or mask out of range. */
int qr_encode_ex(const uint8_t *data, size_t len, enum qr_ecc ecc, int min_version,
                 int mask, uint8_t *modules, uint8_t *work);

#define QR_ALNUM_SET "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"

/* Alphanumeric mode: text of QR_ALNUM_SET characters only (0 returned otherwise). */
int qr_encode_alnum(const char *text, size_t len, enum qr_ecc ecc, int min_version,
                    int mask, uint8_t *modules, uint8_t *work);
/* How many alphanumeric characters a symbol of this version holds at this level. */
int qr_capacity_alnum(int version, enum qr_ecc ecc);

/* Whether module (x, y) is dark; false outside the symbol (the quiet zone). */
bool qr_get_module(const uint8_t *modules, int size, int x, int y);

/* How many bytes a symbol of this version holds in byte mode at this level; 0 for a
 * version or level out of range. */
int qr_capacity(int version, enum qr_ecc ecc);

/* The mask penalty score of a finished symbol (N1 + N2 + N3 + N4, see qr.c); the
 * encoder keeps the mask with the lowest. */
unsigned qr_penalty(const uint8_t *modules, int size);

#endif
