/* survey/smbios.c: SMBIOS entry points and structure tables, good and hostile.
 *
 * "Physical memory" is a heap block of exactly MEM_SIZE bytes and the window given
 * to the parser ends at its end, so AddressSanitizer flags any read the parser's
 * bounds let past it. Entry points go in the F segment as on a PC; tables go where
 * each test needs them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/smbios.h"

#define MEM_SIZE        0x100000u
#define EP_AT           0xF0010u
#define EP3_AT          0xF0100u
#define TABLE           0x80000u

static uint8_t *mem;
static struct physmem pm;
static struct smbios_info info;
static uint32_t tbl_at, tbl_off;        /* the table being built */
static uint16_t handle;

static int setup(void **state)
{
    (void)state;
    mem = calloc(1, MEM_SIZE);
    pm = (struct physmem){ (uintptr_t)mem, MEM_SIZE };
    memset(&info, 0xA5, sizeof(info));  /* the parser must clear what it does not set */
    tbl_at = TABLE;
    tbl_off = 0;
    handle = 0;
    return mem ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(mem);
    return 0;
}

static void put16(uint32_t at, uint16_t v)
{
    mem[at] = (uint8_t)v;
    mem[at + 1] = (uint8_t)(v >> 8);
}

static void put32(uint32_t at, uint32_t v)
{
    put16(at, (uint16_t)v);
    put16(at + 2, (uint16_t)(v >> 16));
}

static void put64(uint32_t at, uint64_t v)
{
    put32(at, (uint32_t)v);
    put32(at + 4, (uint32_t)(v >> 32));
}

/* Sets the byte at `fix` so that the n bytes from `at` sum to 0. */
static void checksum(uint32_t at, uint32_t n, uint32_t fix)
{
    uint8_t sum = 0;
    mem[fix] = 0;
    for (uint32_t i = 0; i < n; i++)
        sum = (uint8_t)(sum + mem[at + i]);
    mem[fix] = (uint8_t)-sum;
}

static void put_dmi(uint32_t at, uint32_t table, uint16_t len, uint16_t count, uint8_t bcd)
{
    memcpy(mem + at, "_DMI_", 5);
    put16(at + 6, len);
    put32(at + 8, table);
    put16(at + 12, count);
    mem[at + 14] = bcd;
    checksum(at, 15, at + 5);
}

static void put_ep2(uint32_t at, uint32_t table, uint16_t len, uint16_t count,
                    uint8_t major, uint8_t minor)
{
    memcpy(mem + at, "_SM_", 4);
    mem[at + 5] = 0x1F;
    mem[at + 6] = major;
    mem[at + 7] = minor;
    put16(at + 8, 0x80);                /* largest structure */
    put_dmi(at + 16, table, len, count, (uint8_t)(major << 4 | minor));
    checksum(at, 0x1F, at + 4);
}

static void put_ep3(uint32_t at, uint64_t table, uint32_t max_size, uint8_t major,
                    uint8_t minor)
{
    memcpy(mem + at, "_SM3_", 5);
    mem[at + 6] = 0x18;
    mem[at + 7] = major;
    mem[at + 8] = minor;
    mem[at + 9] = 1;                    /* docrev */
    mem[at + 10] = 1;                   /* entry point revision */
    put32(at + 12, max_size);
    put64(at + 16, table);
    checksum(at, 0x18, at + 5);
}

/* Appends a structure: header, `extra` formatted bytes, then the strings (each
 * terminated) and the set's final NUL; a structure without strings ends in two. */
static void add(uint8_t type, const uint8_t *extra, uint8_t n_extra, const char *const *strs,
                int n_strs)
{
    uint8_t *p = mem + tbl_at + tbl_off;
    p[0] = type;
    p[1] = (uint8_t)(4 + n_extra);
    p[2] = (uint8_t)handle;
    p[3] = (uint8_t)(handle++ >> 8);
    if (n_extra)
        memcpy(p + 4, extra, n_extra);
    tbl_off += 4u + n_extra;
    for (int i = 0; i < n_strs; i++) {
        size_t len = strlen(strs[i]) + 1;
        memcpy(mem + tbl_at + tbl_off, strs[i], len);
        tbl_off += (uint32_t)len;
    }
    if (!n_strs)
        mem[tbl_at + tbl_off++] = 0;
    mem[tbl_at + tbl_off++] = 0;
}

/* Type 0: vendor 1, version 2, date 3, as the strings give them. */
static void add_bios(const char *vendor, const char *version, const char *date)
{
    const uint8_t f[14] = { 1, 2, 0x00, 0xE0, 3, 0x07 };
    const char *const s[] = { vendor, version, date };
    add(0, f, sizeof(f), s, 3);
}

static void add_system(const char *vendor, const char *product, const char *version)
{
    const uint8_t f[4] = { 1, 2, 3, 0 };
    const char *const s[] = { vendor, product, version };
    add(1, f, sizeof(f), s, 3);
}

static void add_end(void)
{
    add(127, NULL, 0, NULL, 0);
}

/* A typical table: BIOS, system, a processor, end. Returns its length. */
static uint32_t typical_table(void)
{
    const uint8_t cpu[22] = { 1, 3 };
    const char *const cpu_s[] = { "Socket 7" };
    add_bios("Award Software, Inc.", "ASUS P5A-B ACPI BIOS Revision 1011", "07/15/99");
    add_system("ASUSTeK Computer INC.", "P5A-B", "REV 1.xx");
    add(4, cpu, sizeof(cpu), cpu_s, 1);
    add_end();
    return tbl_off;
}

static void scan(void)
{
    smbios_scan(&info, &pm, SMBIOS_SCAN_START, SMBIOS_SCAN_END);
}

static void assert_typical_strings(void)
{
    assert_true(info.have_bios);
    assert_string_equal(info.bios_vendor, "Award Software, Inc.");
    assert_string_equal(info.bios_version, "ASUS P5A-B ACPI BIOS Revision 1011");
    assert_string_equal(info.bios_date, "07/15/99");
    assert_true(info.have_system);
    assert_string_equal(info.sys_vendor, "ASUSTeK Computer INC.");
    assert_string_equal(info.sys_product, "P5A-B");
    assert_string_equal(info.sys_version, "REV 1.xx");
}

/* --- entry points ---------------------------------------------------------------------- */

static void test_2x_good(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_2);
    assert_int_equal(info.entry_addr, EP_AT);
    assert_int_equal(info.major, 2);
    assert_int_equal(info.minor, 3);
    assert_int_equal(info.table_addr, TABLE);
    assert_int_equal(info.table_len, len);
    assert_int_equal(info.entry_count, 4);
    assert_int_equal(info.structures, 4);
    assert_true(info.end_seen);
    assert_false(info.truncated);
    assert_false(info.count_mismatch);
    assert_false(info.table_clamped);
    assert_false(info.smbios3_above_4g);
    assert_int_equal(info.bad_entries, 0);
    assert_int_equal(info.problem, SMBIOS_PROBLEM_NONE);
    assert_typical_strings();
}

/* SMBIOS 2.1's specification gave the length as 1Eh; BIOSes of the time say so. */
static void test_2x_length_1e(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 1);
    mem[EP_AT + 5] = 0x1E;
    checksum(EP_AT, 0x1E, EP_AT + 4);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_2);
}

static void test_3x_good(void **state)
{
    (void)state;
    typical_table();
    put_ep3(EP3_AT, TABLE, 0x1000, 3, 2);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_3);
    assert_int_equal(info.entry_addr, EP3_AT);
    assert_int_equal(info.major, 3);
    assert_int_equal(info.minor, 2);
    assert_int_equal(info.docrev, 1);
    assert_int_equal(info.table_len, 0x1000);
    assert_int_equal(info.structures, 4);
    assert_true(info.end_seen);
    assert_typical_strings();
}

static void test_3x_preferred_over_2x(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 8);
    put_ep3(EP3_AT, TABLE, len, 3, 0);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_3);
}

static void test_3x_above_4g_alone(void **state)
{
    (void)state;
    put_ep3(EP3_AT, 0x100000000ull + TABLE, 0x1000, 3, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_TABLE_ABOVE_4G);
    assert_int_equal(info.kind, SMBIOS_ENTRY_3);
    assert_true(info.smbios3_above_4g);
    assert_true(info.table_addr == 0x100000000ull + TABLE);
    assert_int_equal(info.structures, 0);
    assert_false(info.have_bios);
}

static void test_3x_above_4g_falls_back_to_2x(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep3(EP_AT, 0x200000000ull, 0x1000, 3, 3);
    put_ep2(EP3_AT, TABLE, (uint16_t)len, 4, 2, 8);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_2);
    assert_int_equal(info.entry_addr, EP3_AT);
    assert_true(info.smbios3_above_4g);
    assert_typical_strings();
}

static void test_legacy_dmi(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_dmi(EP_AT, TABLE, (uint16_t)len, 4, 0x20);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_LEGACY_DMI);
    assert_int_equal(info.major, 2);
    assert_int_equal(info.minor, 0);
    assert_typical_strings();
}

/* A bad "_SM_" checksum leaves the "_DMI_" part, which is used as legacy DMI (as
 * Linux does); a bad "_DMI_" checksum spoils both. */
static void test_2x_bad_checksums(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 3);
    mem[EP_AT + 4]++;
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_LEGACY_DMI);
    assert_int_equal(info.entry_addr, EP_AT + 16);
    assert_int_equal(info.bad_entries, 1);

    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 3);
    mem[EP_AT + 16 + 5]++;
    scan();
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.kind, SMBIOS_ENTRY_NONE);
    assert_int_equal(info.bad_entries, 2);
    assert_false(info.have_bios);
}

static void test_3x_bad_checksum_and_lengths(void **state)
{
    static const uint8_t lens[] = { 0x00, 0x17, 0x21, 0xFF };
    (void)state;
    typical_table();
    put_ep3(EP3_AT, TABLE, 0x1000, 3, 0);
    mem[EP3_AT + 16]++;                 /* the table address, after the checksum */
    scan();
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.bad_entries, 1);
    for (size_t i = 0; i < sizeof(lens); i++) {
        put_ep3(EP3_AT, TABLE, 0x1000, 3, 0);
        mem[EP3_AT + 6] = lens[i];
        checksum(EP3_AT, 0x18, EP3_AT + 5);
        scan();
        assert_int_equal(info.status, SMBIOS_NOT_FOUND);
        assert_int_equal(info.bad_entries, 1);
    }
}

static void test_2x_bad_length(void **state)
{
    static const uint8_t lens[] = { 0x00, 0x1D, 0x21, 0xFF };
    (void)state;
    uint32_t len = typical_table();
    for (size_t i = 0; i < sizeof(lens); i++) {
        memset(mem + EP_AT, 0, 0x40);
        put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 3);
        mem[EP_AT + 5] = lens[i];
        put_dmi(EP_AT + 16, 0, 0, 0, 0);        /* no usable legacy part either */
        mem[EP_AT + 16 + 5]++;
        scan();
        assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    }
}

static void test_nothing_there(void **state)
{
    (void)state;
    scan();
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.kind, SMBIOS_ENTRY_NONE);
    assert_int_equal(info.bad_entries, 0);
    assert_int_equal(info.structures, 0);
    assert_string_equal(info.bios_vendor, "");
}

/* Anchors count only on 16-byte boundaries. */
static void test_unaligned_anchor_ignored(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT + 8, TABLE, (uint16_t)len, 4, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
}

/* An anchor in the last 16 bytes of memory: the 31-byte entry point would run past
 * the end, and must not be read there. */
static void test_anchor_at_end_of_memory(void **state)
{
    (void)state;
    memcpy(mem + MEM_SIZE - 16, "_SM_", 4);
    mem[MEM_SIZE - 16 + 5] = 0x1F;
    memcpy(mem + MEM_SIZE - 48, "_SM3_", 5);        /* 24 bytes, checksum wrong */
    mem[MEM_SIZE - 48 + 6] = 0x18;
    smbios_scan(&info, &pm, SMBIOS_SCAN_START, 0xFFFFFFF0u);
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.bad_entries, 2);
}

/* The scan range is the caller's, even inside the window: an entry point that does
 * not fit in it is not read; one starting before it is not seen (here, that leaves
 * its "_DMI_" part, 16 bytes on). */
static void test_scan_range_respected(void **state)
{
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 3);
    smbios_scan(&info, &pm, SMBIOS_SCAN_START, EP_AT + 0x1E);
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.bad_entries, 1);
    smbios_scan(&info, &pm, EP_AT + 1, SMBIOS_SCAN_END);
    assert_int_equal(info.kind, SMBIOS_ENTRY_LEGACY_DMI);
    assert_int_equal(info.entry_addr, EP_AT + 16);
    smbios_scan(&info, &pm, EP_AT + 17, SMBIOS_SCAN_END);
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    smbios_scan(&info, &pm, EP_AT - 15, EP_AT + 0x1F);
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_2);
}

/* --- copies (multiboot 2 tags) ------------------------------------------------------ */

static void test_from_entry_copy(void **state)
{
    uint8_t copy[0x20];
    (void)state;
    uint32_t len = typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)len, 4, 2, 4);
    memcpy(copy, mem + EP_AT, sizeof(copy));
    memset(mem + EP_AT, 0, 0x20);       /* only the copy has it */
    smbios_from_entry(&info, &pm, copy, 0x1F);
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_2);
    assert_int_equal(info.entry_addr, 0);
    assert_int_equal(info.minor, 4);
    assert_typical_strings();

    /* Cut short: the "_DMI_" part is missing. */
    uint8_t *cut = malloc(20);
    memcpy(cut, copy, 20);
    smbios_from_entry(&info, &pm, cut, 20);
    free(cut);
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.bad_entries, 1);

    smbios_from_entry(&info, &pm, copy, 0);
    assert_int_equal(info.status, SMBIOS_NOT_FOUND);
    assert_int_equal(info.bad_entries, 0);
}

static void test_from_entry_3x(void **state)
{
    (void)state;
    typical_table();
    put_ep3(EP3_AT, TABLE, 0x400, 3, 4);
    uint8_t *copy = malloc(0x18);       /* exactly the entry point */
    memcpy(copy, mem + EP3_AT, 0x18);
    smbios_from_entry(&info, &pm, copy, 0x18);
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.kind, SMBIOS_ENTRY_3);
    assert_typical_strings();

    put_ep3(EP3_AT, 0xFFFFFFFF00000000ull, 0x400, 3, 4);
    memcpy(copy, mem + EP3_AT, 0x18);
    smbios_from_entry(&info, &pm, copy, 0x18);
    assert_int_equal(info.status, SMBIOS_TABLE_ABOVE_4G);
    assert_true(info.smbios3_above_4g);
    free(copy);
}

/* --- the structure table ------------------------------------------------------------- */

static void test_table_outside_memory(void **state)
{
    (void)state;
    put_ep2(EP_AT, MEM_SIZE + 0x100, 0x100, 4, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_TABLE_UNREADABLE);
    put_ep2(EP_AT, MEM_SIZE, 0x100, 4, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_TABLE_UNREADABLE);
    put_ep2(EP_AT, TABLE, 0, 4, 2, 3);  /* empty */
    scan();
    assert_int_equal(info.status, SMBIOS_TABLE_UNREADABLE);
    put_ep3(EP3_AT, 0xFFFFF000u, 0x100, 3, 0);  /* below 4 GiB, but not in memory */
    scan();
    assert_int_equal(info.status, SMBIOS_TABLE_UNREADABLE);
}

/* A table near the end of memory whose length runs past it: the walk stops at the
 * end of memory, and the last structure, cut there, is reported. */
static void test_table_runs_past_memory(void **state)
{
    const uint8_t f[10] = { 0 };
    const char *const s[] = { "cut here" };
    (void)state;
    tbl_at = MEM_SIZE - 64;
    add_system("Vendor", "Product", "1");           /* 4 + 4 + 17 + 1 = 26 bytes */
    add(2, f, sizeof(f), s, 1);                     /* 14 + 9 + 1 = 24: 50 bytes */
    mem[tbl_at + 50] = 3;                           /* formatted area up to the end */
    mem[tbl_at + 51] = 14;
    put_ep2(EP_AT, tbl_at, 0x1000, 10, 2, 3);
    scan();
    assert_true(info.table_clamped);
    assert_int_equal(info.status, SMBIOS_MALFORMED);
    assert_int_equal(info.problem, SMBIOS_PROBLEM_STRINGS_UNTERMINATED);
    assert_int_equal(info.problem_offset, 50);
    assert_int_equal(info.problem_type, 3);
    assert_int_equal(info.structures, 2);
    assert_string_equal(info.sys_product, "Product");
}

static void test_structure_length_below_4(void **state)
{
    static const uint8_t lens[] = { 0, 1, 2, 3 };
    (void)state;
    for (size_t i = 0; i < sizeof(lens); i++) {
        tbl_off = 0;
        add_bios("A", "B", "C");
        uint32_t bad = tbl_off;
        add(4, NULL, 0, NULL, 0);
        mem[TABLE + bad + 1] = lens[i];
        add_end();
        put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 3, 2, 3);
        scan();
        assert_int_equal(info.status, SMBIOS_MALFORMED);
        assert_int_equal(info.problem, SMBIOS_PROBLEM_SHORT_STRUCTURE);
        assert_int_equal(info.problem_offset, bad);
        assert_int_equal(info.problem_type, 4);
        assert_int_equal(info.structures, 1);
        assert_string_equal(info.bios_vendor, "A");
        assert_false(info.end_seen);
    }
}

static void test_structure_runs_past_table(void **state)
{
    (void)state;
    add_bios("A", "B", "C");
    uint32_t bad = tbl_off;
    add_system("x", "y", "z");
    mem[TABLE + bad + 1] = 0xF0;        /* formatted length past the table's end */
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 2, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_MALFORMED);
    assert_int_equal(info.problem, SMBIOS_PROBLEM_STRUCTURE_OVERRUN);
    assert_int_equal(info.problem_offset, bad);
    assert_false(info.have_system);
}

/* The string set of the last structure has no double NUL within the table length. */
static void test_strings_unterminated(void **state)
{
    (void)state;
    add_bios("A", "B", "C");
    uint32_t bad = tbl_off;
    add_system("vendor", "product", "version");
    memset(mem + TABLE + tbl_off - 2, 'x', 2);      /* "version" and the set run on */
    memset(mem + TABLE + tbl_off, 'y', 64);
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 2, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_MALFORMED);
    assert_int_equal(info.problem, SMBIOS_PROBLEM_STRINGS_UNTERMINATED);
    assert_int_equal(info.problem_offset, bad);
    assert_false(info.have_system);
    assert_string_equal(info.bios_vendor, "A");
}

/* A table of one structure whose formatted area ends the table: no room for "\0\0". */
static void test_no_room_for_strings(void **state)
{
    (void)state;
    add(4, NULL, 0, NULL, 0);
    put_ep2(EP_AT, TABLE, 4, 1, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_MALFORMED);
    assert_int_equal(info.problem, SMBIOS_PROBLEM_STRINGS_UNTERMINATED);
    put_ep2(EP_AT, TABLE, 5, 1, 2, 3);
    scan();
    assert_int_equal(info.problem, SMBIOS_PROBLEM_STRINGS_UNTERMINATED);
    put_ep2(EP_AT, TABLE, 6, 1, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, 1);
}

static void test_non_ascii_kept_and_long_strings_cut(void **state)
{
    char long_product[101];
    (void)state;
    memset(long_product, 'P', 100);
    long_product[100] = '\0';
    add_bios("Bad\x01\x1b[2J\x7f\xff vendor   ", "v", "d");
    add_system("s", long_product, "  ");
    add_end();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 3, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    /* Kept byte for byte: the JSON escapes them, the console line shows '?'. */
    assert_string_equal(info.bios_vendor, "Bad\x01\x1b[2J\x7f\xff vendor");
    assert_int_equal(strlen(info.sys_product), SMBIOS_STR_MAX);
    assert_int_equal(info.sys_product[SMBIOS_STR_MAX - 1], 'P');
    assert_string_equal(info.sys_version, "");
}

/* String numbers past the set, and 0 ("no string"), give empty strings. */
static void test_bad_string_numbers(void **state)
{
    const uint8_t f[14] = { 0, 9, 0, 0, 2 };
    const char *const s[] = { "one", "two" };
    (void)state;
    add(0, f, sizeof(f), s, 2);
    add_end();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 2, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_true(info.have_bios);
    assert_string_equal(info.bios_vendor, "");
    assert_string_equal(info.bios_version, "");
    assert_string_equal(info.bios_date, "two");
}

/* Structures too short to hold the fields: seen, but no strings taken. */
static void test_short_type_0_and_1(void **state)
{
    const uint8_t f[1] = { 1 };
    const char *const s[] = { "one" };
    (void)state;
    add(0, f, sizeof(f), s, 1);
    add(1, f, sizeof(f), s, 1);
    add_end();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 3, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_true(info.have_bios);
    assert_true(info.have_system);
    assert_string_equal(info.bios_vendor, "");
    assert_string_equal(info.sys_vendor, "");
}

/* Only the first type 0 and type 1 count. */
static void test_first_structure_wins(void **state)
{
    (void)state;
    add_bios("first", "1", "1");
    add_bios("second", "2", "2");
    add_end();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 3, 2, 3);
    scan();
    assert_string_equal(info.bios_vendor, "first");
}

/* A count far above what the table holds: the walk ends with the table. */
static void test_huge_structure_count(void **state)
{
    (void)state;
    add_bios("A", "B", "C");
    add_system("D", "E", "F");
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 0xFFFF, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, 2);
    assert_true(info.count_mismatch);
    assert_false(info.truncated);
    assert_false(info.end_seen);
}

/* The count stops the walk before the end-of-table structure. */
static void test_count_stops_walk(void **state)
{
    (void)state;
    typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 2, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, 2);
    assert_false(info.end_seen);
    assert_false(info.count_mismatch);
    assert_true(info.have_system);
}

/* A count of 0 is "not said": the walk goes to the end-of-table structure. */
static void test_count_zero(void **state)
{
    (void)state;
    typical_table();
    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 0, 2, 3);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, 4);
    assert_true(info.end_seen);
    assert_false(info.count_mismatch);
}

/* More structures than SMBIOS_MAX_STRUCTURES: the walk stops there and says so. */
static void test_too_many_structures(void **state)
{
    (void)state;
    for (int i = 0; i < SMBIOS_MAX_STRUCTURES + 100; i++)
        add(200, NULL, 0, NULL, 0);
    add_end();
    put_ep3(EP3_AT, TABLE, tbl_off, 3, 0);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, SMBIOS_MAX_STRUCTURES);
    assert_true(info.truncated);
    assert_false(info.end_seen);

    put_ep2(EP_AT, TABLE, (uint16_t)tbl_off, 0xFFFF, 2, 8);
    memset(mem + EP3_AT, 0, 0x20);
    scan();
    assert_int_equal(info.structures, SMBIOS_MAX_STRUCTURES);
    assert_true(info.truncated);
    assert_false(info.count_mismatch);
}

/* 3.x gives only a maximum size: a huge one is cut to memory and SMBIOS_TABLE_MAX,
 * and the end-of-table structure ends the walk. Trailing bytes too few for a header
 * end it too. */
static void test_3x_huge_max_size(void **state)
{
    (void)state;
    typical_table();
    put_ep3(EP3_AT, TABLE, 0xFFFFFFFFu, 3, 0);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_true(info.table_clamped);
    assert_true(info.end_seen);
    assert_int_equal(info.structures, 4);

    tbl_off = 0;
    memset(mem + TABLE, 0, 0x200);
    add_bios("A", "B", "C");
    put_ep3(EP3_AT, TABLE, tbl_off + 3, 3, 0);
    scan();
    assert_int_equal(info.status, SMBIOS_OK);
    assert_int_equal(info.structures, 1);
    assert_false(info.end_seen);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(smbios_status_name(SMBIOS_OK), "ok");
    assert_string_equal(smbios_status_name(SMBIOS_MALFORMED), "malformed structure table");
    assert_string_equal(smbios_status_name((enum smbios_status)99), "?");
    assert_string_equal(smbios_problem_name(SMBIOS_PROBLEM_SHORT_STRUCTURE),
                        "structure length below 4");
    assert_string_equal(smbios_problem_name((enum smbios_problem)-1), "?");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_2x_good),
        T(test_2x_length_1e),
        T(test_3x_good),
        T(test_3x_preferred_over_2x),
        T(test_3x_above_4g_alone),
        T(test_3x_above_4g_falls_back_to_2x),
        T(test_legacy_dmi),
        T(test_2x_bad_checksums),
        T(test_3x_bad_checksum_and_lengths),
        T(test_2x_bad_length),
        T(test_nothing_there),
        T(test_unaligned_anchor_ignored),
        T(test_anchor_at_end_of_memory),
        T(test_scan_range_respected),
        T(test_from_entry_copy),
        T(test_from_entry_3x),
        T(test_table_outside_memory),
        T(test_table_runs_past_memory),
        T(test_structure_length_below_4),
        T(test_structure_runs_past_table),
        T(test_strings_unterminated),
        T(test_no_room_for_strings),
        T(test_non_ascii_kept_and_long_strings_cut),
        T(test_bad_string_numbers),
        T(test_short_type_0_and_1),
        T(test_first_structure_wins),
        T(test_huge_structure_count),
        T(test_count_stops_walk),
        T(test_count_zero),
        T(test_too_many_structures),
        T(test_3x_huge_max_size),
        T(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
