/* Little-endian fields of firmware structures, files and the kernel's own records:
 * byte loads and stores, so neither alignment nor the host's byte order matters (the
 * unit tests run these on the host). The one copy every layer uses. */
#ifndef APMOFF_LIB_LE_H
#define APMOFF_LIB_LE_H

#include <stdint.h>

static inline uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
    return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* An n-byte field (an AML field unit's width); bytes past the eighth are not read. */
static inline uint64_t le_n(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = n < 8 ? n : 8; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static inline void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
    put_le16(p, (uint16_t)v);
    put_le16(p + 2, (uint16_t)(v >> 16));
}

/* n bytes of v, the low first; bytes past the eighth are not written. */
static inline void put_le_n(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n && i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

#endif
