/* action=dump's line: see dumpline.h. */
#include "dumpline.h"
#include "crc32.h"
#include "le.h"

static const char hex[] = "0123456789abcdef";

uint32_t dumpline_check(uint32_t addr, const uint8_t *bytes, unsigned n)
{
    uint8_t le[4];
    put_le32(le, addr);
    return crc32(crc32(0, le, 4), bytes, n);
}

static char *put_hex32(char *p, uint32_t v)
{
    for (int shift = 28; shift >= 0; shift -= 4)
        *p++ = hex[(v >> shift) & 15];
    return p;
}

unsigned dumpline_format(char *out, uint32_t addr, const uint8_t *bytes, unsigned n)
{
    if (n == 0 || n > DUMPLINE_BYTES) {
        out[0] = 0;
        return 0;
    }
    char *p = put_hex32(out, addr);
    *p++ = ' ';
    for (unsigned i = 0; i < n; i++) {
        *p++ = hex[bytes[i] >> 4];
        *p++ = hex[bytes[i] & 15];
    }
    *p++ = ' ';
    p = put_hex32(p, dumpline_check(addr, bytes, n));
    *p = 0;
    return (unsigned)(p - out);
}
