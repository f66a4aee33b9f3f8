/* CRC-32: see crc32.h. Four bytes a step through four tables (slicing-by-4, 4 KiB,
 * built on first use): the BIOS identity hashes 128 KiB of ROM, which a 386 did in
 * 1.5 s bit by bit and 0.3 s a byte a step. */
#include "crc32.h"
#include "le.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

static uint32_t table[4][256];

static void build_tables(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int bit = 0; bit < 8; bit++)
            c = c >> 1 ^ (CRC32_POLY_REFLECTED & -(c & 1));
        table[0][i] = c;
    }
    /* table[k][i]: byte i followed by k zero bytes */
    for (int k = 1; k < 4; k++)
        for (uint32_t i = 0; i < 256; i++)
            table[k][i] = table[k - 1][i] >> 8 ^ table[0][table[k - 1][i] & 0xFF];
}

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    if (!table[0][1])
        build_tables();
    crc = ~crc;
    for (; len >= 4; data += 4, len -= 4) {
        crc ^= le32(data);
        crc = table[3][crc & 0xFF] ^ table[2][crc >> 8 & 0xFF] ^ table[1][crc >> 16 & 0xFF] ^
              table[0][crc >> 24];
    }
    while (len--)
        crc = crc >> 8 ^ table[0][(crc ^ *data++) & 0xFF];
    return ~crc;
}
