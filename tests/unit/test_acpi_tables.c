/* survey/acpi_tables.c and acpi_s5.c: the RSDT/XSDT walk, the FADT, and \_S5_ found
 * through the tables, on a hand-built memory image.
 *
 * "Physical memory" is a heap block of exactly MEM_SIZE bytes and the window ends at
 * its end, so AddressSanitizer flags any read past it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/acpi_s5.h"

#define MEM_SIZE        0x40000u
#define ROOT            0x10000u
#define XROOT           0x11000u
#define FADT            0x12000u
#define DSDT            0x13000u
#define XDSDT           0x14000u
#define SSDT            0x15000u

static uint8_t *mem;
static struct physmem pm;
static struct acpi_rsdp rsdp;
static struct acpi_s5 s5;

/* QEMU's Name (_S5, Package (0x04) { Zero, Zero, Zero, Zero }) */
static const uint8_t s5_zero[] = {
    0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};
/* Name (\_S5, Package (0x02) { 0x05, 0x05 }) */
static const uint8_t s5_five[] = {
    0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0A, 0x05, 0x0A, 0x05,
};

static int setup(void **state)
{
    (void)state;
    mem = calloc(1, MEM_SIZE);
    pm = (struct physmem){ (uintptr_t)mem, MEM_SIZE };
    rsdp = (struct acpi_rsdp){ .status = ACPI_RSDP_OK, .rsdt_addr = ROOT };
    memset(&s5, 0xA5, sizeof(s5));
    return mem ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(mem);
    return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static void fix_sum(uint32_t addr)
{
    uint8_t *p = mem + addr, sum = 0;
    uint32_t len = p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24;
    p[9] = 0;
    if (len > MEM_SIZE - addr)          /* a length meant to be refused */
        len = MEM_SIZE - addr;
    for (uint32_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + p[i]);
    p[9] = (uint8_t)-sum;
}

static void header(uint32_t addr, const char *sig, uint32_t len, uint8_t revision)
{
    memcpy(mem + addr, sig, 4);
    put32(mem + addr + 4, len);
    mem[addr + 8] = revision;
    memcpy(mem + addr + 10, "APMOFF", 6);
    fix_sum(addr);
}

static void aml_table(uint32_t addr, const char *sig, const uint8_t *aml, size_t n)
{
    memcpy(mem + addr + ACPI_HEADER_LEN, aml, n);
    header(addr, sig, (uint32_t)(ACPI_HEADER_LEN + n), 1);
}

static void rsdt(const uint32_t *entries, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put32(mem + ROOT + ACPI_HEADER_LEN + 4 * i, entries[i]);
    header(ROOT, "RSDT", ACPI_HEADER_LEN + 4 * n, 1);
}

static void xsdt(const uint64_t *entries, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put64(mem + XROOT + ACPI_HEADER_LEN + 8 * i, entries[i]);
    header(XROOT, "XSDT", ACPI_HEADER_LEN + 8 * n, 1);
    rsdp.revision = 2;
    rsdp.have_xsdt = true;
    rsdp.xsdt_addr = XROOT;
}

/* An ACPI 1.0 FADT (116 bytes) as PIIX4 firmware fills it (QEMU's PM base B000h). */
static void fadt_v1(uint32_t len)
{
    uint8_t *f = mem + FADT;
    put32(f + 40, DSDT);
    put32(f + 48, 0xB2);
    f[52] = 0xF1;
    f[53] = 0xF0;
    put32(f + 56, 0xB000);
    put32(f + 64, 0xB004);
    f[89] = 2;
    put32(f + 112, 0x4A5);
    header(FADT, "FACP", len, 1);
}

static void gas(uint32_t off, uint8_t space, uint64_t addr)
{
    mem[FADT + off] = space;
    mem[FADT + off + 1] = 16;
    put64(mem + FADT + off + 4, addr);
}

static void test_rsdt_fadt_v1(void **state)
{
    (void)state;
    fadt_v1(116);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    rsdt((const uint32_t[]){ FADT }, 1);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    const struct acpi_tables *t = &s5.tables;
    assert_int_equal(t->root_status, ACPI_ROOT_OK);
    assert_false(t->via_xsdt);
    assert_int_equal(t->root_addr, ROOT);
    assert_int_equal(t->entries, 1);
    assert_int_equal(t->entries_skipped, 0);
    assert_int_equal(t->bad_checksums, 0);
    assert_int_equal(t->fadt.addr, FADT);
    assert_int_equal(t->fadt.length, 116);
    assert_int_equal(t->fadt.revision, 1);
    assert_int_equal(t->fadt.smi_cmd, 0xB2);
    assert_int_equal(t->fadt.acpi_enable, 0xF1);
    assert_int_equal(t->fadt.acpi_disable, 0xF0);
    assert_int_equal(t->fadt.pm1a_evt, 0xB000);
    assert_int_equal(t->fadt.pm1a_cnt, 0xB004);
    assert_int_equal(t->fadt.pm1a_cnt_from, ACPI_BLK_32);
    assert_int_equal(t->fadt.pm1b_cnt, 0);
    assert_int_equal(t->fadt.pm1b_cnt_from, ACPI_BLK_NONE);
    assert_int_equal(t->fadt.pm1_cnt_len, 2);
    assert_true(t->fadt.have_flags);
    assert_int_equal(t->fadt.flags, 0x4A5);
    assert_false(t->fadt.have_reset);       /* 116 bytes: no RESET_REG */
    assert_true(t->fadt.x_dsdt == 0);
    assert_int_equal(t->dsdt.addr, DSDT);
    assert_false(t->dsdt_from_x);
    assert_int_equal(s5.reason, ACPI_S5_OK);
    assert_int_equal(s5.table, ACPI_S5_IN_DSDT);
    assert_int_equal(s5.aml.slp_typa, 0);
    assert_int_equal(s5.aml.how, AML_S5_BY_WALK);
}

/* ACPI 2.0+: the XSDT is preferred; X_DSDT and the X_ PM1 blocks are read; a memory
 * space X_PM1b_CNT_BLK is ignored, a differing X_PM1a one noted. */
static void test_xsdt_fadt_v4(void **state)
{
    (void)state;
    fadt_v1(244);
    gas(116, ACPI_SPACE_IO, 0xCF9);
    mem[FADT + 128] = 0x06;
    put64(mem + FADT + 140, XDSDT);
    gas(172, ACPI_SPACE_IO, 0x1804);
    put32(mem + FADT + 68, 0x1904);
    gas(184, ACPI_SPACE_MEMORY, 0xFED80004);
    fix_sum(FADT);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    aml_table(XDSDT, "DSDT", s5_five, sizeof(s5_five));
    rsdt((const uint32_t[]){ 0x30000 }, 1);     /* the RSDT must not be used */
    xsdt((const uint64_t[]){ FADT }, 1);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    const struct acpi_tables *t = &s5.tables;
    assert_true(t->via_xsdt);
    assert_int_equal(t->root_addr, XROOT);
    assert_int_equal(t->fadt.pm1a_cnt, 0x1804);
    assert_int_equal(t->fadt.pm1a_cnt_from, ACPI_BLK_X_IO);
    assert_int_equal(t->fadt.pm1b_cnt, 0x1904);
    assert_int_equal(t->fadt.pm1b_cnt_from, ACPI_BLK_32);
    assert_int_equal(t->fadt.pm1_notes, ACPI_PM1A_X_MISMATCH | ACPI_PM1B_X_IGNORED);
    assert_true(t->fadt.have_reset);
    assert_int_equal(t->fadt.reset_reg.space, ACPI_SPACE_IO);
    assert_true(t->fadt.reset_reg.addr == 0xCF9);
    assert_int_equal(t->fadt.reset_value, 6);
    assert_true(t->fadt.flags & ACPI_FADT_RESET_REG_SUP);
    assert_true(t->dsdt_from_x);
    assert_int_equal(t->dsdt.addr, XDSDT);
    assert_int_equal(s5.aml.slp_typa, 5);
    assert_int_equal(s5.aml.slp_typb, 5);
}

/* A FADT that ends before X_DSDT and the X_ blocks: they are not read, even though
 * bytes that look like them follow it. */
static void test_short_fadt(void **state)
{
    (void)state;
    gas(172, ACPI_SPACE_IO, 0x1804);
    put64(mem + FADT + 140, XDSDT);
    fadt_v1(140);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    aml_table(XDSDT, "DSDT", s5_five, sizeof(s5_five));
    rsdt((const uint32_t[]){ FADT }, 1);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_true(s5.tables.fadt.have_reset);
    assert_true(s5.tables.fadt.x_dsdt == 0);
    assert_int_equal(s5.tables.fadt.pm1a_cnt, 0xB004);
    assert_int_equal(s5.tables.dsdt.addr, DSDT);

    /* 60 bytes: PM1a_CNT_BLK at 64 is past the end. */
    fadt_v1(60);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));  /* the DSDT field, at 40, is inside */
    assert_int_equal(s5.tables.fadt.length, 60);
    assert_int_equal(s5.tables.fadt.pm1a_cnt, 0);
    assert_int_equal(s5.tables.fadt.pm1a_evt, 0xB000);
    assert_false(s5.tables.fadt.have_flags);
}

/* Bad checksums are counted, not refused (Linux warns and goes on). */
static void test_bad_checksums_recorded(void **state)
{
    (void)state;
    fadt_v1(116);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    rsdt((const uint32_t[]){ FADT }, 1);
    mem[FADT + 9]++;
    mem[DSDT + 9]++;
    mem[ROOT + 9]++;
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_true(s5.tables.fadt.bad_checksum);
    assert_true(s5.tables.dsdt_bad_checksum);
    assert_true(s5.tables.root_bad_checksum);
    assert_int_equal(s5.tables.bad_checksums, 3);
}

/* Entries outside the window or above 4 GiB, and bad headers, are skipped. */
static void test_entries_skipped(void **state)
{
    (void)state;
    fadt_v1(116);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    header(0x20000, "APIC", 0x10000000, 1);     /* runs past the window */
    header(0x21000, "FACP", 20, 1);             /* shorter than a header */
    xsdt((const uint64_t[]){ 0x100000000ull + FADT, MEM_SIZE - 8, 0x20000, 0x21000,
                             0, FADT }, 6);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.tables.entries, 6);
    assert_int_equal(s5.tables.entries_skipped, 5);
    assert_int_equal(s5.tables.fadt.addr, FADT);
}

static void test_too_many_entries(void **state)
{
    (void)state;
    uint32_t e[ACPI_ROOT_ENTRIES_MAX + 72];
    for (unsigned i = 0; i < sizeof(e) / sizeof(e[0]); i++)
        e[i] = SSDT;
    e[sizeof(e) / sizeof(e[0]) - 1] = FADT;     /* past the limit: not looked at */
    fadt_v1(116);
    aml_table(SSDT, "SSDT", s5_five, sizeof(s5_five));
    rsdt(e, sizeof(e) / sizeof(e[0]));
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_FADT);
    assert_int_equal(s5.tables.entries, ACPI_ROOT_ENTRIES_MAX + 72);
    assert_int_equal(s5.tables.entries_skipped, 72);
    assert_int_equal(s5.tables.ssdt_count, ACPI_SSDT_MAX);
    assert_int_equal(s5.tables.ssdt_dropped, ACPI_ROOT_ENTRIES_MAX - ACPI_SSDT_MAX);
}

/* A bad XSDT falls back to the RSDT; an RSDP without a readable root says so. */
static void test_root_fallbacks(void **state)
{
    (void)state;
    fadt_v1(116);
    aml_table(DSDT, "DSDT", s5_zero, sizeof(s5_zero));
    rsdt((const uint32_t[]){ FADT }, 1);
    xsdt((const uint64_t[]){ FADT }, 1);
    memcpy(mem + XROOT, "XSDX", 4);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_false(s5.tables.via_xsdt);

    rsdp.xsdt_addr = 0x100000000ull + XROOT;    /* above 4 GiB: not tried */
    memcpy(mem + XROOT, "XSDT", 4);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_false(s5.tables.via_xsdt);

    rsdp.rsdt_addr = MEM_SIZE - 4;
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_ROOT);

    assert_false(acpi_s5_find(&pm, NULL, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_RSDP);
}

/* \_S5_ in an SSDT (SeaBIOS put it there), after a DSDT without one. */
static void test_s5_in_ssdt(void **state)
{
    (void)state;
    static const uint8_t no_s5[] = { 0x08, 'X', 'S', '5', '_', 0x00 };
    fadt_v1(116);
    aml_table(DSDT, "DSDT", no_s5, sizeof(no_s5));
    aml_table(SSDT, "SSDT", s5_five, sizeof(s5_five));
    aml_table(SSDT + 0x1000, "SSDT", no_s5, sizeof(no_s5));
    rsdt((const uint32_t[]){ SSDT + 0x1000, FADT, SSDT }, 3);
    assert_true(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.tables.ssdt_count, 2);
    assert_int_equal(s5.table, 2);              /* the second SSDT */
    assert_int_equal(s5.aml.slp_typa, 5);
}

static void test_reasons(void **state)
{
    (void)state;
    static const uint8_t no_s5[] = { 0x08, 'X', 'S', '5', '_', 0x00 };
    static const uint8_t unreadable[] = { 0x08, '_', 'S', '5', '_', 0x0A, 0x05 };
    static const uint8_t opaque[] = { 0x70, 0x01, 'D', 'B', 'G', 'B' };

    rsdt((const uint32_t[]){ SSDT }, 1);
    aml_table(SSDT, "SSDT", s5_five, sizeof(s5_five));
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_FADT);

    fadt_v1(116);
    rsdt((const uint32_t[]){ FADT }, 1);
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_DSDT);

    aml_table(DSDT, "DSDT", no_s5, sizeof(no_s5));
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NO_OBJECT);

    aml_table(DSDT, "DSDT", opaque, sizeof(opaque));
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_NOT_UNDERSTOOD);

    aml_table(DSDT, "DSDT", unreadable, sizeof(unreadable));
    rsdt((const uint32_t[]){ FADT, SSDT }, 2);  /* the DSDT's \_S5_ decides */
    assert_false(acpi_s5_find(&pm, &rsdp, &s5));
    assert_int_equal(s5.reason, ACPI_S5_UNREADABLE);
    assert_int_equal(s5.table, ACPI_S5_IN_DSDT);

    assert_string_equal(acpi_s5_reason_text(ACPI_S5_OK), "ok");
    assert_string_equal(acpi_s5_reason_text(ACPI_S5_NO_FADT), "no FADT");
    assert_string_equal(acpi_s5_reason_text(ACPI_S5_NO_OBJECT), "no \\_S5_ object");
    assert_string_equal(acpi_s5_reason_text(ACPI_S5_UNREADABLE),
                        "\\_S5_ package unreadable");
    assert_string_equal(acpi_s5_reason_text((enum acpi_s5_reason)99), "?");
}

/* A table whose length runs past the end of the window is refused. */
static void test_table_at_window_end(void **state)
{
    (void)state;
    uint32_t at = MEM_SIZE - 116;
    memcpy(mem + at, "FACP", 4);
    put32(mem + at + 4, 117);
    bool bad;
    assert_int_equal(acpi_check_table(&pm, at, "FACP", ACPI_TABLE_LEN_MAX, &bad), 0);
    put32(mem + at + 4, 116);
    assert_int_equal(acpi_check_table(&pm, at, "FACP", ACPI_TABLE_LEN_MAX, &bad), 116);
    assert_true(bad);
    assert_int_equal(acpi_check_table(&pm, at, "FACP", 100, &bad), 0);
    assert_int_equal(acpi_check_table(&pm, MEM_SIZE - 35, NULL, ACPI_TABLE_LEN_MAX, &bad),
                     0);
    assert_int_equal(acpi_check_table(&pm, 0x100000000ull, NULL, ACPI_TABLE_LEN_MAX, &bad),
                     0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_rsdt_fadt_v1),
        T(test_xsdt_fadt_v4),
        T(test_short_fadt),
        T(test_bad_checksums_recorded),
        T(test_entries_skipped),
        T(test_too_many_entries),
        T(test_root_fallbacks),
        T(test_s5_in_ssdt),
        T(test_reasons),
        T(test_table_at_window_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
