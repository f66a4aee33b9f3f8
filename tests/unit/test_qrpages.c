/* survey/qrpages.c and lib/crc32.c: the survey line cut into numbered QR symbols
 * that join back to it exactly, each small enough for 4-pixel modules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/crc32.h"
#include "../../survey/qrpages.h"

static void test_crc32_check_value(void **state)
{
    (void)state;
    /* The catalogue's check value of CRC-32/ISO-HDLC. */
    assert_int_equal(crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
    assert_int_equal(crc32(0, (const uint8_t *)"", 0), 0);
    /* in two pieces, the same */
    assert_int_equal(crc32(crc32(0, (const uint8_t *)"1234", 4), (const uint8_t *)"56789", 5),
                     0xCBF43926u);
}

/* Pages of every length from 0 to 3 KB join back to the line and fit version 22. */
static void test_pages_join_back(void **state)
{
    static char line[3200], joined[3200], page[1024];
    static uint8_t modules[QR_BUFFER_LEN], work[QR_BUFFER_LEN];
    size_t room = (size_t)qr_capacity(QRPAGES_VERSION_MAX, QRPAGES_ECC);
    (void)state;
    for (size_t i = 0; i < sizeof(line); i++)
        line[i] = (char)(' ' + (i * 7 + i / 13) % 95);
    for (size_t len = 0; len <= 3100; len += len < 40 ? 1 : 97) {
        struct qr_pages p;
        assert_true(qr_pages_plan(line, len, &p));
        size_t at = 0;
        for (unsigned i = 0; i < p.count; i++) {
            size_t n = qr_page_text(line, len, &p, i, page, sizeof(page));
            assert_true(n <= room);
            char head[32];
            int h = snprintf(head, sizeof(head), "APMOFF1 %u/%u %08X ", i + 1, p.count,
                             (unsigned)crc32(0, (const uint8_t *)line, len));
            assert_memory_equal(page, head, (size_t)h);
            memcpy(joined + at, page + h, n - (size_t)h);
            at += n - (size_t)h;
        }
        assert_int_equal(at, len);
        assert_memory_equal(joined, line, len);
        if (len == 3100) {
            /* the biggest page still encodes at version 22 or below */
            size_t n = qr_page_text(line, len, &p, 0, page, sizeof(page));
            int size = qr_encode_ex((const uint8_t *)page, n, QRPAGES_ECC, 1, 0, modules,
                                    work);
            assert_true(size > 0 && size <= QR_SIZE(QRPAGES_VERSION_MAX));
        }
    }
}

/* Pages carry equal shares, so every symbol of a line has the same size. */
static void test_pages_even(void **state)
{
    static char line[1900];
    struct qr_pages p;
    (void)state;
    memset(line, 'x', sizeof(line));
    assert_true(qr_pages_plan(line, sizeof(line), &p));
    assert_int_equal(p.count, 3);
    assert_int_equal(p.chunk, 634);
}

static void test_too_long(void **state)
{
    struct qr_pages p;
    char *big = calloc(1, 20000);
    (void)state;
    assert_false(qr_pages_plan(big, 20000, &p));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32_check_value),
        cmocka_unit_test(test_pages_join_back),
        cmocka_unit_test(test_pages_even),
        cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
