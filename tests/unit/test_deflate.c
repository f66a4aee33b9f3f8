/* survey/deflate.c and survey/base45.c: every stream the writer makes must inflate,
 * with zlib's own inflater and the same preset dictionary, to the input byte for
 * byte; the wrapper must carry the dictionary's Adler-32; Base45 must give RFC
 * 9285's own examples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "../../survey/base45.h"
#include "../../survey/deflate.h"

static struct deflate_work work;
static uint8_t out[8192];

static const char dict[] = "{\"schema\":1,\"firmware\":\"bios\",\"cpu\":{\"class\":\"cpuid\"},"
                           "\"apm\":{\"present\":true,\"steps\":\"rm:5300=ok,rm:5304=ok\"}}";

/* Inflates with zlib, giving it the dictionary when it asks; returns the length. */
static size_t inflate_with(const uint8_t *z, size_t n, const uint8_t *d, size_t dn,
                           uint8_t *plain, size_t size)
{
    z_stream s;
    memset(&s, 0, sizeof(s));
    assert_int_equal(inflateInit(&s), Z_OK);
    s.next_in = (uint8_t *)z;
    s.avail_in = (uInt)n;
    s.next_out = plain;
    s.avail_out = (uInt)size;
    int r = inflate(&s, Z_FINISH);
    if (r == Z_NEED_DICT) {
        assert_int_equal(s.adler, zlib_adler32(d, dn));
        assert_int_equal(inflateSetDictionary(&s, d, (uInt)dn), Z_OK);
        r = inflate(&s, Z_FINISH);
    }
    assert_int_equal(r, Z_STREAM_END);
    assert_int_equal(s.avail_in, 0);    /* nothing after the Adler-32 */
    size_t got = size - s.avail_out;
    inflateEnd(&s);
    return got;
}

static void round_trip(const uint8_t *d, size_t dn, const uint8_t *in, size_t n)
{
    static uint8_t plain[16384];
    size_t z = zlib_compress_dict(d, dn, in, n, out, sizeof(out), &work);
    assert_true(z > 0);
    assert_int_equal(inflate_with(out, z, d, dn, plain, sizeof(plain)), n);
    assert_memory_equal(plain, in, n);
}

static void test_survey_like_line(void **state)
{
    const char *line = "{\"schema\":1,\"firmware\":\"bios\",\"cpu\":{\"class\":\"486\"},"
                       "\"apm\":{\"present\":true,\"steps\":\"rm:5300=ok,rm:5304=ok,"
                       "rm:5301=ok,rm:5307=60,pm32:5307=60\"}}";
    (void)state;
    round_trip((const uint8_t *)dict, strlen(dict), (const uint8_t *)line, strlen(line));
    /* the dictionary must pay: far shorter than the line */
    size_t z = zlib_compress_dict((const uint8_t *)dict, strlen(dict),
                                  (const uint8_t *)line, strlen(line), out, sizeof(out),
                                  &work);
    assert_true(z * 2 < strlen(line));
}

/* Every byte value, long runs (matches of 258 and of the longest distances), and
 * random data that hardly matches at all. */
static void test_hostile_inputs(void **state)
{
    static uint8_t in[12000];
    (void)state;
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)i;
    round_trip((const uint8_t *)dict, strlen(dict), in, 256);
    memset(in, 'a', sizeof(in));
    round_trip((const uint8_t *)dict, strlen(dict), in, sizeof(in));
    srand(7);
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)rand();
    round_trip((const uint8_t *)dict, strlen(dict), in, 7000);  /* grows: 8 KiB out */
    round_trip((const uint8_t *)dict, strlen(dict), in, 0);
    round_trip(0, 0, in, 1000);
}

static void test_limits(void **state)
{
    static uint8_t in[DEFLATE_WINDOW_MAX];
    (void)state;
    memset(in, 'x', sizeof(in));
    /* dictionary and input beyond the window: refused, not cut */
    assert_int_equal(zlib_compress_dict((const uint8_t *)dict, strlen(dict), in,
                                        sizeof(in), out, sizeof(out), &work), 0);
    /* an output buffer too small: refused */
    for (size_t i = 0; i < 4000; i++)
        in[i] = (uint8_t)rand();
    assert_int_equal(zlib_compress_dict(0, 0, in, 4000, out, 100, &work), 0);
}

static void test_adler32(void **state)
{
    (void)state;
    assert_int_equal(zlib_adler32((const uint8_t *)"Wikipedia", 9), 0x11E60398);
    assert_int_equal(zlib_adler32((const uint8_t *)"Wikipedia", 9), adler32(1, (const Bytef *)"Wikipedia", 9));
    assert_int_equal(zlib_adler32((const uint8_t *)"", 0), 1);
}

/* RFC 9285, section 4.3's examples. */
static void test_base45(void **state)
{
    char text[64];
    (void)state;
    assert_int_equal(base45_encode((const uint8_t *)"AB", 2, text, sizeof(text)), 3);
    assert_string_equal(text, "BB8");
    base45_encode((const uint8_t *)"Hello!!", 7, text, sizeof(text));
    assert_string_equal(text, "%69 VD92EX0");
    base45_encode((const uint8_t *)"base-45", 7, text, sizeof(text));
    assert_string_equal(text, "UJCLQE7W581");
    assert_int_equal(base45_encode((const uint8_t *)"AB", 2, text, 3), 0);  /* no room */
    assert_int_equal(BASE45_LEN(7), 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_survey_like_line),
        cmocka_unit_test(test_hostile_inputs),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_adler32),
        cmocka_unit_test(test_base45),
    };
    return cmocka_run_group_tests_name("deflate", tests, NULL, NULL);
}
