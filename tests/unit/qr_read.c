/* The test-side QR reader: see qr_read.h. */
#include "qr_read.h"

#include <stdbool.h>
#include <string.h>

#define SIZE_MAX_QR     177
#define CODEWORDS_MAX   3706

static const uint8_t align_pos[41][8] = {  /* Annex E: count, then centres */
    { 0 }, { 0 },
    { 2, 6, 18 }, /* 2 */
    { 2, 6, 22 }, /* 3 */
    { 2, 6, 26 }, /* 4 */
    { 2, 6, 30 }, /* 5 */
    { 2, 6, 34 }, /* 6 */
    { 3, 6, 22, 38 }, /* 7 */
    { 3, 6, 24, 42 }, /* 8 */
    { 3, 6, 26, 46 }, /* 9 */
    { 3, 6, 28, 50 }, /* 10 */
    { 3, 6, 30, 54 }, /* 11 */
    { 3, 6, 32, 58 }, /* 12 */
    { 3, 6, 34, 62 }, /* 13 */
    { 4, 6, 26, 46, 66 }, /* 14 */
    { 4, 6, 26, 48, 70 }, /* 15 */
    { 4, 6, 26, 50, 74 }, /* 16 */
    { 4, 6, 30, 54, 78 }, /* 17 */
    { 4, 6, 30, 56, 82 }, /* 18 */
    { 4, 6, 30, 58, 86 }, /* 19 */
    { 4, 6, 34, 62, 90 }, /* 20 */
    { 5, 6, 28, 50, 72, 94 }, /* 21 */
    { 5, 6, 26, 50, 74, 98 }, /* 22 */
    { 5, 6, 30, 54, 78, 102 }, /* 23 */
    { 5, 6, 28, 54, 80, 106 }, /* 24 */
    { 5, 6, 32, 58, 84, 110 }, /* 25 */
    { 5, 6, 30, 58, 86, 114 }, /* 26 */
    { 5, 6, 34, 62, 90, 118 }, /* 27 */
    { 6, 6, 26, 50, 74, 98, 122 }, /* 28 */
    { 6, 6, 30, 54, 78, 102, 126 }, /* 29 */
    { 6, 6, 26, 52, 78, 104, 130 }, /* 30 */
    { 6, 6, 30, 56, 82, 108, 134 }, /* 31 */
    { 6, 6, 34, 60, 86, 112, 138 }, /* 32 */
    { 6, 6, 30, 58, 86, 114, 142 }, /* 33 */
    { 6, 6, 34, 62, 90, 118, 146 }, /* 34 */
    { 7, 6, 30, 54, 78, 102, 126, 150 }, /* 35 */
    { 7, 6, 24, 50, 76, 102, 128, 154 }, /* 36 */
    { 7, 6, 28, 54, 80, 106, 132, 158 }, /* 37 */
    { 7, 6, 32, 58, 84, 110, 136, 162 }, /* 38 */
    { 7, 6, 26, 54, 82, 110, 138, 166 }, /* 39 */
    { 7, 6, 30, 58, 86, 114, 142, 170 }, /* 40 */
};
/* Table 9: per version, for L then M: (blocks, total codewords, data codewords) of
 * up to two groups */
static const uint8_t ec_groups[41][2][6] = {
    { { 0 } },
    { { 1, 26, 19, 0, 0, 0 }, { 1, 26, 16, 0, 0, 0 } }, /* 1 */
    { { 1, 44, 34, 0, 0, 0 }, { 1, 44, 28, 0, 0, 0 } }, /* 2 */
    { { 1, 70, 55, 0, 0, 0 }, { 1, 70, 44, 0, 0, 0 } }, /* 3 */
    { { 1, 100, 80, 0, 0, 0 }, { 2, 50, 32, 0, 0, 0 } }, /* 4 */
    { { 1, 134, 108, 0, 0, 0 }, { 2, 67, 43, 0, 0, 0 } }, /* 5 */
    { { 2, 86, 68, 0, 0, 0 }, { 4, 43, 27, 0, 0, 0 } }, /* 6 */
    { { 2, 98, 78, 0, 0, 0 }, { 4, 49, 31, 0, 0, 0 } }, /* 7 */
    { { 2, 121, 97, 0, 0, 0 }, { 2, 60, 38, 2, 61, 39 } }, /* 8 */
    { { 2, 146, 116, 0, 0, 0 }, { 3, 58, 36, 2, 59, 37 } }, /* 9 */
    { { 2, 86, 68, 2, 87, 69 }, { 4, 69, 43, 1, 70, 44 } }, /* 10 */
    { { 4, 101, 81, 0, 0, 0 }, { 1, 80, 50, 4, 81, 51 } }, /* 11 */
    { { 2, 116, 92, 2, 117, 93 }, { 6, 58, 36, 2, 59, 37 } }, /* 12 */
    { { 4, 133, 107, 0, 0, 0 }, { 8, 59, 37, 1, 60, 38 } }, /* 13 */
    { { 3, 145, 115, 1, 146, 116 }, { 4, 64, 40, 5, 65, 41 } }, /* 14 */
    { { 5, 109, 87, 1, 110, 88 }, { 5, 65, 41, 5, 66, 42 } }, /* 15 */
    { { 5, 122, 98, 1, 123, 99 }, { 7, 73, 45, 3, 74, 46 } }, /* 16 */
    { { 1, 135, 107, 5, 136, 108 }, { 10, 74, 46, 1, 75, 47 } }, /* 17 */
    { { 5, 150, 120, 1, 151, 121 }, { 9, 69, 43, 4, 70, 44 } }, /* 18 */
    { { 3, 141, 113, 4, 142, 114 }, { 3, 70, 44, 11, 71, 45 } }, /* 19 */
    { { 3, 135, 107, 5, 136, 108 }, { 3, 67, 41, 13, 68, 42 } }, /* 20 */
    { { 4, 144, 116, 4, 145, 117 }, { 17, 68, 42, 0, 0, 0 } }, /* 21 */
    { { 2, 139, 111, 7, 140, 112 }, { 17, 74, 46, 0, 0, 0 } }, /* 22 */
    { { 4, 151, 121, 5, 152, 122 }, { 4, 75, 47, 14, 76, 48 } }, /* 23 */
    { { 6, 147, 117, 4, 148, 118 }, { 6, 73, 45, 14, 74, 46 } }, /* 24 */
    { { 8, 132, 106, 4, 133, 107 }, { 8, 75, 47, 13, 76, 48 } }, /* 25 */
    { { 10, 142, 114, 2, 143, 115 }, { 19, 74, 46, 4, 75, 47 } }, /* 26 */
    { { 8, 152, 122, 4, 153, 123 }, { 22, 73, 45, 3, 74, 46 } }, /* 27 */
    { { 3, 147, 117, 10, 148, 118 }, { 3, 73, 45, 23, 74, 46 } }, /* 28 */
    { { 7, 146, 116, 7, 147, 117 }, { 21, 73, 45, 7, 74, 46 } }, /* 29 */
    { { 5, 145, 115, 10, 146, 116 }, { 19, 75, 47, 10, 76, 48 } }, /* 30 */
    { { 13, 145, 115, 3, 146, 116 }, { 2, 74, 46, 29, 75, 47 } }, /* 31 */
    { { 17, 145, 115, 0, 0, 0 }, { 10, 74, 46, 23, 75, 47 } }, /* 32 */
    { { 17, 145, 115, 1, 146, 116 }, { 14, 74, 46, 21, 75, 47 } }, /* 33 */
    { { 13, 145, 115, 6, 146, 116 }, { 14, 74, 46, 23, 75, 47 } }, /* 34 */
    { { 12, 151, 121, 7, 152, 122 }, { 12, 75, 47, 26, 76, 48 } }, /* 35 */
    { { 6, 151, 121, 14, 152, 122 }, { 6, 75, 47, 34, 76, 48 } }, /* 36 */
    { { 17, 152, 122, 4, 153, 123 }, { 29, 74, 46, 14, 75, 47 } }, /* 37 */
    { { 4, 152, 122, 18, 153, 123 }, { 13, 74, 46, 32, 75, 47 } }, /* 38 */
    { { 20, 147, 117, 4, 148, 118 }, { 40, 75, 47, 7, 76, 48 } }, /* 39 */
    { { 19, 148, 118, 6, 149, 119 }, { 18, 75, 47, 31, 76, 48 } }, /* 40 */
};

static uint8_t gf_exp[512], gf_log[256];

static void gf_init(void)
{
    unsigned x = 1;
    for (int i = 0; i < 255; i++) {
        gf_exp[i] = gf_exp[i + 255] = (uint8_t)x;
        gf_log[x] = (uint8_t)i;
        x <<= 1;
        if (x & 0x100)
            x ^= 0x11D;
    }
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    return a && b ? gf_exp[gf_log[a] + gf_log[b]] : 0;
}

/* 0: data, 1: function module expected light, 2: function module expected dark. */
static uint8_t role[SIZE_MAX_QR][SIZE_MAX_QR];
static uint8_t codewords[CODEWORDS_MAX];
static uint8_t deinterleaved[CODEWORDS_MAX];

static bool dark(const uint8_t *m, int size, int x, int y)
{
    int i = y * size + x;
    return m[i / 8] >> (i % 8) & 1;
}

static void mark(int size, int x, int y, bool is_dark)
{
    if (x >= 0 && y >= 0 && x < size && y < size)
        role[y][x] = is_dark ? 2 : 1;
}

static void finder(int size, int left, int top)
{
    for (int y = -1; y <= 7; y++)
        for (int x = -1; x <= 7; x++) {
            bool in = x >= 0 && x <= 6 && y >= 0 && y <= 6;
            bool ring = x == 0 || x == 6 || y == 0 || y == 6;
            bool core = x >= 2 && x <= 4 && y >= 2 && y <= 4;
            mark(size, left + x, top + y, in && (ring || core));
        }
}

static int mask_bit(int mask, int r, int c)     /* Table 10, i = row, j = column */
{
    switch (mask) {
    case 0: return (r + c) % 2 == 0;
    case 1: return r % 2 == 0;
    case 2: return c % 3 == 0;
    case 3: return (r + c) % 3 == 0;
    case 4: return (r / 2 + c / 3) % 2 == 0;
    case 5: return (r * c) % 2 + (r * c) % 3 == 0;
    case 6: return ((r * c) % 2 + (r * c) % 3) % 2 == 0;
    default: return ((r + c) % 2 + (r * c) % 3) % 2 == 0;
    }
}

static unsigned bch(unsigned data, int data_bits, unsigned poly, int poly_degree)
{
    unsigned v = data << poly_degree;
    for (int i = data_bits + poly_degree - 1; i >= poly_degree; i--)
        if (v >> i & 1)
            v ^= poly << (i - poly_degree);
    return data << poly_degree | v;
}

/* The next n bits of the stream, most significant first. */
static unsigned take(const uint8_t *d, int *pos, int n)
{
    unsigned v = 0;
    for (int i = 0; i < n; i++, (*pos)++)
        v = v << 1 | (d[*pos / 8] >> (7 - *pos % 8) & 1);
    return v;
}

static int fail(struct qr_read_info *info, const char *why)
{
    info->error = why;
    return -1;
}

int qr_read(const uint8_t *m, int size, uint8_t *out, size_t out_max,
            struct qr_read_info *info)
{
    memset(info, 0, sizeof(*info));
    if (size < 21 || size > SIZE_MAX_QR || (size - 17) % 4)
        return fail(info, "size is not a QR Code size");
    int v = (size - 17) / 4;
    info->version = v;
    gf_init();

    /* Format information, both copies (Figure 25). */
    unsigned f1 = 0, f2 = 0;
    for (int i = 0; i < 15; i++) {
        int x1, y1, x2, y2;
        if (i < 6) { x1 = 8; y1 = i; }
        else if (i < 8) { x1 = 8; y1 = i + 1; }
        else if (i == 8) { x1 = 7; y1 = 8; }
        else { x1 = 14 - i; y1 = 8; }
        if (i < 8) { x2 = size - 1 - i; y2 = 8; }
        else { x2 = 8; y2 = size - 15 + i; }
        f1 |= (unsigned)dark(m, size, x1, y1) << i;
        f2 |= (unsigned)dark(m, size, x2, y2) << i;
    }
    if (f1 != f2)
        return fail(info, "the two format information copies differ");
    f1 ^= 0x5412;
    if (bch(f1 >> 10, 5, 0x537, 10) != f1)
        return fail(info, "format information BCH code wrong");
    unsigned level_bits = f1 >> 13;
    if (level_bits != 1 && level_bits != 0)
        return fail(info, "error correction level is not L or M");
    info->level = level_bits == 1 ? 0 : 1;
    info->mask = (int)(f1 >> 10 & 7);

    /* Function patterns and reserved areas, with the colours they must have. */
    memset(role, 0, sizeof(role));
    finder(size, 0, 0);
    finder(size, size - 7, 0);
    finder(size, 0, size - 7);
    for (int i = 0; i < size; i++) {
        if (!role[6][i])
            mark(size, i, 6, i % 2 == 0);
        if (!role[i][6])
            mark(size, 6, i, i % 2 == 0);
    }
    const uint8_t *ap = align_pos[v];
    for (int a = 0; a < ap[0]; a++)
        for (int b = 0; b < ap[0]; b++) {
            int cx = ap[1 + a], cy = ap[1 + b];
            bool overlaps = (cx < 9 && cy < 9) || (cx > size - 10 && cy < 9) ||
                            (cx < 9 && cy > size - 10);
            if (overlaps)
                continue;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    int d = dx * dx > dy * dy ? (dx < 0 ? -dx : dx) : (dy < 0 ? -dy : dy);
                    mark(size, cx + dx, cy + dy, d != 1);
                }
        }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            if (role[y][x] && dark(m, size, x, y) != (role[y][x] == 2))
                return fail(info, "a finder, separator, timing or alignment module is wrong");
    /* Format areas (checked above) and the dark module. */
    for (int i = 0; i < 9; i++) {
        role[8][i] = role[i][8] = 3;
        if (i < 8)
            role[8][size - 1 - i] = role[size - 1 - i][8] = 3;
    }
    if (!dark(m, size, 8, size - 8))
        return fail(info, "the dark module is light");
    if (v >= 7) {
        unsigned want = bch((unsigned)v, 6, 0x1F25, 12), got1 = 0, got2 = 0;
        for (int i = 0; i < 18; i++) {
            int a = size - 11 + i % 3, b = i / 3;
            got1 |= (unsigned)dark(m, size, a, b) << i;     /* top right */
            got2 |= (unsigned)dark(m, size, b, a) << i;     /* bottom left */
            role[b][a] = role[a][b] = 3;
        }
        if (got1 != want || got2 != want)
            return fail(info, "version information wrong");
    }

    /* Codewords, in placement order, unmasked. */
    int nbits = 0;
    memset(codewords, 0, sizeof(codewords));
    for (int right = size - 1, up = 1; right >= 1; right -= 2, up = !up) {
        if (right == 6)
            right--;
        for (int k = 0; k < size; k++) {
            int y = up ? size - 1 - k : k;
            for (int x = right; x >= right - 1; x--) {
                if (role[y][x])
                    continue;
                int bit = dark(m, size, x, y) ^ mask_bit(info->mask, y, x);
                if (nbits / 8 < CODEWORDS_MAX && bit)
                    codewords[nbits / 8] |= (uint8_t)(0x80 >> (nbits % 8));
                nbits++;
            }
        }
    }
    const uint8_t *g = ec_groups[v][info->level];
    int blocks = g[0] + g[3];
    int total = g[0] * g[1] + g[3] * g[4];
    int n_data = g[0] * g[2] + g[3] * g[5];
    int ec = g[1] - g[2];
    if (nbits / 8 != total)
        return fail(info, "the data area does not hold the version's codeword count");
    for (int i = total * 8; i < nbits; i++)
        if (codewords[i / 8] >> (7 - i % 8) & 1)
            return fail(info, "a remainder bit is not 0");

    /* De-interleave (7.6) into deinterleaved[]: all data, block by block, then all
     * error correction, block by block; check each block's syndromes. */
    int start[160], len[160];
    for (int b = 0, at = 0; b < blocks; b++) {
        start[b] = at;
        len[b] = b < g[0] ? g[2] : g[5];
        at += len[b];
    }
    int k = 0;
    for (int i = 0; k < n_data; i++)
        for (int b = 0; b < blocks; b++)
            if (i < len[b])
                deinterleaved[start[b] + i] = codewords[k++];
    uint8_t block[256];
    for (int b = 0; b < blocks; b++) {
        memcpy(block, deinterleaved + start[b], (size_t)len[b]);
        for (int i = 0; i < ec; i++)
            block[len[b] + i] = codewords[n_data + i * blocks + b];
        for (int j = 0; j < ec; j++) {
            uint8_t s = 0, aj = gf_exp[j];
            for (int i = 0; i < len[b] + ec; i++)   /* Horner, highest power first */
                s = gf_mul(s, aj) ^ block[i];
            if (s)
                return fail(info, "a Reed-Solomon syndrome is not 0");
        }
    }

    /* The bit stream (7.4): mode, count, bytes, terminator, padding. */
    const uint8_t *d = deinterleaved;
    int pos = 0, cap = n_data * 8;
    if (take(d, &pos, 4) != 4)
        return fail(info, "mode is not byte mode");
    unsigned count = take(d, &pos, v <= 9 ? 8 : 16);
    if (pos + (int)count * 8 > cap)
        return fail(info, "count runs past the data codewords");
    if (count > out_max)
        return fail(info, "output buffer too small");
    for (unsigned i = 0; i < count; i++)
        out[i] = (uint8_t)take(d, &pos, 8);
    for (int t = 0; t < 4 && pos < cap; t++)
        if (take(d, &pos, 1))
            return fail(info, "terminator is not zero");
    while (pos % 8)
        if (take(d, &pos, 1))
            return fail(info, "padding bits are not zero");
    for (unsigned pad = 0xEC; pos < cap; pad ^= 0xEC ^ 0x11)
        if (take(d, &pos, 8) != pad)
            return fail(info, "pad codewords are not EC 11 ...");
    return (int)count;
}
