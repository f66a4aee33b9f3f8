/* loader/lz4.c: LZ4 frames as Debian's lz4 writes them, with every frame option
 * (tests/unit/loader_fixtures.py), then frames made by hand to reach each refusal,
 * and XXH32 against its published vectors and against the checksums lz4 wrote.
 *
 * Every input lies in a heap block of exactly its size and every output buffer is
 * exactly as large as the test allows, so a read or write past either is an
 * AddressSanitizer report, not a silent pass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../loader/lz4.h"
#include "../../lib/le.h"
#include "loader_fixture.h"

#define FLG_VERSION_01      0x40
#define FLG_INDEPENDENT     0x20
#define FLG_BLOCK_CHECKSUM  0x10
#define FLG_CONTENT_SIZE    0x08
#define FLG_CONTENT_CHECKSUM 0x04
#define BD_64K              0x40
#define UNCOMPRESSED        0x80000000u

/* Unpacks from a heap copy of exactly in_len bytes into a block of exactly out_max. */
static int unpack(const uint8_t *in, size_t in_len, uint32_t out_max, uint8_t **out,
                  uint32_t *out_len, const char **why)
{
    uint8_t *copy = malloc(in_len ? in_len : 1);
    memcpy(copy, in, in_len);
    *out = malloc(out_max ? out_max : 1);
    *why = "";
    *out_len = 0xDEAD;
    int r = lz4_unpack(copy, (uint32_t)in_len, *out, out_max, out_len, why);
    free(copy);
    return r;
}

static void assert_refused(const uint8_t *in, size_t in_len, uint32_t out_max,
                           const char *expected)
{
    uint8_t *out;
    uint32_t out_len;
    const char *why;
    int r = unpack(in, in_len, out_max, &out, &out_len, &why);
    free(out);
    if (r != -1 || !strstr(why, expected))
        fail_msg("%d \"%s\", not -1 \"%s\"", r, why, expected);
    assert_int_equal(out_len, 0);
}

/* --- Debian lz4's frames -------------------------------------------------------------- */

struct features {
    unsigned frames, block_checksums, content_sizes, linked, no_content_checksum,
        uncompressed_blocks, compressed_blocks, multi_block, empty;
};

/* What a frame uses, read here independently of lz4.c (the frame format, 2.x). */
static void frame_features(const uint8_t *f, size_t n, struct features *ft)
{
    assert_true(n >= 11);
    uint8_t flg = f[4];
    size_t p = 7 + (flg & FLG_CONTENT_SIZE ? 8 : 0);
    unsigned blocks = 0;
    ft->frames++;
    ft->block_checksums += !!(flg & FLG_BLOCK_CHECKSUM);
    ft->content_sizes += !!(flg & FLG_CONTENT_SIZE);
    ft->linked += !(flg & FLG_INDEPENDENT);
    ft->no_content_checksum += !(flg & FLG_CONTENT_CHECKSUM);
    for (;;) {
        assert_true(p + 4 <= n);
        uint32_t word = le32(f + p);
        p += 4;
        if (!word)
            break;
        blocks++;
        if (word & UNCOMPRESSED)
            ft->uncompressed_blocks++;
        else
            ft->compressed_blocks++;
        p += (word & ~UNCOMPRESSED) + (flg & FLG_BLOCK_CHECKSUM ? 4 : 0);
    }
    ft->multi_block += blocks > 1;
    ft->empty += blocks == 0;
}

static void test_lz4_cli_frames(void **state)
{
    struct features ft = { 0 };
    size_t index_len;
    (void)state;
    char *index = (char *)fixture_read("lz4/index.txt", &index_len);
    char *text = strndup(index, index_len), *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char frame_name[256], payload_name[256];
        assert_int_equal(sscanf(line, "%255s %255s", frame_name, payload_name), 2);
        size_t frame_len, payload_len;
        uint8_t *frame = fixture_read(frame_name, &frame_len);
        uint8_t *payload = fixture_read(payload_name, &payload_len);
        frame_features(frame, frame_len, &ft);
        assert_true(lz4_magic(frame, (uint32_t)frame_len));

        /* Room for exactly the content: it fits. */
        uint8_t *out;
        uint32_t out_len;
        const char *why;
        if (unpack(frame, frame_len, (uint32_t)payload_len, &out, &out_len, &why))
            fail_msg("%s: %s", frame_name, why);
        assert_int_equal(out_len, payload_len);
        assert_memory_equal(out, payload, payload_len);
        free(out);
        /* One byte less: refused, whatever the block holding the last byte. */
        if (payload_len) {
            if (unpack(frame, frame_len, (uint32_t)payload_len - 1, &out, &out_len, &why) != -1 ||
                !strstr(why, "more than the room"))
                fail_msg("%s in %zu bytes: \"%s\"", frame_name, payload_len - 1, why);
            assert_int_equal(out_len, 0);
            free(out);
        }
        free(frame);
        free(payload);
    }
    free(text);
    free(index);
    /* The fixtures must have exercised every feature the decoder has. */
    assert_true(ft.frames >= 60);
    assert_true(ft.block_checksums > 0);
    assert_true(ft.content_sizes > 0);
    assert_true(ft.linked > 0);
    assert_true(ft.no_content_checksum > 0);
    assert_true(ft.uncompressed_blocks > 0);
    assert_true(ft.compressed_blocks > 0);
    assert_true(ft.multi_block > 0);
    assert_true(ft.empty > 0);
}

/* The kernel as iso/mkfloppy.sh packs it. */
static void test_kernel_frame(void **state)
{
    size_t frame_len, elf_len;
    (void)state;
    uint8_t *frame = fixture_read("kernel/apmoff.lz4", &frame_len);
    uint8_t *elf = fixture_read("kernel/apmoff-stripped.elf", &elf_len);
    uint8_t *out;
    uint32_t out_len;
    const char *why;
    assert_int_equal(unpack(frame, frame_len, 0x50000, &out, &out_len, &why), 0);
    assert_int_equal(out_len, elf_len);
    assert_memory_equal(out, elf, elf_len);
    assert_true(frame[4] & FLG_CONTENT_SIZE);
    assert_true(frame[4] & FLG_CONTENT_CHECKSUM);
    free(out);
    free(frame);
    free(elf);
}

/* lz4 -l writes the legacy format, which has another magic number. */
static void test_legacy_refused(void **state)
{
    size_t n;
    (void)state;
    uint8_t *legacy = fixture_read("lz4/legacy.lz4", &n);
    assert_false(lz4_magic(legacy, (uint32_t)n));
    assert_refused(legacy, n, 1 << 16, "not an LZ4 frame");
    free(legacy);
}

/* A frame cut at every byte: refused each time, cleanly. */
static void cut_everywhere(const char *name)
{
    size_t n, payload_len;
    uint8_t *frame = fixture_read(name, &n);
    uint8_t *payload = fixture_read("files/lz4-small", &payload_len);
    for (size_t len = 0; len < n; len++) {
        uint8_t *out;
        uint32_t out_len;
        const char *why;
        if (unpack(frame, len, (uint32_t)payload_len, &out, &out_len, &why) != -1)
            fail_msg("%s cut to %zu of %zu bytes: unpacked", name, len, n);
        assert_int_equal(out_len, 0);
        assert_non_null(why);
        assert_true(why[0]);
        free(out);
    }
    free(frame);
    free(payload);
}

static void test_truncated_everywhere(void **state)
{
    (void)state;
    cut_everywhere("lz4/small.lz4");            /* linked, block checksums, size */
    cut_everywhere("lz4/small-plain.lz4");
    cut_everywhere("lz4/text.nocrc.lz4");       /* no content checksum after the end mark */
}

/* Every byte of a frame changed: either refused or, where the change does not
 * matter, the same content. Never a crash, never other bytes. */
static void test_every_byte_damaged(void **state)
{
    size_t n, payload_len;
    (void)state;
    static const char *const names[] = { "lz4/small.lz4", "lz4/small-plain.lz4" };
    for (size_t k = 0; k < 2; k++) {
        uint8_t *frame = fixture_read(names[k], &n);
        uint8_t *payload = fixture_read("files/lz4-small", &payload_len);
        unsigned refused = 0;
        for (size_t at = 0; at < n; at++) {
            static const uint8_t flips[] = { 0x01, 0x80, 0xFF };
            for (size_t fl = 0; fl < sizeof(flips); fl++) {
                uint8_t *out;
                uint32_t out_len;
                const char *why;
                frame[at] ^= flips[fl];
                int r = unpack(frame, n, (uint32_t)payload_len + 64, &out, &out_len, &why);
                frame[at] ^= flips[fl];
                if (r) {
                    assert_int_equal(out_len, 0);
                    refused++;
                } else if (out_len != payload_len || memcmp(out, payload, payload_len)) {
                    fail_msg("%s, byte %zu ^ %02X: other content accepted", names[k], at,
                             flips[fl]);
                }
                free(out);
            }
        }
        assert_true(refused > n * 3 * 9 / 10);
        free(frame);
        free(payload);
    }
}

/* --- frames made by hand -------------------------------------------------------------- */

struct frame {
    uint8_t b[2048];
    size_t n;
    uint8_t flg;
};

static void put(struct frame *f, const void *p, size_t n)
{
    assert_true(f->n + n <= sizeof(f->b));
    memcpy(f->b + f->n, p, n);
    f->n += n;
}

static void put32(struct frame *f, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(f, b, 4);
}

/* The header: magic, FLG, BD, the content size when FLG says so, the checksum. */
static void header(struct frame *f, uint8_t flg, uint8_t bd, uint64_t size)
{
    f->n = 0;
    f->flg = flg;
    put32(f, 0x184D2204);
    put(f, &flg, 1);
    put(f, &bd, 1);
    if (flg & FLG_CONTENT_SIZE) {
        put32(f, (uint32_t)size);
        put32(f, (uint32_t)(size >> 32));
    }
    uint8_t hc = (uint8_t)(xxh32(f->b + 4, (uint32_t)f->n - 4, 0) >> 8);
    put(f, &hc, 1);
}

static void block(struct frame *f, const void *data, uint32_t len, int uncompressed)
{
    put32(f, len | (uncompressed ? UNCOMPRESSED : 0));
    put(f, data, len);
    if (f->flg & FLG_BLOCK_CHECKSUM)
        put32(f, xxh32(data, len, 0));
}

static void end(struct frame *f, const void *content, uint32_t len)
{
    put32(f, 0);
    if (f->flg & FLG_CONTENT_CHECKSUM)
        put32(f, xxh32(content, len, 0));
}

static void assert_unpacks(const struct frame *f, const void *want, uint32_t want_len)
{
    uint8_t *out;
    uint32_t out_len;
    const char *why;
    if (unpack(f->b, f->n, want_len, &out, &out_len, &why))
        fail_msg("refused: %s", why);
    assert_int_equal(out_len, want_len);
    assert_memory_equal(out, want, want_len);
    free(out);
}

static void test_hand_made_frames(void **state)
{
    struct frame f;
    (void)state;
    /* An uncompressed block; an empty one is fine too. */
    header(&f, FLG_VERSION_01 | FLG_CONTENT_CHECKSUM, BD_64K, 0);
    block(&f, "hello", 5, 1);
    block(&f, "", 0, 1);
    end(&f, "hello", 5);
    assert_unpacks(&f, "hello", 5);

    /* No block at all, with a size of 0. */
    header(&f, FLG_VERSION_01 | FLG_CONTENT_SIZE, BD_64K, 0);
    end(&f, "", 0);
    assert_unpacks(&f, "", 0);

    /* A match that overlaps what it writes: "abc", then 9 bytes from 3 back, then "!". */
    static const uint8_t overlap[] = { 0x35, 'a', 'b', 'c', 3, 0, 0x10, '!' };
    header(&f, FLG_VERSION_01 | FLG_BLOCK_CHECKSUM | FLG_CONTENT_SIZE, BD_64K, 13);
    block(&f, overlap, sizeof(overlap), 0);
    end(&f, NULL, 0);
    assert_unpacks(&f, "abcabcabcabc!", 13);

    /* Lengths continued with 255: 15 + 255 + 10 = 280 literals, a match of
     * 15 + 4 + 255 + 255 + 0 = 529 bytes from 1 back, and the last literal. */
    uint8_t b[400], want[280 + 529 + 1];
    size_t n = 0;
    b[n++] = 0xFF;
    b[n++] = 255;
    b[n++] = 10;
    for (int i = 0; i < 280; i++)
        b[n++] = want[i] = (uint8_t)('a' + i % 26);
    b[n++] = 1;
    b[n++] = 0;
    b[n++] = 255;
    b[n++] = 255;
    b[n++] = 0;
    memset(want + 280, want[279], 529);
    b[n++] = 0x10;
    b[n++] = want[809] = '.';
    header(&f, FLG_VERSION_01 | FLG_CONTENT_CHECKSUM, BD_64K, 0);
    block(&f, b, (uint32_t)n, 0);
    end(&f, want, sizeof(want));
    assert_unpacks(&f, want, sizeof(want));

    /* A match in the second block reaches into the first (linked blocks). */
    static const uint8_t second[] = { 0x01, 5, 0, 0x10, '?' };
    header(&f, FLG_VERSION_01, BD_64K, 0);
    block(&f, "hello", 5, 1);
    block(&f, second, sizeof(second), 0);
    end(&f, NULL, 0);
    assert_unpacks(&f, "hellohello?", 11);
}

/* The frame header: each refusal, with a header checksum that is right, so the
 * refusal is the field's and not the checksum's. */
static void test_header_refusals(void **state)
{
    struct frame f;
    (void)state;
    static const struct {
        uint8_t flg, bd;
        const char *why;
    } bad[] = {
        { 0x00, BD_64K, "version or flags" },           /* version 00 */
        { 0x80, BD_64K, "version or flags" },           /* version 10 */
        { 0xC0, BD_64K, "version or flags" },
        { FLG_VERSION_01 | 0x02, BD_64K, "version or flags" },  /* reserved bit */
        { FLG_VERSION_01, BD_64K | 0x80, "version or flags" },
        { FLG_VERSION_01, BD_64K | 0x01, "version or flags" },
        { FLG_VERSION_01, BD_64K | 0x08, "version or flags" },
        { FLG_VERSION_01 | 0x01, BD_64K, "needs a dictionary" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        header(&f, bad[i].flg, bad[i].bd, 0);
        block(&f, "x", 1, 1);
        end(&f, "x", 1);
        assert_refused(f.b, f.n, 16, bad[i].why);
    }

    /* The checksum byte itself wrong. */
    header(&f, FLG_VERSION_01, BD_64K, 0);
    f.b[6] ^= 1;
    block(&f, "x", 1, 1);
    end(&f, "x", 1);
    assert_refused(f.b, f.n, 16, "header's checksum is wrong");

    /* Too short to be a frame; a header cut inside its content size. */
    header(&f, FLG_VERSION_01, BD_64K, 0);
    assert_refused(f.b, 6, 16, "not an LZ4 frame");
    assert_refused(f.b, 3, 16, "not an LZ4 frame");
    assert_false(lz4_magic(f.b, 3));
    assert_true(lz4_magic(f.b, 4));
    header(&f, FLG_VERSION_01 | FLG_CONTENT_SIZE, BD_64K, 1);
    for (size_t len = 7; len < 15; len++)
        assert_refused(f.b, len, 16, "header is cut short");

    /* A content size past 4 GiB; one that is not the length unpacked. */
    header(&f, FLG_VERSION_01 | FLG_CONTENT_SIZE, BD_64K, 0x100000001ull);
    block(&f, "x", 1, 1);
    end(&f, NULL, 0);
    assert_refused(f.b, f.n, 16, "past 4 GiB");
    static const uint64_t sizes[] = { 0, 2, 0xFFFFFFFF };
    for (size_t i = 0; i < 3; i++) {
        header(&f, FLG_VERSION_01 | FLG_CONTENT_SIZE, BD_64K, sizes[i]);
        block(&f, "x", 1, 1);
        end(&f, NULL, 0);
        assert_refused(f.b, f.n, 16, "not the one its frame header gives");
    }
}

static void test_block_refusals(void **state)
{
    struct frame f;
    (void)state;
    /* No end mark; a block longer than what is left; its checksum missing or wrong. */
    header(&f, FLG_VERSION_01, BD_64K, 0);
    block(&f, "abc", 3, 1);
    assert_refused(f.b, f.n, 16, "no end mark");
    assert_refused(f.b, f.n - 1, 16, "a block runs past the end");
    header(&f, FLG_VERSION_01 | FLG_BLOCK_CHECKSUM, BD_64K, 0);
    block(&f, "abc", 3, 1);
    end(&f, NULL, 0);
    assert_refused(f.b, f.n - 5, 16, "a block runs past the end");
    f.b[f.n - 5] ^= 0x40;                               /* the checksum's last byte */
    assert_refused(f.b, f.n, 16, "a block's checksum is wrong");
    f.b[f.n - 5] ^= 0x40;
    f.b[f.n - 9] ^= 0x01;                               /* the data's last byte */
    assert_refused(f.b, f.n, 16, "a block's checksum is wrong");
    /* A block length whose top bit is the uncompressed flag, the rest huge. */
    header(&f, FLG_VERSION_01, BD_64K, 0);
    put32(&f, 0xFFFFFFFF);
    put32(&f, 0);
    assert_refused(f.b, f.n, 16, "a block runs past the end");

    /* The content checksum missing or wrong. */
    header(&f, FLG_VERSION_01 | FLG_CONTENT_CHECKSUM, BD_64K, 0);
    block(&f, "abc", 3, 1);
    end(&f, "abd", 3);
    assert_refused(f.b, f.n, 16, "content checksum is wrong");
    assert_refused(f.b, f.n - 4, 16, "no content checksum");
    assert_refused(f.b, f.n - 1, 16, "no content checksum");

    /* An uncompressed block with no room for it. */
    header(&f, FLG_VERSION_01, BD_64K, 0);
    block(&f, "abcd", 4, 1);
    end(&f, NULL, 0);
    assert_refused(f.b, f.n, 3, "more than the room");
}

/* Inside a compressed block: each way its sequences can be wrong. */
static void test_sequence_refusals(void **state)
{
    (void)state;
    static const struct {
        uint8_t seq[16];
        uint32_t len, room;
        const char *why;
    } bad[] = {
        { { 0x10, 'a', 1, 0 }, 4, 64, "without its last literals" },
        { { 0xF0 }, 1, 64, "literal length runs past" },
        { { 0xF0, 255, 255 }, 3, 1024, "literal length runs past" },
        { { 0x50, 'a', 'b' }, 3, 64, "literals run past" },
        { { 0xF0, 2, 'a' }, 3, 64, "literals run past" },
        { { 0x30, 'a', 'b', 'c' }, 4, 2, "more than the room" },
        { { 0x10, 'a', 1 }, 3, 64, "offset runs past" },
        { { 0x10, 'a', 0, 0, 0x10, 'b' }, 6, 64, "reaches back before" },
        { { 0x10, 'a', 2, 0, 0x10, 'b' }, 6, 64, "reaches back before" },
        { { 0x00, 1, 0, 0x10, 'b' }, 5, 64, "reaches back before" },
        { { 0x1F, 'a', 1, 0 }, 4, 64, "match length runs past" },
        { { 0x1F, 'a', 1, 0, 255 }, 5, 64, "match length runs past" },
        { { 0x1F, 'a', 1, 0, 0, 0x10, 'b' }, 7, 10, "more than the room" },
        { { 0x10, 'a', 1, 0, 0x10, 'b' }, 6, 4, "more than the room" },    /* the match */
        { { 0x10, 'a', 1, 0, 0x10, 'b' }, 6, 5, "more than the room" },    /* the last literal */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct frame f;
        header(&f, FLG_VERSION_01, BD_64K, 0);
        block(&f, bad[i].seq, bad[i].len, 0);
        end(&f, NULL, 0);
        uint8_t *out;
        uint32_t out_len;
        const char *why;
        int r = unpack(f.b, f.n, bad[i].room, &out, &out_len, &why);
        free(out);
        if (r != -1 || !strstr(why, bad[i].why) || out_len)
            fail_msg("case %zu: %d \"%s\", not -1 \"%s\"", i, r, why, bad[i].why);
    }
    /* The same room plus one byte is enough: the bound is exact. */
    struct frame f;
    static const uint8_t ok[] = { 0x10, 'a', 1, 0, 0x10, 'b' };
    header(&f, FLG_VERSION_01, BD_64K, 0);
    block(&f, ok, sizeof(ok), 0);
    end(&f, NULL, 0);
    assert_unpacks(&f, "aaaaab", 6);
}

/* --- XXH32 ---------------------------------------------------------------------------- */

/* xxHash's own sanity check (xxhsum's BMK_sanityCheck): a 101-byte buffer made by
 * squaring PRIME32_1, hashed whole and in part, with seed 0 and seed PRIME32_1. */
static void test_xxh32_vectors(void **state)
{
    (void)state;
    const uint32_t prime = 2654435761u;
    uint8_t buf[101];
    uint32_t gen = prime;
    for (int i = 0; i < 101; i++) {
        buf[i] = (uint8_t)(gen >> 24);
        gen *= gen;
    }
    static const struct {
        uint32_t len;
        int seeded;
        uint32_t hash;
    } v[] = {
        { 0, 0, 0x02CC5D05 }, { 0, 1, 0x36B78AE7 },
        { 1, 0, 0xB85CBEE5 }, { 1, 1, 0xD5845D64 },
        { 14, 0, 0xE5AA0AB4 }, { 14, 1, 0x4481951D },
        { 101, 0, 0x1F1AA412 }, { 101, 1, 0x498EC8E2 },
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        assert_int_equal(xxh32(buf, v[i].len, v[i].seeded ? prime : 0), v[i].hash);
}

/* lz4's content checksum is XXH32 with seed 0, computed by lz4 itself: every length
 * through the 16-byte stripes, the 4-byte steps and the last bytes. */
static void test_xxh32_against_lz4(void **state)
{
    (void)state;
    static const int lens[] = { 63, 64, 65, 1000 };
    for (int i = 0; i < 41 + 4; i++) {
        int len = i < 41 ? i : lens[i - 41];
        char name[64];
        size_t frame_len, data_len;
        snprintf(name, sizeof(name), "xxh/%d.lz4", len);
        uint8_t *frame = fixture_read(name, &frame_len);
        snprintf(name, sizeof(name), "files/xxh-%d", len);
        uint8_t *data = fixture_read(name, &data_len);
        assert_int_equal(data_len, len);
        assert_true(frame[4] & FLG_CONTENT_CHECKSUM);
        assert_int_equal(xxh32(data, (uint32_t)data_len, 0), le32(frame + frame_len - 4));
        free(frame);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lz4_cli_frames),
        cmocka_unit_test(test_kernel_frame),
        cmocka_unit_test(test_legacy_refused),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_every_byte_damaged),
        cmocka_unit_test(test_hand_made_frames),
        cmocka_unit_test(test_header_refusals),
        cmocka_unit_test(test_block_refusals),
        cmocka_unit_test(test_sequence_refusals),
        cmocka_unit_test(test_xxh32_vectors),
        cmocka_unit_test(test_xxh32_against_lz4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
