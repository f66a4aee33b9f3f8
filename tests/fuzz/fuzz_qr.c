/* libFuzzer target: survey/qr.c encodes anything, and what it makes reads back.
 *
 *   byte 0: bit 0 the level (L, M); bits 1-4 the mask (0-7, 8 and up: automatic)
 *   byte 1: the smallest version, 1 + byte % 40 (mostly 1: bytes above 159 mean 1)
 *   rest:   the data
 * Checked: the size is that of the smallest version at or above the asked one that
 * holds the data (0 when none does), and tests/unit/qr_read.c, which checks every
 * pattern, the format and version information, the Reed-Solomon syndromes and the
 * padding, gives back the same bytes, level and mask. The two buffers are heap blocks
 * of exactly QR_BUFFER_LEN bytes, so AddressSanitizer sees a write past them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/qr.h"
#include "../unit/qr_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t decoded[4096];
    struct qr_read_info info;

    if (size < 2)
        return 0;
    enum qr_ecc ecc = data[0] & 1 ? QR_ECC_MEDIUM : QR_ECC_LOW;
    int mask = (data[0] >> 1 & 15) < 8 ? data[0] >> 1 & 15 : QR_MASK_AUTO;
    int min_version = data[1] < 160 ? 1 + data[1] % 40 : 1;
    const uint8_t *payload = data + 2;
    size_t len = size - 2;

    uint8_t *modules = malloc(QR_BUFFER_LEN), *work = malloc(QR_BUFFER_LEN);
    int size_got = qr_encode_ex(payload, len, ecc, min_version, mask, modules, work);

    int want = 0;
    for (int v = min_version; v <= QR_VERSION_MAX; v++)
        if ((size_t)qr_capacity(v, ecc) >= len) {
            want = QR_SIZE(v);
            break;
        }
    if (size_got != want)
        abort();
    if (size_got) {
        int n = qr_read(modules, size_got, decoded, sizeof(decoded), &info);
        if (n < 0 || (size_t)n != len || memcmp(decoded, payload, len))
            abort();
        if (info.level != (ecc == QR_ECC_LOW ? 0 : 1))
            abort();
        if (mask != QR_MASK_AUTO && info.mask != mask)
            abort();
    }
    free(modules);
    free(work);
    return 0;
}
