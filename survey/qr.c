/* QR Code encoding: see qr.h. Section numbers are those of ISO/IEC 18004:2015.
 *
 * The steps, in the order qr_encode_ex() takes them:
 *   1. choose the version (7.4.10, Table 7) and write the bit stream into `modules`:
 *      mode 0100 (or 0010, alphanumeric), count, data, terminator, pad codewords
 *      EC 11 (7.4.4, 7.4.5, 7.4.10);
 *   2. split it into blocks, append Reed-Solomon codewords and interleave them into
 *      `work` (7.5, Table 9);
 *   3. clear `modules`, draw the function patterns and lay the codewords out in the
 *      two-column zigzag (7.7.3);
 *   4. try the eight masks, score each with the penalty rules (7.8.3) and keep the
 *      lowest, then write the format information for it (7.9).
 * The work buffer holds the codewords, then the map of function modules for the
 * masking. No division by anything but small constants, no 64-bit arithmetic, no
 * floating point. */
#include "qr.h"
#include "../lib/string.h"

#define MODE_BYTE       0x4     /* 7.4.1, Table 2 */
#define MODE_ALNUM      0x2
#define PAD_FIRST       0xEC    /* 7.4.10: pad codewords alternate EC, 11 */
#define PAD_XOR         (0xEC ^ 0x11)
#define GF_POLY         0x11D   /* 7.5.2: x^8 + x^4 + x^3 + x^2 + 1 */
#define FORMAT_POLY     0x537   /* 7.9.1: BCH(15,5) generator */
#define FORMAT_XOR      0x5412  /* 7.9.1: so no format word is all light */
#define VERSION_POLY    0x1F25  /* 7.10: BCH(18,6) generator */
#define EC_PER_BLOCK_MAX 30

/* Table 9, levels L and M: error correction codewords per block and number of
 * blocks. The rest of the block structure follows from the version's codeword
 * count: the data is split as evenly as possible, the blocks one codeword longer
 * come last. */
enum { EC_L, BLOCKS_L, EC_M, BLOCKS_M };
static const uint8_t block_table[QR_VERSION_MAX][4] = {
    {  7,  1, 10,  1 }, { 10,  1, 16,  1 }, { 15,  1, 26,  1 }, { 20,  1, 18,  2 },   /* 1-4 */
    { 26,  1, 24,  2 }, { 18,  2, 16,  4 }, { 20,  2, 18,  4 }, { 24,  2, 22,  4 },   /* 5-8 */
    { 30,  2, 22,  5 }, { 18,  4, 26,  5 }, { 20,  4, 30,  5 }, { 24,  4, 22,  8 },   /* 9-12 */
    { 26,  4, 22,  9 }, { 30,  4, 24,  9 }, { 22,  6, 24, 10 }, { 24,  6, 28, 10 },   /* 13-16 */
    { 28,  6, 28, 11 }, { 30,  6, 26, 13 }, { 28,  7, 26, 14 }, { 28,  8, 26, 16 },   /* 17-20 */
    { 28,  8, 26, 17 }, { 28,  9, 28, 17 }, { 30,  9, 28, 18 }, { 30, 10, 28, 20 },   /* 21-24 */
    { 26, 12, 28, 21 }, { 28, 12, 28, 23 }, { 30, 12, 28, 25 }, { 30, 13, 28, 26 },   /* 25-28 */
    { 30, 14, 28, 28 }, { 30, 15, 28, 29 }, { 30, 16, 28, 31 }, { 30, 17, 28, 33 },   /* 29-32 */
    { 30, 18, 28, 35 }, { 30, 19, 28, 37 }, { 30, 19, 28, 38 }, { 30, 20, 28, 40 },   /* 33-36 */
    { 30, 21, 28, 43 }, { 30, 22, 28, 45 }, { 30, 24, 28, 47 }, { 30, 25, 28, 49 },   /* 37-40 */
};

/* Where the function patterns of one version lie. */
struct layout {
    int version, size;
    int n_align;
    int align[7];               /* alignment pattern centres, on both axes (Annex E) */
    int8_t near[QR_SIZE_MAX];   /* per coordinate: the centre within 2 modules, or -1 */
};

/* --- sizes and counts ---------------------------------------------------------------- */

/* The index of the alignment centre within 2 modules of coordinate c, or -1. */
static int near_align(const struct layout *l, int c)
{
    for (int i = 0; i < l->n_align; i++)
        if (c >= l->align[i] - 2 && c <= l->align[i] + 2)
            return i;
    return -1;
}

static void layout_init(struct layout *l, int version)
{
    l->version = version;
    l->size = QR_SIZE(version);
    l->n_align = 0;
    for (int c = 0; c < l->size; c++)
        l->near[c] = -1;
    if (version < 2)
        return;
    /* Annex E: the first centre is 6, the last size - 7, the others evenly spaced
     * back from the last at an even step, the smallest that fits; version 32 is the
     * one exception the table makes (26 where the rule gives 28). */
    int n = version / 7 + 2;
    int span = l->size - 13;
    int step = version == 32 ? 26 : ((span + n - 2) / (n - 1) + 1) & ~1;
    l->n_align = n;
    l->align[0] = 6;
    for (int i = n - 1, c = l->size - 7; i > 0; i--, c -= step)
        l->align[i] = c;
    /* is_function() asks this for every module: a 386 should not loop for it. */
    for (int c = 0; c < l->size; c++)
        l->near[c] = (int8_t)near_align(l, c);
}

/* Modules left for codewords once the function patterns are drawn (7.7.1): the
 * symbol less three finders with separators (3 x 64), the format information and
 * the dark module (31), the two timing patterns between the separators, the
 * alignment patterns (25 modules each, less the 5 of each one that sits on a timing
 * pattern) and the two version information blocks (2 x 18). */
static int data_modules(int version)
{
    int size = QR_SIZE(version);
    int n = size * size - 3 * 64 - 31 - 2 * (size - 16);

    if (version >= 2) {
        int a = version / 7 + 2;
        n -= 25 * (a * a - 3) - 10 * (a - 2);
    }
    if (version >= 7)
        n -= 36;
    return n;
}

static int total_codewords(int version)
{
    return data_modules(version) / 8;   /* the remainder bits stay light before masking */
}

static const uint8_t *blocks_of(int version, enum qr_ecc ecc)
{
    return block_table[version - 1] + (ecc == QR_ECC_LOW ? EC_L : EC_M);
}

static int data_codewords(int version, enum qr_ecc ecc)
{
    const uint8_t *b = blocks_of(version, ecc);
    return total_codewords(version) - b[0] * b[1];
}

static int count_bits(int version)
{
    return version <= 9 ? 8 : 16;       /* 7.4.1, Table 3, byte mode */
}

int qr_capacity(int version, enum qr_ecc ecc)
{
    if (version < QR_VERSION_MIN || version > QR_VERSION_MAX ||
        (ecc != QR_ECC_LOW && ecc != QR_ECC_MEDIUM))
        return 0;
    /* 4 bits of mode and the count, then whole bytes. */
    return (data_codewords(version, ecc) * 8 - 4 - count_bits(version)) / 8;
}

/* --- modules -------------------------------------------------------------------------- */

static bool get_module(const uint8_t *m, int size, int x, int y)
{
    unsigned i = (unsigned)(y * size + x);
    return m[i >> 3] >> (i & 7) & 1;
}

static void set_module(uint8_t *m, int size, int x, int y, bool dark)
{
    unsigned i = (unsigned)(y * size + x);
    if (dark)
        m[i >> 3] |= (uint8_t)(1u << (i & 7));
    else
        m[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

bool qr_get_module(const uint8_t *modules, int size, int x, int y)
{
    if (x < 0 || y < 0 || x >= size || y >= size)
        return false;
    return get_module(modules, size, x, y);
}

/* The three centres whose patterns the finders replace (7.3.5). */
static bool finder_corner(const struct layout *l, int i, int j)
{
    int last = l->n_align - 1;
    return (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0);
}

/* Whether (x, y) belongs to a function pattern or the areas reserved for format and
 * version information, i.e. takes no data. */
static bool is_function(const struct layout *l, int x, int y)
{
    int s = l->size;

    if (x == 6 || y == 6)                       /* timing patterns */
        return true;
    if (y < 9 && (x < 9 || x >= s - 8))         /* finders, separators, format */
        return true;
    if (x < 9 && y >= s - 8)                    /* same, and the dark module */
        return true;
    if (l->version >= 7 && ((x >= s - 11 && y < 6) || (y >= s - 11 && x < 6)))
        return true;                            /* version information */
    int i = l->near[x], j = l->near[y];
    return i >= 0 && j >= 0 && !finder_corner(l, i, j);
}

/* A square pattern centred on (cx, cy) out to `radius` (clipped at the edges):
 * the ring at Chebyshev distance d is dark when bit d of dark_rings is set. */
static void draw_rings(uint8_t *m, int size, int cx, int cy, int radius, unsigned dark_rings)
{
    for (int dy = -radius; dy <= radius; dy++) {
        for (int dx = -radius; dx <= radius; dx++) {
            int x = cx + dx, y = cy + dy;
            int d = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
            if (ady > d)
                d = ady;
            if (x >= 0 && y >= 0 && x < size && y < size)
                set_module(m, size, x, y, dark_rings >> d & 1);
        }
    }
}

/* 7.9: 2 bits of level (L = 01, M = 00), 3 of mask, 10 of BCH code, masked; drawn
 * twice, around the top-left finder and split between the other two. */
static void draw_format(uint8_t *m, int size, enum qr_ecc ecc, int mask)
{
    unsigned data = (ecc == QR_ECC_LOW ? 1u : 0u) << 3 | (unsigned)mask;
    unsigned rem = data;

    for (int i = 0; i < 10; i++)
        rem = rem << 1 ^ (rem >> 9) * FORMAT_POLY;
    unsigned bits = (data << 10 | rem) ^ FORMAT_XOR;

    for (int i = 0; i < 15; i++) {
        bool b = bits >> i & 1;
        /* Copy 1: down column 8 (skipping the timing row), then left along row 8. */
        if (i < 6)
            set_module(m, size, 8, i, b);
        else if (i < 8)
            set_module(m, size, 8, i + 1, b);
        else if (i == 8)
            set_module(m, size, 7, 8, b);
        else
            set_module(m, size, 14 - i, 8, b);
        /* Copy 2: row 8 under the top-right finder, column 8 beside the bottom-left. */
        if (i < 8)
            set_module(m, size, size - 1 - i, 8, b);
        else
            set_module(m, size, 8, size - 15 + i, b);
    }
}

/* 7.10: 6 bits of version and 12 of BCH code, in a 6x3 block beside the top-right
 * finder and its transpose above the bottom-left one. */
static void draw_version(uint8_t *m, int size, int version)
{
    uint32_t rem = (uint32_t)version;

    for (int i = 0; i < 12; i++)
        rem = rem << 1 ^ (rem >> 11) * VERSION_POLY;
    uint32_t bits = (uint32_t)version << 12 | rem;

    for (int i = 0; i < 18; i++) {
        bool b = bits >> i & 1;
        int a = size - 11 + i % 3, c = i / 3;
        set_module(m, size, a, c, b);
        set_module(m, size, c, a, b);
    }
}

/* Everything but the format information, onto a cleared symbol. */
static void draw_function_patterns(uint8_t *m, const struct layout *l)
{
    int s = l->size;

    for (int i = 8; i < s - 8; i++) {           /* 7.3.4 timing: dark on even */
        set_module(m, s, 6, i, !(i & 1));
        set_module(m, s, i, 6, !(i & 1));
    }
    /* 7.3.2 finders: dark 3x3 core (d 0-1), light ring (2), dark ring (3), and the
     * light separator (4) of 7.3.3. */
    draw_rings(m, s, 3, 3, 4, 0x0B);
    draw_rings(m, s, s - 4, 3, 4, 0x0B);
    draw_rings(m, s, 3, s - 4, 4, 0x0B);
    /* 7.3.5 alignment: dark centre, light ring, dark ring. */
    for (int i = 0; i < l->n_align; i++) {
        for (int j = 0; j < l->n_align; j++)
            if (!finder_corner(l, i, j))
                draw_rings(m, s, l->align[i], l->align[j], 2, 0x05);
    }
    set_module(m, s, 8, s - 8, true);           /* the dark module (7.9.1) */
    if (l->version >= 7)
        draw_version(m, s, l->version);
}

/* 7.7.3: codeword bits, most significant first, in two-module columns from the
 * bottom-right corner, upwards then downwards, skipping the vertical timing column
 * and every function module. Modules past the last codeword (remainder bits) stay
 * light. */
static void place_codewords(uint8_t *m, const struct layout *l, const uint8_t *cw, int n)
{
    int s = l->size;
    unsigned bit = 0, nbits = (unsigned)n * 8;
    bool up = true;

    for (int right = s - 1; right > 0; right -= 2) {
        if (right == 6)
            right = 5;
        for (int i = 0; i < s; i++) {
            int y = up ? s - 1 - i : i;
            for (int x = right; x > right - 2; x--) {
                if (is_function(l, x, y))
                    continue;
                if (bit < nbits && (cw[bit >> 3] >> (7 - (bit & 7)) & 1))
                    set_module(m, s, x, y, true);
                bit++;
            }
        }
        up = !up;
    }
}

/* 7.8.2, Table 10, with x the column and y the row. The remainders by 3 and the
 * parity of x / 3 come from counters in the caller: a 386 divides slowly. */
static bool mask_bit(int mask, int x, int y, int x_mod3, int y_mod3, int x_div3)
{
    int xy_mod3 = x_mod3 * y_mod3;              /* 0, 1, 2 or 4 */
    if (xy_mod3 == 4)
        xy_mod3 = 1;
    switch (mask) {
    case 0: return !((x + y) & 1);
    case 1: return !(y & 1);
    case 2: return x_mod3 == 0;
    case 3: return x_mod3 + y_mod3 == 0 || x_mod3 + y_mod3 == 3;
    case 4: return !((x_div3 + (y >> 1)) & 1);
    case 5: return (x & y & 1) + xy_mod3 == 0;
    case 6: return !(((x & y & 1) + xy_mod3) & 1);
    default: return !((((x + y) & 1) + xy_mod3) & 1);
    }
}

/* XOR, so applying the same mask again takes it off. fn is the function module map
 * (same layout as the symbol): those modules are never masked. */
static void apply_mask(uint8_t *m, const uint8_t *fn, int size, int mask)
{
    unsigned i = 0;
    for (int y = 0, y_mod3 = 0; y < size; y++, y_mod3 = y_mod3 == 2 ? 0 : y_mod3 + 1) {
        for (int x = 0, x_mod3 = 0, x_div3 = 0; x < size; x++, i++) {
            uint8_t bit = (uint8_t)(1u << (i & 7));
            if (!(fn[i >> 3] & bit) && mask_bit(mask, x, y, x_mod3, y_mod3, x_div3))
                m[i >> 3] ^= bit;
            if (++x_mod3 == 3) {
                x_mod3 = 0;
                x_div3++;
            }
        }
    }
}

/* The map of function modules, one bit each like the symbol. */
static void map_functions(uint8_t *fn, const struct layout *l)
{
    unsigned i = 0;
    memset(fn, 0, (size_t)(l->size * l->size + 7) / 8);
    for (int y = 0; y < l->size; y++)
        for (int x = 0; x < l->size; x++, i++)
            if (is_function(l, x, y))
                fn[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* 7.8.3, Table 11, on the whole symbol with its format information:
 *   N1  3 + (run - 5) for each run of 5 or more same-coloured modules in a line;
 *   N2  3 for each 2x2 block of one colour (overlapping blocks each count);
 *   N3  40 for each 1:1:3:1:1 dark-light-dark-light-dark run with 4 light modules
 *       before or after it (each side that has them counts), the quiet zone
 *       around the symbol counting as light;
 *   N4  10 for each full 5 % that the dark share differs from 50 %. */
static bool bit_at(const uint8_t *m, unsigned i)
{
    return m[i >> 3] >> (i & 7) & 1;
}

/* N1 and N3 of one row or column: size modules from bit `start`, `stride` apart. */
static unsigned line_penalty(const uint8_t *m, unsigned start, unsigned stride, int size)
{
    unsigned score = 0, window = 0;     /* the last 11 modules, newest in bit 0 */
    unsigned i = start;
    int run = 0;
    bool colour = false;

    for (int b = -4; b < size + 4; b++) {
        bool d = false;
        if (b >= 0 && b < size) {
            d = bit_at(m, i);
            i += stride;
            if (b > 0 && d == colour) {
                run++;
            } else {
                if (run >= 5)
                    score += (unsigned)run - 2;
                run = 1;
                colour = d;
            }
        }
        window = (window << 1 | d) & 0x7FF;
        if (b >= 6 && (window == 0x05D || window == 0x5D0))
            score += 40;
    }
    if (run >= 5)
        score += (unsigned)run - 2;
    return score;
}

unsigned qr_penalty(const uint8_t *m, int size)
{
    unsigned score = 0, dark = 0, n = (unsigned)size;

    for (unsigned a = 0; a < n; a++)
        score += line_penalty(m, a * n, 1, size) + line_penalty(m, a, n, size);
    for (unsigned i = 0, y = 0; y < n; y++) {
        for (unsigned x = 0; x < n; x++, i++) {
            bool d = bit_at(m, i);
            dark += d;
            if (x + 1 < n && y + 1 < n && d == bit_at(m, i + 1) && d == bit_at(m, i + n) &&
                d == bit_at(m, i + n + 1))
                score += 3;
        }
    }
    unsigned total = n * n, twenty_dark = 20 * dark, ten_total = 10 * total;
    unsigned diff = twenty_dark > ten_total ? twenty_dark - ten_total : ten_total - twenty_dark;
    return score + 10 * (diff / total);
}

/* --- codewords ------------------------------------------------------------------------ */

struct bits {
    uint8_t *buf;
    unsigned n;
};

static void put_bits(struct bits *b, unsigned value, int count)
{
    while (count--) {
        if (value >> count & 1)
            b->buf[b->n >> 3] |= (uint8_t)(0x80 >> (b->n & 7));
        b->n++;
    }
}

/* Logarithms and powers of 2 in GF(256), built on first use: the error correction
 * makes tens of thousands of products, too many for the shift-and-add loop on a 386. */
static uint8_t gf_exp[255], gf_log[256];

static void gf_tables(void)
{
    if (gf_exp[0])
        return;
    uint8_t x = 1;
    for (int i = 0; i < 255; i++) {
        gf_exp[i] = x;
        gf_log[x] = (uint8_t)i;
        x = (uint8_t)(x << 1 ^ (x >> 7) * GF_POLY);
    }
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    if (!a || !b)
        return 0;
    unsigned e = (unsigned)gf_log[a] + gf_log[b];
    return gf_exp[e >= 255 ? e - 255 : e];
}

/* 7.5.2, Annex A: the generator polynomial (x - a^0)(x - a^1)...(x - a^(degree-1)),
 * its coefficients below the leading 1, highest power first. */
static void rs_generator(uint8_t *gen, int degree)
{
    uint8_t c[EC_PER_BLOCK_MAX + 1];    /* lowest power first while building */
    uint8_t root = 1;

    c[0] = 1;
    for (int k = 0; k < degree; k++) {  /* multiply the degree-k product by (x + root) */
        c[k + 1] = c[k];
        for (int j = k; j > 0; j--)
            c[j] = c[j - 1] ^ gf_mul(c[j], root);
        c[0] = gf_mul(c[0], root);
        root = gf_mul(root, 2);
    }
    for (int j = 0; j < degree; j++)
        gen[j] = c[degree - 1 - j];
}

/* 7.5 and 7.6: splits the data codewords into blocks, computes each block's error
 * correction codewords and writes the interleaved sequence: the first data codeword
 * of every block, then the second, ..., then the error correction codewords the same
 * way. The short blocks come first and have one data codeword fewer. */
static void add_error_correction(const uint8_t *data, uint8_t *out, int version,
                                 enum qr_ecc ecc)
{
    const uint8_t *t = blocks_of(version, ecc);
    int ec = t[0], blocks = t[1];
    int total = total_codewords(version);
    int n_short = blocks - total % blocks;
    int short_data = total / blocks - ec;
    int data_total = total - ec * blocks;
    uint8_t gen[EC_PER_BLOCK_MAX], rem[EC_PER_BLOCK_MAX];

    rs_generator(gen, ec);
    for (int b = 0; b < blocks; b++) {
        int len = short_data + (b >= n_short);
        memset(rem, 0, (size_t)ec);
        for (int i = 0; i < len; i++) {
            uint8_t c = data[i];
            out[i < short_data ? i * blocks + b : short_data * blocks + b - n_short] = c;
            /* The remainder of data(x) * x^ec divided by gen(x), a byte at a time. */
            uint8_t factor = c ^ rem[0];
            for (int j = 0; j < ec - 1; j++)
                rem[j] = rem[j + 1] ^ gf_mul(gen[j], factor);
            rem[ec - 1] = gf_mul(gen[ec - 1], factor);
        }
        for (int k = 0; k < ec; k++)
            out[data_total + k * blocks + b] = rem[k];
        data += len;
    }
}

/* --- the encoder ---------------------------------------------------------------------- */

/* Steps 2-4 once the bit stream's data is in `modules`: terminator and padding,
 * blocks and error correction, the symbol, the mask. Returns the size. */
static int finish(uint8_t *modules, uint8_t *work, struct bits *bs, int version,
                  enum qr_ecc ecc, int mask)
{
    unsigned capacity = (unsigned)data_codewords(version, ecc) * 8;
    bs->n += capacity - bs->n < 4 ? capacity - bs->n : 4;   /* terminator */
    bs->n = (bs->n + 7) & ~7u;
    for (unsigned pad = PAD_FIRST; bs->n < capacity; pad ^= PAD_XOR)
        put_bits(bs, pad, 8);

    /* 2. Blocks and error correction, interleaved into `work`. */
    gf_tables();
    add_error_correction(modules, work, version, ecc);

    /* 3. The symbol. */
    struct layout l;
    layout_init(&l, version);
    memset(modules, 0, (size_t)(l.size * l.size + 7) / 8);
    draw_function_patterns(modules, &l);
    place_codewords(modules, &l, work, total_codewords(version));

    /* 4. The mask; `work` is free again and holds the function module map. */
    map_functions(work, &l);
    if (mask == QR_MASK_AUTO) {
        unsigned best = ~0u;
        for (int k = 0; k < 8; k++) {
            apply_mask(modules, work, l.size, k);
            draw_format(modules, l.size, ecc, k);
            unsigned score = qr_penalty(modules, l.size);
            if (score < best) {
                best = score;
                mask = k;
            }
            apply_mask(modules, work, l.size, k);
        }
    }
    apply_mask(modules, work, l.size, mask);
    draw_format(modules, l.size, ecc, mask);
    return l.size;
}

static bool arguments_ok(enum qr_ecc ecc, int min_version, int mask)
{
    return (ecc == QR_ECC_LOW || ecc == QR_ECC_MEDIUM) && min_version >= QR_VERSION_MIN &&
           min_version <= QR_VERSION_MAX && mask >= QR_MASK_AUTO && mask <= 7;
}

int qr_encode_ex(const uint8_t *data, size_t len, enum qr_ecc ecc, int min_version,
                 int mask, uint8_t *modules, uint8_t *work)
{
    if (!arguments_ok(ecc, min_version, mask))
        return 0;
    int version = min_version;
    while ((size_t)qr_capacity(version, ecc) < len)
        if (++version > QR_VERSION_MAX)
            return 0;

    /* 1. The bit stream, into `modules` (the data codewords need fewer bytes). */
    struct bits bs = { modules, 0 };
    memset(modules, 0, (size_t)data_codewords(version, ecc));
    put_bits(&bs, MODE_BYTE, 4);
    put_bits(&bs, (unsigned)len, count_bits(version));
    for (size_t i = 0; i < len; i++)
        put_bits(&bs, data[i], 8);
    return finish(modules, work, &bs, version, ecc, mask);
}

/* 7.4.4, Table 5: the alphanumeric set, in the order of its values. */
static const char alnum_set[] = QR_ALNUM_SET;

static int alnum_value(char c)
{
    for (int i = 0; alnum_set[i]; i++)
        if (alnum_set[i] == c)
            return i;
    return -1;
}

static int alnum_count_bits(int version)
{
    return version <= 9 ? 9 : version <= 26 ? 11 : 13;     /* 7.4.1, Table 3 */
}

int qr_capacity_alnum(int version, enum qr_ecc ecc)
{
    if (!qr_capacity(version, ecc))
        return 0;
    /* 11 bits a pair, 6 for a last odd character. */
    int bits = data_codewords(version, ecc) * 8 - 4 - alnum_count_bits(version);
    return bits / 11 * 2 + (bits % 11 >= 6);
}

int qr_encode_alnum(const char *text, size_t len, enum qr_ecc ecc, int min_version,
                    int mask, uint8_t *modules, uint8_t *work)
{
    if (!arguments_ok(ecc, min_version, mask))
        return 0;
    for (size_t i = 0; i < len; i++)
        if (alnum_value(text[i]) < 0)
            return 0;
    int version = min_version;
    while ((size_t)qr_capacity_alnum(version, ecc) < len)
        if (++version > QR_VERSION_MAX)
            return 0;

    struct bits bs = { modules, 0 };
    memset(modules, 0, (size_t)data_codewords(version, ecc));
    put_bits(&bs, MODE_ALNUM, 4);
    put_bits(&bs, (unsigned)len, alnum_count_bits(version));
    size_t i = 0;
    for (; i + 1 < len; i += 2)
        put_bits(&bs, (unsigned)(alnum_value(text[i]) * 45 + alnum_value(text[i + 1])), 11);
    if (i < len)
        put_bits(&bs, (unsigned)alnum_value(text[i]), 6);
    return finish(modules, work, &bs, version, ecc, mask);
}

int qr_encode(const uint8_t *data, size_t len, enum qr_ecc ecc, uint8_t *modules,
              uint8_t *work)
{
    return qr_encode_ex(data, len, ecc, QR_VERSION_MIN, QR_MASK_AUTO, modules, work);
}
