/* Little-endian fields of firmware structures, private to survey/ (other units
 * have their own rd32 and must not see these names). Byte loads, so alignment
 * never matters. */
#ifndef APMOFF_SURVEY_LE_H
#define APMOFF_SURVEY_LE_H

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

#endif
