/* survey/romid.c: the ROM's CRC-32 and its banner strings, from synthetic ROMs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../lib/crc32.h"
#include "../../survey/romid.h"

static uint8_t rom[0x20000];

static void put(size_t at, const char *s)
{
    memcpy(rom + at, s, strlen(s));
}

static void test_banners_found(void **state)
{
    struct rom_id id;
    (void)state;
    for (size_t i = 0; i < sizeof(rom); i++)
        rom[i] = (uint8_t)(i * 131 >> 3 | 0x80);        /* no printable runs */
    put(0x1000, "  Award Modular BIOS v4.51PG, An Energy Star Ally  ");
    put(0x1100, "Copyright (C) 1984-96, Award Software, Inc.");
    put(0x1200, "Press DEL to enter SETUP");          /* printable, but no vendor mark */
    put(0x1300, "Award Modular BIOS v4.51PG, An Energy Star Ally");     /* again */
    put(0x1400, "AMI");                                /* too short */
    romid_scan(rom, sizeof(rom), &id);
    assert_int_equal(id.count, 2);
    assert_string_equal(id.strings[0], "Award Modular BIOS v4.51PG, An Energy Star Ally");
    assert_string_equal(id.strings[1], "Copyright (C) 1984-96, Award Software, Inc.");
    assert_int_equal(id.crc32, crc32(0, rom, sizeof(rom)));
}

/* A BIOS's printf templates are messages, not its identity (SeaBIOS has both kinds);
 * a '%' that starts no conversion is kept. */
static void test_templates_skipped(void **state)
{
    struct rom_id id;
    (void)state;
    memset(rom, 0, sizeof(rom));
    put(0x100, "SeaBIOS (version %s)");
    put(0x200, "Insufficient space (%d bytes) to add SMBIOS type 0 table");
    put(0x300, "SeaBIOS at %-8.3lx here");
    put(0x400, "XenHVMSeaBIOS");
    put(0x500, "Award BIOS 100% compatible");
    romid_scan(rom, sizeof(rom), &id);
    assert_int_equal(id.count, 2);
    assert_string_equal(id.strings[0], "XenHVMSeaBIOS");
    assert_string_equal(id.strings[1], "Award BIOS 100% compatible");
}

static void test_limits(void **state)
{
    struct rom_id id;
    char long_banner[200];
    (void)state;
    memset(rom, 0, sizeof(rom));
    memset(long_banner, 'x', sizeof(long_banner) - 1);
    long_banner[sizeof(long_banner) - 1] = '\0';
    memcpy(long_banner, "AMIBIOS ", 8);
    put(0x10, long_banner);
    for (int i = 0; i < 8; i++) {
        char s[40];
        snprintf(s, sizeof(s), "Phoenix BIOS release %d", i);
        put(0x400 + (size_t)i * 64, s);
    }
    romid_scan(rom, sizeof(rom), &id);
    assert_int_equal(id.count, ROMID_STRINGS_MAX);
    assert_int_equal(strlen(id.strings[0]), ROMID_STRING_MAX);
    assert_string_equal(id.strings[1], "Phoenix BIOS release 0");

    memset(rom, 0, sizeof(rom));
    put(sizeof(rom) - 18, "(C) IBM at the end");
    romid_scan(rom, sizeof(rom), &id);
    assert_int_equal(id.count, 1);
    assert_string_equal(id.strings[0], "(C) IBM at the end");
}

/* Fed a piece at a time (the kernel copies the ROM to RAM in 4 KiB pieces), with runs
 * cut across the pieces' ends, the same identity as the whole ROM at once. */
static void test_pieces(void **state)
{
    struct rom_id whole, pieces;
    struct romid_scan r;
    (void)state;
    for (size_t i = 0; i < sizeof(rom); i++)
        rom[i] = (uint8_t)(i * 131 >> 3 | 0x80);
    put(0x0FF0, "Award Modular BIOS v4.51PG, An Energy Star Ally");   /* across 1000h */
    put(0x1FFA, "  PCI BIOS 2.10 for this board  ");                   /* weak, across */
    put(0x3000, "Copyright (C) 1984-96, Award Software, Inc.");
    romid_scan(rom, sizeof(rom), &whole);
    for (size_t step = 1; step <= 0x1001; step += 0x1000 / 3) {
        romid_start(&r, &pieces);
        for (size_t at = 0; at < sizeof(rom); at += step)
            romid_feed(&r, rom + at, at + step > sizeof(rom) ? sizeof(rom) - at : step);
        romid_finish(&r);
        assert_memory_equal(&pieces, &whole, sizeof(whole));
    }
    assert_int_equal(whole.count, 3);
    assert_string_equal(whole.strings[2], "PCI BIOS 2.10 for this board");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_banners_found),
        cmocka_unit_test(test_templates_skipped),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
