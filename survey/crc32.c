/* CRC-32: see crc32.h. */
#include "crc32.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    crc = ~crc;
    while (len--) {
        crc ^= *data++;
        for (int bit = 0; bit < 8; bit++)
            crc = crc >> 1 ^ (CRC32_POLY_REFLECTED & -(crc & 1));
    }
    return ~crc;
}
