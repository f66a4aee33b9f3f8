/* CRC-32: see crc32.h. Table-driven, the table built on first use (1 KiB): the BIOS
 * identity hashes 128 KiB of ROM, a second and a half bit by bit on a 4-MIPS 386. */
#include "crc32.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

static uint32_t table[256];

static void build_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int bit = 0; bit < 8; bit++)
            c = c >> 1 ^ (CRC32_POLY_REFLECTED & -(c & 1));
        table[i] = c;
    }
}

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    if (!table[1])
        build_table();
    crc = ~crc;
    while (len--)
        crc = crc >> 8 ^ table[(crc ^ *data++) & 0xFF];
    return ~crc;
}
