/* The flash probe (survey/flash.c) on a made-up top of the address space: a 256 KiB
 * part with nothing decoded below it (QEMU's 00h, a real bus's FFh), a 128 KiB part the
 * chipset decodes twice, a part whose top 64 KiB repeat only inside it, and a window
 * too small to probe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../survey/flash.h"

#define SPAN    (FLASH_MAX + 2 * FLASH_PROBE)   /* the top of the space the probe reads */

static uint8_t *mem;                            /* mem[0] is 4 GiB - SPAN */

static struct physmem window(void)
{
    return (struct physmem){ (uintptr_t)mem - (uintptr_t)(PHYSMEM_4G - SPAN), PHYSMEM_4G };
}

static uint8_t *at(uint32_t below_4g)
{
    return mem + SPAN - below_4g;
}

/* size bytes of a part ending at 4 GiB, each 64 KiB different from the others. */
static void part(uint32_t size)
{
    uint8_t *p = at(size);
    for (uint32_t i = 0; i < size; i++)
        p[i] = (uint8_t)((i * 2654435761u) >> 24);
}

static int setup(void **state)
{
    (void)state;
    mem = malloc(SPAN);
    return mem ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(mem);
    return 0;
}

static void test_blank_below(void **state)
{
    (void)state;
    struct physmem pm = window();
    struct flash_probe f;
    char text[64];

    memset(mem, 0x00, SPAN);
    part(256 * 1024);
    assert_int_equal(flash_probe(&pm, &f), FLASH_BLANK);
    assert_int_equal(f.size, 256 * 1024);
    assert_int_equal(f.base, 0xFFFC0000u);
    assert_int_equal(f.blank, 0x00);
    memset(mem, 0xFF, SPAN);
    part(256 * 1024);
    assert_int_equal(flash_probe(&pm, &f), FLASH_BLANK);
    assert_string_equal(flash_end_text(&f, text, sizeof(text)), "below it the bus reads FFh");
}

static void test_alias(void **state)
{
    (void)state;
    struct physmem pm = window();
    struct flash_probe f;

    part(128 * 1024);
    for (uint32_t below = 256 * 1024; below <= SPAN; below += 128 * 1024)
        memcpy(at(below), at(128 * 1024), 128 * 1024);
    assert_int_equal(flash_probe(&pm, &f), FLASH_ALIAS);
    assert_int_equal(f.size, 128 * 1024);
}

static void test_no_end(void **state)
{
    (void)state;
    struct physmem pm = window();
    struct flash_probe f;
    char text[64];

    part(SPAN);
    assert_int_equal(flash_probe(&pm, &f), FLASH_UNKNOWN);
    assert_int_equal(f.size, 0);
    assert_string_equal(flash_end_text(&f, text, sizeof(text)), "no end seen within 16 MiB");
    struct physmem small = { (uintptr_t)mem, SPAN };
    assert_int_equal(flash_probe(&small, &f), FLASH_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blank_below),
        cmocka_unit_test(test_alias),
        cmocka_unit_test(test_no_end),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
