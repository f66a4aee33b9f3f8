/* The option ROM finder (survey/optionrom.c) on a made-up C0000h-EFFFFh: a video BIOS,
 * a network boot ROM with a bad sum, a 55h AAh inside a ROM that is not another one, a
 * header whose length runs past EFFFFh, and in the system BIOS's E-segment a ROM whose
 * sum holds beside a 55h AAh of the BIOS's own code whose sum does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../survey/optionrom.h"

static uint8_t mem[OPTIONROM_END];

static void rom_at(uint32_t addr, unsigned blocks, bool good)
{
    uint8_t *p = mem + addr;
    uint32_t room = OPTIONROM_END - addr, len = blocks * 512u;
    memset(p, 0x90, len < room ? len : room);
    p[0] = 0x55;
    p[1] = 0xAA;
    p[2] = (uint8_t)blocks;
    if (len > 0x803 && room > 0x803) {
        p[0x800] = 0x55;            /* a signature inside, on a 2 KiB boundary, is no */
        p[0x801] = 0xAA;            /* ROM of its own */
        p[0x802] = 4;
    }
    if (len > room)
        return;                     /* a header that runs past EFFFFh: no sum to set */
    p[blocks * 512u - 1] = 0;
    p[blocks * 512u - 1] = (uint8_t)(good ? -fw_sum(p, blocks * 512u) : 1 - fw_sum(p, blocks * 512u));
}

static void test_scan(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, sizeof(mem) };
    struct option_rom r[OPTIONROM_MAX];

    memset(mem, 0xFF, sizeof(mem));
    rom_at(0xC0000, 64, true);      /* 32 KiB video BIOS */
    rom_at(0xC8000, 5, false);      /* 2.5 KiB: the next look is at C9000h */
    rom_at(0xD8000, 255, true);     /* says 127.5 KiB, 96 KiB left before F0000h */
    unsigned n = optionrom_scan(&pm, r, OPTIONROM_MAX);
    assert_int_equal(n, 3);
    assert_int_equal(r[0].addr, 0xC0000);
    assert_int_equal(r[0].length, 32768);
    assert_true(r[0].sum_ok);
    assert_int_equal(r[1].addr, 0xC8000);
    assert_int_equal(r[1].length, 2560);
    assert_false(r[1].sum_ok);
    assert_int_equal(r[2].addr, 0xD8000);
    assert_true(r[2].cut);
    assert_int_equal(r[2].length, 0x18000);
    assert_false(r[2].sum_ok);
    assert_int_equal(optionrom_scan(&pm, r, 1), 1);
}

static void test_e_segment(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, sizeof(mem) };
    struct option_rom r[OPTIONROM_MAX];

    memset(mem, 0xFF, sizeof(mem));
    rom_at(0xE0000, 8, true);       /* a 4 KiB ROM whose sum holds: taken */
    rom_at(0xE8000, 4, false);      /* the BIOS's own bytes: not a ROM */
    rom_at(0xEF800, 16, true);      /* runs past EFFFFh, so no sum can hold */
    unsigned n = optionrom_scan(&pm, r, OPTIONROM_MAX);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].addr, 0xE0000);
    assert_true(r[0].sum_ok);
}

static void test_window_too_small(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, 0xD0000 };
    struct option_rom r[OPTIONROM_MAX];
    assert_int_equal(optionrom_scan(&pm, r, OPTIONROM_MAX), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_e_segment),
        cmocka_unit_test(test_window_too_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
