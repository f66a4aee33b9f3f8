/* LZ4 frames and blocks, XXH32: see lz4.h. */
#include "lz4.h"
#include "../lib/string.h"
#include "../lib/le.h"

#define LZ4_MAGIC           0x184D2204u
#define FLG_VERSION_MASK    0xC0
#define FLG_VERSION_01      0x40
#define FLG_BLOCK_CHECKSUM  0x10
#define FLG_CONTENT_SIZE    0x08
#define FLG_CONTENT_CHECKSUM 0x04
#define FLG_RESERVED        0x02
#define FLG_DICT_ID         0x01
#define BD_RESERVED         0x8F
#define BLOCK_UNCOMPRESSED  0x80000000u
#define MIN_MATCH           4

#define PRIME1              2654435761u
#define PRIME2              2246822519u
#define PRIME3              3266489917u
#define PRIME4              668265263u
#define PRIME5              374761393u

static uint32_t rotl(uint32_t x, unsigned r)
{
    return x << r | x >> (32 - r);
}

static uint32_t xxh_round(uint32_t acc, uint32_t input)
{
    return rotl(acc + input * PRIME2, 13) * PRIME1;
}

uint32_t xxh32(const uint8_t *p, uint32_t len, uint32_t seed)
{
    const uint8_t *end = p + len;
    uint32_t h;

    if (len >= 16) {
        uint32_t v1 = seed + PRIME1 + PRIME2, v2 = seed + PRIME2, v3 = seed,
                 v4 = seed - PRIME1;
        for (; end - p >= 16; p += 16) {
            v1 = xxh_round(v1, le32(p));
            v2 = xxh_round(v2, le32(p + 4));
            v3 = xxh_round(v3, le32(p + 8));
            v4 = xxh_round(v4, le32(p + 12));
        }
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    } else {
        h = seed + PRIME5;
    }
    h += len;
    for (; end - p >= 4; p += 4)
        h = rotl(h + le32(p) * PRIME3, 17) * PRIME4;
    for (; p < end; p++)
        h = rotl(h + *p * PRIME5, 11) * PRIME1;
    h ^= h >> 15;
    h *= PRIME2;
    h ^= h >> 13;
    h *= PRIME3;
    return h ^ h >> 16;
}

int lz4_magic(const uint8_t *in, uint32_t in_len)
{
    return in_len >= 4 && le32(in) == LZ4_MAGIC;
}

/* A length's 255-continued extra bytes; 0 when they run past end (or overflow). */
static int extend(const uint8_t **ip, const uint8_t *end, uint32_t *len)
{
    uint8_t b;
    do {
        if (*ip == end)
            return 0;
        b = *(*ip)++;
        *len += b;
        if (*len > 0x7FFFFFFFu)
            return 0;
    } while (b == 255);
    return 1;
}

/* One compressed block in[0..len) onto out at *pos (the output so far lies before it,
 * which matches may reach back into). */
static const char *block(const uint8_t *ip, uint32_t len, uint8_t *out, uint32_t *pos,
                         uint32_t out_max)
{
    const uint8_t *end = ip + len;
    uint32_t op = *pos;

    for (;;) {
        if (ip == end)
            return "a block ends without its last literals";
        uint8_t token = *ip++;
        uint32_t lit = token >> 4;
        if (lit == 15 && !extend(&ip, end, &lit))
            return "a literal length runs past its block";
        if (lit > (uint32_t)(end - ip))
            return "literals run past their block";
        if (lit > out_max - op)
            return "it unpacks to more than the room for it";
        memcpy(out + op, ip, lit);
        ip += lit;
        op += lit;
        if (ip == end)
            break;                          /* the last sequence: literals only */
        if (end - ip < 2)
            return "a match's offset runs past its block";
        uint32_t back = (uint32_t)ip[0] | (uint32_t)ip[1] << 8;
        ip += 2;
        if (!back || back > op)
            return "a match reaches back before the start of the data";
        uint32_t match = token & 15;
        if (match == 15 && !extend(&ip, end, &match))
            return "a match length runs past its block";
        match += MIN_MATCH;
        if (match > out_max - op)
            return "it unpacks to more than the room for it";
        /* A match that overlaps what it writes repeats it: forward, a byte at a time
         * (indexed, so gcc -Os makes no MOVSB of it: lib/string.c says why). */
        const uint8_t *from = out + op - back;
        if (back >= match)
            memcpy(out + op, from, match);
        else
            for (uint32_t i = 0; i < match; i++)
                out[op + i] = from[i];
        op += match;
    }
    *pos = op;
    return 0;
}

int lz4_unpack(const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_max,
               uint32_t *out_len, const char **why)
{
    const uint8_t *p = in, *end = in + in_len;
    uint32_t pos = 0;

    *out_len = 0;
    *why = "it is not an LZ4 frame";
    if (!lz4_magic(in, in_len) || in_len < 7)
        return -1;
    uint8_t flg = in[4], bd = in[5];
    if ((flg & FLG_VERSION_MASK) != FLG_VERSION_01 || (flg & FLG_RESERVED) ||
        (bd & BD_RESERVED)) {
        *why = "its LZ4 frame header has a version or flags LZ4 1.6 does not have";
        return -1;
    }
    if (flg & FLG_DICT_ID) {
        *why = "its LZ4 frame needs a dictionary";
        return -1;
    }
    uint32_t header = 6 + (flg & FLG_CONTENT_SIZE ? 8 : 0);
    if (in_len < header + 1) {
        *why = "its LZ4 frame header is cut short";
        return -1;
    }
    if (((xxh32(in + 4, header - 4, 0) >> 8) & 0xFF) != in[header]) {
        *why = "its LZ4 frame header's checksum is wrong";
        return -1;
    }
    uint32_t size = 0;
    int sized = (flg & FLG_CONTENT_SIZE) != 0;
    if (sized) {
        if (le32(in + 10)) {
            *why = "its content size is past 4 GiB";
            return -1;
        }
        size = le32(in + 6);
    }
    p = in + header + 1;

    for (;;) {
        if (end - p < 4) {
            *why = "it is cut short (no end mark)";
            return -1;
        }
        uint32_t word = le32(p), len = word & ~BLOCK_UNCOMPRESSED;
        p += 4;
        if (!word)
            break;
        uint32_t tail = flg & FLG_BLOCK_CHECKSUM ? 4 : 0;
        if (len > (uint32_t)(end - p) || tail > (uint32_t)(end - p) - len) {
            *why = "it is cut short (a block runs past the end)";
            return -1;
        }
        if (tail && xxh32(p, len, 0) != le32(p + len)) {
            *why = "a block's checksum is wrong (a damaged file)";
            return -1;
        }
        if (word & BLOCK_UNCOMPRESSED) {
            if (len > out_max - pos) {
                *why = "it unpacks to more than the room for it";
                return -1;
            }
            memcpy(out + pos, p, len);
            pos += len;
        } else {
            const char *bad = block(p, len, out, &pos, out_max);
            if (bad) {
                *why = bad;
                return -1;
            }
        }
        p += len + tail;
    }
    if (flg & FLG_CONTENT_CHECKSUM) {
        if (end - p < 4) {
            *why = "it is cut short (no content checksum)";
            return -1;
        }
        if (xxh32(out, pos, 0) != le32(p)) {
            *why = "its content checksum is wrong (a damaged file)";
            return -1;
        }
    }
    if (sized && pos != size) {
        *why = "its length is not the one its frame header gives";
        return -1;
    }
    *out_len = pos;
    return 0;
}
