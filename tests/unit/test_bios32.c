/* The BIOS32 Service Directory finder (survey/bios32.c) on a made-up E0000h-FFFFFh: a
 * "_32_" off a paragraph boundary and one with a bad sum are passed over; the one whose
 * sum holds is found with its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../lib/le.h"
#include "../../survey/bios32.h"

static uint8_t mem[BIOS32_END];

static void header(uint32_t addr, uint32_t entry, bool good)
{
    uint8_t *p = mem + addr;
    memcpy(p, "_32_", 4);
    put_le32(p + 4, entry);
    p[8] = 0;
    p[9] = 1;
    memset(p + 11, 0, 5);
    p[10] = 0;
    p[10] = (uint8_t)(-fw_sum(p, 16) + (good ? 0 : 1));
}

static void test_find(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, sizeof(mem) };
    struct bios32 b;

    memset(mem, 0, sizeof(mem));
    assert_false(bios32_find(&pm, &b));
    header(0xE0008, 0xE1000, true);     /* not on a paragraph boundary */
    header(0xF0000, 0xF1000, false);    /* a bad sum */
    header(0xFD8A0, 0xFD8B0, true);
    assert_true(bios32_find(&pm, &b));
    assert_int_equal(b.addr, 0xFD8A0);
    assert_int_equal(b.entry, 0xFD8B0);
    assert_int_equal(b.length, 16);
    assert_int_equal(b.revision, 0);
}

static void test_window_too_small(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, 0xF0000 };
    struct bios32 b;

    assert_false(bios32_find(&pm, &b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_window_too_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
