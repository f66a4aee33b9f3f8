/* test_json: the JSON writer (lib/json.c) that carries the survey line. Every
 * string a BIOS, SMBIOS or the command line hands us goes through it, so every escape
 * JSON demands is checked: quote, backslash, each control byte, DEL and bytes from
 * 80h up (which are not UTF-8 here: they are written as \u00XX, Latin-1). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/json.h"

static const char *one_string(const char *value, char *buf, unsigned size)
{
    struct json j;
    json_init(&j, buf, size);
    json_string(&j, NULL, value);
    assert_true(json_ok(&j));
    return buf;
}

static void test_plain(void **state)
{
    char buf[64];
    (void)state;
    assert_string_equal(one_string("AcmeBIOS 4.51PG", buf, sizeof(buf)),
                        "\"AcmeBIOS 4.51PG\"");
    assert_string_equal(one_string("", buf, sizeof(buf)), "\"\"");
}

static void test_quote_and_backslash(void **state)
{
    char buf[64];
    (void)state;
    assert_string_equal(one_string("a\"b", buf, sizeof(buf)), "\"a\\\"b\"");
    assert_string_equal(one_string("C:\\DOS\\", buf, sizeof(buf)), "\"C:\\\\DOS\\\\\"");
    assert_string_equal(one_string("\\\"", buf, sizeof(buf)), "\"\\\\\\\"\"");
}

/* Every control byte 01h-1Fh, and DEL, as \u00xx. */
static void test_control_bytes(void **state)
{
    (void)state;
    for (unsigned c = 1; c < 0x20; c++) {
        char in[4] = { 'x', (char)c, 'y', 0 }, buf[32], want[32];
        snprintf(want, sizeof(want), "\"x\\u%04xy\"", c);
        assert_string_equal(one_string(in, buf, sizeof(buf)), want);
    }
    char buf[32];
    assert_string_equal(one_string("\x7f", buf, sizeof(buf)), "\"\\u007f\"");
}

static void test_high_bytes(void **state)
{
    (void)state;
    for (unsigned c = 0x80; c <= 0xFF; c++) {
        char in[2] = { (char)c, 0 }, buf[32], want[32];
        snprintf(want, sizeof(want), "\"\\u%04x\"", c);
        assert_string_equal(one_string(in, buf, sizeof(buf)), want);
    }
}

/* Keys are escaped too, and commas, nesting and every value kind come out right. */
static void test_structure(void **state)
{
    char buf[256];
    struct json j;
    (void)state;
    json_init(&j, buf, sizeof(buf));
    json_object(&j, NULL);
    json_uint(&j, "n", 4294967295u);
    json_bool(&j, "t", true);
    json_bool(&j, "f", false);
    json_null(&j, "z");
    json_hex(&j, "h2", 0x5, 2);
    json_hex(&j, "h4", 0xBEEF, 4);
    json_hex(&j, "h8", 0x20046, 8);
    json_string(&j, "k\"", "v");
    json_array(&j, "a");
    json_string(&j, NULL, "x");
    json_uint(&j, NULL, 0);
    json_object(&j, NULL);
    json_end(&j);
    json_end(&j);
    json_string(&j, "null", NULL);
    json_end(&j);
    assert_true(json_ok(&j));
    assert_string_equal(buf, "{\"n\":4294967295,\"t\":true,\"f\":false,\"z\":null,"
                        "\"h2\":\"0x05\",\"h4\":\"0xBEEF\",\"h8\":\"0x00020046\","
                        "\"k\\\"\":\"v\",\"a\":[\"x\",0,{}],\"null\":\"\"}");
}

/* A line that does not fit, or is unbalanced, is never reported as whole. */
static void test_overflow_and_balance(void **state)
{
    char buf[8];
    struct json j;
    (void)state;
    json_init(&j, buf, sizeof(buf));
    json_object(&j, NULL);
    json_string(&j, "key", "value");
    json_end(&j);
    assert_false(json_ok(&j));
    assert_true(strlen(buf) < sizeof(buf));

    char big[64];
    json_init(&j, big, sizeof(big));
    json_object(&j, NULL);
    assert_false(json_ok(&j));          /* still open */
    json_end(&j);
    assert_true(json_ok(&j));
    json_end(&j);                       /* one end too many */
    assert_false(json_ok(&j));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_quote_and_backslash),
        cmocka_unit_test(test_control_bytes),
        cmocka_unit_test(test_high_bytes),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_overflow_and_balance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
