/* SHA-256 (lib/sha256.c) against FIPS 180-2's examples and the million a's, fed whole
 * and in pieces that straddle the 64-byte blocks and the padding's edge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../lib/sha256.h"

static void digest_of(const void *data, size_t len, size_t piece, char hex[65])
{
    struct sha256 s;
    uint8_t d[SHA256_DIGEST];
    const uint8_t *p = data;

    sha256_start(&s);
    for (size_t at = 0; at < len; at += piece)
        sha256_feed(&s, p + at, len - at < piece ? len - at : piece);
    sha256_finish(&s, d);
    sha256_hex(d, hex);
}

static void test_fips_examples(void **state)
{
    (void)state;
    static const char two_blocks[] =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char hex[65];

    digest_of("", 0, 1, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest_of("abc", 3, 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (size_t piece = 1; piece <= sizeof(two_blocks); piece++) {
        digest_of(two_blocks, sizeof(two_blocks) - 1, piece, hex);
        assert_string_equal(hex,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }
}

/* Lengths around the padding's edge: 55 bytes end in one block, 56 need two. */
static void test_padding_edges(void **state)
{
    (void)state;
    uint8_t a[64];
    char whole[65], bytewise[65];
    memset(a, 'a', sizeof(a));
    for (size_t len = 54; len <= 64; len++) {
        digest_of(a, len, len ? len : 1, whole);
        digest_of(a, len, 1, bytewise);
        assert_string_equal(whole, bytewise);
    }
    digest_of(a, 55, 55, whole);
    assert_string_equal(whole, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    digest_of(a, 56, 56, whole);
    assert_string_equal(whole, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

static void test_a_million_as(void **state)
{
    (void)state;
    static uint8_t a[1000000];
    char hex[65];
    memset(a, 'a', sizeof(a));
    digest_of(a, sizeof(a), 4093, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_examples),
        cmocka_unit_test(test_padding_edges),
        cmocka_unit_test(test_a_million_as),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
