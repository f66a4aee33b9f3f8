/* lib/format.c: the kernel's small snprintf, checked against the C library's for
 * every conversion it claims to share (format.h: "the subset matches the C
 * library's meaning"), plus truncation and termination, which every say() line and
 * every report buffer rely on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/format.h"

/* Formats with both and compares text and return value. Both see the same
 * arguments through va_copy; the format attribute makes the compiler check them. */
__attribute__((format(printf, 1, 2)))
static void same(const char *fmt, ...)
{
    char want[256], got[256];
    va_list ap, aq;

    va_start(ap, fmt);
    va_copy(aq, ap);
    int want_n = vsnprintf(want, sizeof(want), fmt, ap);
    int got_n = fmt_vsnprintf(got, sizeof(got), fmt, aq);
    va_end(aq);
    va_end(ap);
    if (strcmp(got, want) || got_n != want_n)
        fail_msg("format \"%s\": got \"%s\" (%d), libc \"%s\" (%d)", fmt, got, got_n,
                 want, want_n);
}

static void test_strings(void **state)
{
    (void)state;
    same("%s", "");
    same("%s", "hello");
    same("[%s|%s]", "a", "bc");
    same("%8s", "apm");
    same("%3s", "longer than width");
    same("%1s", "");
    same("no conversion at all");
}

static void test_null_string(void **state)
{
    char buf[16];
    const char *volatile null = NULL;   /* hidden from -Wformat-overflow */
    (void)state;
    assert_int_equal(fmt_snprintf(buf, sizeof(buf), "[%s]", null), 8);
    assert_string_equal(buf, "[(null)]");
}

static void test_chars(void **state)
{
    (void)state;
    same("%c", 'x');
    same("%c%c%c", 'a', 'P', 'M');
    same("[%3c]", 'y');
    same("[%1c]", 'z');
}

static void test_signed(void **state)
{
    (void)state;
    same("%d", 0);
    same("%d", 1);
    same("%d", -1);
    same("%d", 42);
    same("%d", -42);
    same("%d", INT_MAX);
    same("%d", INT_MIN);
    same("[%5d]", 42);
    same("[%5d]", -42);
    same("[%05d]", 42);
    same("[%05d]", -42);
    same("[%05d]", INT_MIN);
    same("[%2d]", 12345);
    same("[%02d]", -7);
    same("[%03d]", -7);
    same("[%0d]", 0);
}

static void test_unsigned(void **state)
{
    (void)state;
    same("%u", 0u);
    same("%u", 100u);
    same("%u", UINT_MAX);
    same("[%8u]", 1234u);
    same("[%08u]", 1234u);
    same("%u%%", 100u);
}

static void test_hex(void **state)
{
    (void)state;
    same("%x", 0u);
    same("%X", 0u);
    same("%x", 0xDEADBEEFu);
    same("%X", 0xDEADBEEFu);
    same("%04Xh", 0x5307u);
    same("%02Xh", 0x5u);
    same("%02Xh", 0x1ABu);
    same("%08X", 0xFFFF0u);
    same("[%8x]", 0xabcu);
    same("%X", UINT_MAX);
}

static void test_percent(void **state)
{
    (void)state;
    same("%%");
    same("100%%");
    same("%%d %d", 5);
    same("%d%%%s", 7, "x");
}

/* What the kernel prints, as it prints it. */
static void test_kernel_lines(void **state)
{
    (void)state;
    same("%s: %04Xh %s%s%s%s", "rm", 0x5307u, "set power state", " (", "BX=0001h", ")");
    same("APM %X.%X BIOS, signature %s, flags %04Xh: %s", 1u, 2u, "PM", 3u, "none");
    same("power: battery life %u%%, %u %s", 100u, 90u, "minutes");
    same("warning: boot magic %08Xh is not multiboot's", 0x2BADB002u);
}

/* %p: "0x" and eight hex digits, the kernel's i386 pointer (libc's differs). */
static void test_pointer(void **state)
{
    char buf[32];
    (void)state;
    fmt_snprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0x1234);
    assert_string_equal(buf, "0x00001234");
    fmt_snprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0xB8000);
    assert_string_equal(buf, "0x000b8000");
}

/* An unknown conversion is shown as written; a '%' at the end stops cleanly. */
static void test_unknown_conversions(void **state)
{
    char buf[32];
    const char *volatile fmt_q = "a%qb";
    const char *volatile fmt_end = "abc%";
    (void)state;
    assert_int_equal(fmt_snprintf(buf, sizeof(buf), fmt_q), 4);
    assert_string_equal(buf, "a%qb");
    assert_int_equal(fmt_snprintf(buf, sizeof(buf), fmt_end), 3);
    assert_string_equal(buf, "abc");
}

/* Truncation: the text is cut to size - 1 and terminated, nothing past size is
 * written, and the return value is the full length (as C's snprintf). */
static void test_truncation(void **state)
{
    char buf[16];
    (void)state;
    for (size_t size = 1; size <= 10; size++) {
        char want[16];
        memset(buf, 'X', sizeof(buf));
        int n = fmt_snprintf(buf, size, "%s-%d-%04X", "apm", -12, 0x5307u);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"   /* truncating is the point */
        int wn = snprintf(want, size, "%s-%d-%04X", "apm", -12, 0x5307u);
#pragma GCC diagnostic pop
        assert_int_equal(n, wn);
        assert_int_equal(n, 12);
        assert_string_equal(buf, want);
        assert_int_equal(strlen(buf), size - 1);
        for (size_t i = size; i < sizeof(buf); i++)
            assert_int_equal(buf[i], 'X');
    }
}

/* Exactly fitting, and one short. */
static void test_fit(void **state)
{
    char buf[8];
    (void)state;
    assert_int_equal(fmt_snprintf(buf, 8, "%s", "1234567"), 7);
    assert_string_equal(buf, "1234567");
    assert_int_equal(fmt_snprintf(buf, 8, "%s", "12345678"), 8);
    assert_string_equal(buf, "1234567");
    assert_int_equal(fmt_snprintf(buf, 8, "%08X", 0xABCu), 8);
    assert_string_equal(buf, "00000AB");
}

/* Size 0 writes nothing at all, not even the terminator. */
static void test_size_zero(void **state)
{
    char buf[4] = { 'X', 'X', 'X', 'X' };
    (void)state;
    assert_int_equal(fmt_snprintf(buf, 0, "%d", 12345), 5);
    assert_int_equal(buf[0], 'X');
    assert_int_equal(fmt_snprintf(NULL, 0, "%s", "abc"), 3);
}

/* A width larger than the buffer is cut like any other text. */
static void test_width_beyond_buffer(void **state)
{
    char buf[6];
    (void)state;
    assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%40d", 7), 40);
    assert_string_equal(buf, "     ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_null_string),
        cmocka_unit_test(test_chars),
        cmocka_unit_test(test_signed),
        cmocka_unit_test(test_unsigned),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_kernel_lines),
        cmocka_unit_test(test_pointer),
        cmocka_unit_test(test_unknown_conversions),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_size_zero),
        cmocka_unit_test(test_width_beyond_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
