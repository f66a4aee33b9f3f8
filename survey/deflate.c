/* zlib with a preset dictionary: see deflate.h. RFC 1950 (the wrapper: header,
 * DICTID, Adler-32) and RFC 1951 section 3.2.6 (the fixed Huffman codes). */
#include "deflate.h"
#include "../lib/string.h"

#define ZLIB_CMF            0x78    /* deflate, 32 KiB window */
#define ZLIB_FLG_FDICT      0x20    /* 0x7820 is a multiple of 31: FCHECK 0 */
#define MIN_MATCH           3
#define MAX_MATCH           258
#define MAX_DISTANCE        32768
#define END_OF_BLOCK        256
#define LAZY_MAX            32      /* a match this long is taken without looking on */

struct bitout {
    uint8_t *out;
    size_t size, n;             /* bytes written */
    uint32_t acc;
    int bits;
    int overflow;
};

static void put(struct bitout *b, uint32_t value, int count)
{
    b->acc |= value << b->bits;
    b->bits += count;
    while (b->bits >= 8) {
        if (b->n < b->size)
            b->out[b->n++] = (uint8_t)b->acc;
        else
            b->overflow = 1;
        b->acc >>= 8;
        b->bits -= 8;
    }
}

/* A Huffman code goes out most significant bit first. */
static void put_code(struct bitout *b, uint32_t code, int len)
{
    uint32_t r = 0;
    for (int i = 0; i < len; i++)
        r |= ((code >> i) & 1) << (len - 1 - i);
    put(b, r, len);
}

static void put_literal_or_length(struct bitout *b, unsigned sym)
{
    if (sym < 144)
        put_code(b, 0x30 + sym, 8);
    else if (sym < 256)
        put_code(b, 0x190 + sym - 144, 9);
    else if (sym < 280)
        put_code(b, sym - 256, 7);
    else
        put_code(b, 0xC0 + sym - 280, 8);
}

static const uint16_t length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
    12, 12, 13, 13 };

static void put_match(struct bitout *b, unsigned length, unsigned distance)
{
    int i = 28;
    while (length_base[i] > length)
        i--;
    put_literal_or_length(b, 257 + (unsigned)i);
    put(b, length - length_base[i], length_extra[i]);
    int d = 29;
    while (dist_base[d] > distance)
        d--;
    put_code(b, (uint32_t)d, 5);
    put(b, distance - dist_base[d], dist_extra[d]);
}

uint32_t zlib_adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, s = 0;
    while (n) {
        size_t chunk = n < 3800 ? n : 3800;     /* no overflow before the modulo */
        n -= chunk;
        while (chunk--) {
            a += *p++;
            s += a;
        }
        a %= 65521;
        s %= 65521;
    }
    return s << 16 | a;
}

static unsigned hash3(const uint8_t *p)
{
    return ((unsigned)p[0] << 8 ^ (unsigned)p[1] << 4 ^ p[2]) & ((1u << DEFLATE_HASH_BITS) - 1);
}

static void insert(struct deflate_work *w, size_t pos, size_t end)
{
    if (pos + MIN_MATCH > end)
        return;
    unsigned h = hash3(w->text + pos);
    w->prev[pos] = w->head[h];
    w->head[h] = (uint16_t)(pos + 1);
}

/* The longest earlier match for the bytes at pos: its length (0 when under
 * MIN_MATCH) and distance. */
static unsigned longest(const struct deflate_work *w, size_t pos, size_t end,
                        unsigned *distance)
{
    unsigned best = 0;
    size_t limit = end - pos < MAX_MATCH ? end - pos : MAX_MATCH;
    if (limit < MIN_MATCH)
        return 0;
    unsigned cand = w->head[hash3(w->text + pos)];
    for (int chain = 0; cand && chain < DEFLATE_CHAIN; chain++) {
        size_t at = cand - 1u;
        if (pos - at > MAX_DISTANCE)
            break;
        unsigned n = 0;
        while (n < limit && w->text[at + n] == w->text[pos + n])
            n++;
        if (n > best) {
            best = n;
            *distance = (unsigned)(pos - at);
            if (n == limit)
                break;
        }
        cand = w->prev[at];
    }
    return best >= MIN_MATCH ? best : 0;
}

static void put_be32(struct bitout *b, uint32_t v)
{
    for (int i = 3; i >= 0; i--)
        put(b, (v >> (8 * i)) & 0xFF, 8);
}

size_t zlib_compress_dict(const uint8_t *dict, size_t dict_len, const uint8_t *in,
                          size_t len, uint8_t *out, size_t out_size,
                          struct deflate_work *w)
{
    if (dict_len + len > DEFLATE_WINDOW_MAX)
        return 0;
    struct bitout b = { out, out_size, 0, 0, 0, 0 };
    size_t end = dict_len + len;

    if (dict_len)
        memcpy(w->text, dict, dict_len);
    if (len)
        memcpy(w->text + dict_len, in, len);
    memset(w->head, 0, sizeof(w->head));
    for (size_t i = 0; i < dict_len; i++)
        insert(w, i, end);

    put(&b, ZLIB_CMF, 8);
    put(&b, ZLIB_FLG_FDICT, 8);
    put_be32(&b, zlib_adler32(dict, dict_len));
    put(&b, 1, 1);                      /* BFINAL: the only block */
    put(&b, 1, 2);                      /* BTYPE 01: fixed Huffman codes */
    /* Lazy matching, as zlib's: a match is put off by a byte when a longer one starts
     * there (a survey line's values often begin one byte into a dictionary phrase). */
    for (size_t pos = dict_len; pos < end;) {
        unsigned distance = 0, next_distance = 0;
        unsigned n = longest(w, pos, end, &distance);
        insert(w, pos, end);
        if (n && n < LAZY_MAX && longest(w, pos + 1, end, &next_distance) > n)
            n = 0;
        if (!n) {
            put_literal_or_length(&b, w->text[pos++]);
            continue;
        }
        put_match(&b, n, distance);
        for (pos++; --n;)
            insert(w, pos++, end);
    }
    put_literal_or_length(&b, END_OF_BLOCK);
    if (b.bits)
        put(&b, 0, 8 - b.bits);         /* to a byte boundary */
    put_be32(&b, zlib_adler32(in, len));
    return b.overflow ? 0 : b.n;
}
