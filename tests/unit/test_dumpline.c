/* action=dump's line (lib/dumpline.c): its shape, and a check that fails when the
 * address or any byte is not what was sent. The reader's side (apmoff-collect) is
 * held to the same lines by its own tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../lib/crc32.h"
#include "../../lib/dumpline.h"

static void test_shape(void **state)
{
    (void)state;
    const uint8_t rom[3] = { 0x55, 0xAA, 0x40 };
    char line[DUMPLINE_MAX];
    char want[64];

    assert_int_equal(dumpline_format(line, 0xC0000, rom, 3), 8 + 1 + 6 + 1 + 8);
    snprintf(want, sizeof(want), "000c0000 55aa40 %08x", dumpline_check(0xC0000, rom, 3));
    assert_string_equal(line, want);
}

/* The check is CRC-32 over the address, little-endian, then the bytes: what a reader
 * with zlib's crc32 computes. */
static void test_check_covers_address_and_bytes(void **state)
{
    (void)state;
    uint8_t bytes[DUMPLINE_BYTES];
    for (unsigned i = 0; i < sizeof(bytes); i++)
        bytes[i] = (uint8_t)(i * 7);
    const uint8_t with_addr[4 + DUMPLINE_BYTES] = { 0x00, 0x00, 0x0F, 0x00 };
    uint8_t all[sizeof(with_addr)];
    memcpy(all, with_addr, 4);
    memcpy(all + 4, bytes, sizeof(bytes));
    uint32_t c = dumpline_check(0xF0000, bytes, sizeof(bytes));
    assert_int_equal(c, crc32(0, all, sizeof(all)));
    assert_int_not_equal(c, dumpline_check(0xF0020, bytes, sizeof(bytes)));
    bytes[31] ^= 1;
    assert_int_not_equal(c, dumpline_check(0xF0000, bytes, sizeof(bytes)));
}

static void test_refuses_bad_lengths(void **state)
{
    (void)state;
    uint8_t bytes[DUMPLINE_BYTES + 1] = { 0 };
    char line[DUMPLINE_MAX + 8];
    assert_int_equal(dumpline_format(line, 0, bytes, 0), 0);
    assert_string_equal(line, "");
    assert_int_equal(dumpline_format(line, 0, bytes, DUMPLINE_BYTES + 1), 0);
    assert_int_equal(dumpline_format(line, 0xFFFFFFE0u, bytes, DUMPLINE_BYTES),
                     DUMPLINE_MAX - 1);
    assert_int_equal(strlen(line), DUMPLINE_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_check_covers_address_and_bytes),
        cmocka_unit_test(test_refuses_bad_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
