/* Base45: see base45.h. RFC 9285 section 4: a pair [a, b] is n = a * 256 + b,
 * written as c d e with n = c + d * 45 + e * 45 * 45, least significant first. */
#include "base45.h"
#include "qr.h"

static const char alphabet[] = QR_ALNUM_SET;

size_t base45_encode(const uint8_t *in, size_t len, char *out, size_t size)
{
    size_t n = BASE45_LEN(len);
    if (size <= n)
        return 0;
    char *o = out;
    size_t i = 0;
    for (; i + 1 < len; i += 2) {
        unsigned v = (unsigned)in[i] << 8 | in[i + 1];
        *o++ = alphabet[v % 45];
        *o++ = alphabet[v / 45 % 45];
        *o++ = alphabet[v / 2025];
    }
    if (i < len) {
        *o++ = alphabet[in[i] % 45];
        *o++ = alphabet[in[i] / 45];
    }
    *o = '\0';
    return n;
}
