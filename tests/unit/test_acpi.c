/* survey/acpi.c: finding and checking the ACPI RSDP, good and hostile.
 *
 * "Physical memory" is a heap block of exactly MEM_SIZE bytes and the window ends at
 * its end, so AddressSanitizer flags any read past it. The BDA's EBDA segment word is
 * set per test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/acpi.h"

#define MEM_SIZE        0x100000u
#define EBDA            0x9FC00u        /* the usual 1 KiB below 640 KiB */
#define IN_BIOS         0xF6A20u

static uint8_t *mem;
static struct physmem pm;
static struct acpi_rsdp r;

static int setup(void **state)
{
    (void)state;
    mem = calloc(1, MEM_SIZE);
    pm = (struct physmem){ (uintptr_t)mem, MEM_SIZE };
    memset(&r, 0xA5, sizeof(r));        /* the parser must clear what it does not set */
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

static void fix_sum(uint8_t *p, size_t n, uint8_t *fix)
{
    uint8_t sum = 0;
    *fix = 0;
    for (size_t i = 0; i < n; i++)
        sum = (uint8_t)(sum + p[i]);
    *fix = (uint8_t)-sum;
}

static void set_ebda(uint32_t addr)
{
    mem[0x40E] = (uint8_t)(addr >> 4);
    mem[0x40F] = (uint8_t)(addr >> 12);
}

/* An RSDP at p: revision 0 (20 bytes) or 2 (36 bytes, XSDT above 4 GiB). */
static void put_rsdp(uint8_t *p, uint8_t revision, const char *oem)
{
    memcpy(p, "RSD PTR ", 8);
    memcpy(p + 9, oem, 6);
    p[15] = revision;
    put32(p + 16, 0x07FE14A0);
    if (revision >= 2) {
        put32(p + 20, 36);
        put32(p + 24, 0x07FE1500);
        put32(p + 28, 0x1);
    }
    fix_sum(p, 20, p + 8);
    if (revision >= 2)
        fix_sum(p, 36, p + 32);
}

static void find(void)
{
    acpi_find_rsdp(&r, &pm);
}

static void test_rev0_in_bios_area(void **state)
{
    (void)state;
    put_rsdp(mem + IN_BIOS, 0, "BOCHS ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.where, ACPI_RSDP_IN_BIOS);
    assert_int_equal(r.addr, IN_BIOS);
    assert_int_equal(r.revision, 0);
    assert_string_equal(r.oem_id, "BOCHS");
    assert_int_equal(r.rsdt_addr, 0x07FE14A0);
    assert_false(r.have_xsdt);
    assert_true(r.xsdt_addr == 0);
    assert_int_equal(r.length, 0);
    assert_int_equal(r.ebda, 0);
    assert_int_equal(r.bad_checksums, 0);
    assert_int_equal(r.bad_extended, 0);
}

static void test_rev2_in_ebda(void **state)
{
    (void)state;
    set_ebda(EBDA);
    put_rsdp(mem + EBDA + 0x40, 2, "INTEL ");
    put_rsdp(mem + IN_BIOS, 0, "OTHER ");        /* the EBDA comes first */
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.where, ACPI_RSDP_IN_EBDA);
    assert_int_equal(r.addr, EBDA + 0x40);
    assert_int_equal(r.ebda, EBDA);
    assert_int_equal(r.revision, 2);
    assert_string_equal(r.oem_id, "INTEL");
    assert_int_equal(r.length, 36);
    assert_true(r.have_xsdt);
    assert_true(r.xsdt_addr == 0x107FE1500ull);
}

static void test_e_segment(void **state)
{
    (void)state;
    put_rsdp(mem + 0xE0000, 2, "LOWEST");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.addr, 0xE0000);
    assert_string_equal(r.oem_id, "LOWEST");
}

static void test_not_found(void **state)
{
    (void)state;
    set_ebda(EBDA);
    find();
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
    assert_int_equal(r.ebda, EBDA);
    assert_int_equal(r.bad_checksums, 0);
    assert_string_equal(r.oem_id, "");
}

/* Only 16-byte boundaries, and only starting in the first KiB of the EBDA. */
static void test_alignment_and_ebda_extent(void **state)
{
    (void)state;
    set_ebda(0x80000);
    put_rsdp(mem + 0x80000 + 0x400, 0, "FAR   ");
    put_rsdp(mem + IN_BIOS + 4, 0, "ODD   ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
    put_rsdp(mem + 0x80000 + 0x3F0, 0, "NEAR  ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.addr, 0x803F0);
}

/* A BDA word that puts the EBDA in the IVT, below 512 KiB or above 640 KiB is not
 * followed (lib/bda.h: the one EBDA rule). */
static void test_bad_ebda_pointer(void **state)
{
    static const uint32_t bad[] = { 0, 0x300, 0x7FC00, 0xA0000, 0xC0000 };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memset(mem, 0, MEM_SIZE);
        set_ebda(bad[i]);
        if (bad[i] >= 0x400)
            put_rsdp(mem + bad[i], 0, "NOPE  ");
        put_rsdp(mem + IN_BIOS, 0, "GOOD  ");
        find();
        assert_int_equal(r.ebda, 0);
        assert_int_equal(r.addr, IN_BIOS);
    }
}

/* An EBDA at the top of conventional memory: its last bytes are scanned, and
 * nothing at or above A0000h is read. */
static void test_ebda_at_640k(void **state)
{
    (void)state;
    set_ebda(0x9FF00);
    put_rsdp(mem + 0x9FFE0, 0, "TOP   ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.addr, 0x9FFE0);
    memset(mem + 0x9FFE0, 0, 32);
    put_rsdp(mem + 0x9FFF0, 0, "CUT   ");      /* would straddle A0000h */
    find();
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
}

static void test_bad_checksum_skipped(void **state)
{
    (void)state;
    put_rsdp(mem + 0xE1000, 0, "BAD   ");
    mem[0xE1000 + 16]++;
    put_rsdp(mem + 0xF0000, 0, "GOOD  ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.addr, 0xF0000);
    assert_int_equal(r.bad_checksums, 1);

    mem[0xF0000 + 8]++;
    find();
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
    assert_int_equal(r.bad_checksums, 2);
}

/* Revision 2 with a good 1.0 checksum and a bad extended one: kept, as RSDT-only,
 * unless a fully valid RSDP comes later. */
static void test_bad_extended_checksum(void **state)
{
    (void)state;
    put_rsdp(mem + 0xE2000, 2, "XBAD  ");
    mem[0xE2000 + 28]++;                /* XSDT address: extended checksum only */
    find();
    assert_int_equal(r.status, ACPI_RSDP_V1_ONLY);
    assert_int_equal(r.addr, 0xE2000);
    assert_int_equal(r.revision, 2);
    assert_int_equal(r.rsdt_addr, 0x07FE14A0);
    assert_false(r.have_xsdt);
    assert_true(r.xsdt_addr == 0);
    assert_int_equal(r.bad_extended, 1);

    put_rsdp(mem + 0xF0000, 2, "GOOD  ");
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.addr, 0xF0000);
    assert_true(r.have_xsdt);
    assert_int_equal(r.bad_extended, 1);
}

/* The length field: below 36, above the limit, or past the end of memory. */
static void test_bad_lengths(void **state)
{
    static const uint32_t lens[] = { 0, 20, 35, ACPI_RSDP_LEN_MAX + 1, 0xFFFFFFFFu };
    (void)state;
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        put_rsdp(mem + IN_BIOS, 2, "LEN   ");
        put32(mem + IN_BIOS + 20, lens[i]);
        fix_sum(mem + IN_BIOS, 20, mem + IN_BIOS + 8);
        find();
        assert_int_equal(r.status, ACPI_RSDP_V1_ONLY);
        assert_int_equal(r.length, lens[i]);
        assert_int_equal(r.bad_extended, 1);
    }
}

/* A longer RSDP (length 64) whose checksum covers all of it. */
static void test_longer_rsdp(void **state)
{
    (void)state;
    put_rsdp(mem + IN_BIOS, 2, "LONG  ");
    put32(mem + IN_BIOS + 20, 64);
    mem[IN_BIOS + 50] = 0x77;
    fix_sum(mem + IN_BIOS, 20, mem + IN_BIOS + 8);
    fix_sum(mem + IN_BIOS, 64, mem + IN_BIOS + 32);
    find();
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.length, 64);
}

/* At the very end of memory: the 36-byte part cannot be read. */
static void test_rsdp_at_end_of_memory(void **state)
{
    (void)state;
    put_rsdp(mem + MEM_SIZE - 32, 0, "END   ");
    mem[MEM_SIZE - 32 + 15] = 2;
    fix_sum(mem + MEM_SIZE - 32, 20, mem + MEM_SIZE - 32 + 8);
    find();
    assert_int_equal(r.status, ACPI_RSDP_V1_ONLY);
    assert_int_equal(r.addr, MEM_SIZE - 32);
    assert_int_equal(r.bad_extended, 0);

    memset(mem + MEM_SIZE - 32, 0, 32);
    memcpy(mem + MEM_SIZE - 16, "RSD PTR ", 8);  /* 16 bytes: not even 20 */
    find();
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
}

/* A window smaller than the BDA or the scan areas: nothing is read outside it. */
static void test_small_window(void **state)
{
    (void)state;
    uint8_t *small = malloc(0x40F);
    memset(small, 0xFF, 0x40F);
    struct physmem tiny = { (uintptr_t)small, 0x40F };
    acpi_find_rsdp(&r, &tiny);
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);
    assert_int_equal(r.ebda, 0);
    free(small);
}

static void test_oem_id_sanitised(void **state)
{
    (void)state;
    put_rsdp(mem + IN_BIOS, 0, "A\x01\xff\x7f" "B ");
    find();
    assert_string_equal(r.oem_id, "A???B");
    put_rsdp(mem + IN_BIOS, 0, "AB\0CDE");
    find();
    assert_string_equal(r.oem_id, "AB");
}

/* --- copies (multiboot 2 tags 14 and 15) ------------------------------------------ */

static void test_copy(void **state)
{
    (void)state;
    uint8_t *copy = malloc(36);
    put_rsdp(copy, 2, "COPY  ");
    assert_true(acpi_parse_rsdp(&r, copy, 36));
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_int_equal(r.where, ACPI_RSDP_IN_COPY);
    assert_int_equal(r.addr, 0);
    assert_true(r.have_xsdt);
    assert_string_equal(r.oem_id, "COPY");

    /* The old-RSDP tag holds 20 bytes even of a revision 2 RSDP. */
    assert_true(acpi_parse_rsdp(&r, copy, 20));
    assert_int_equal(r.status, ACPI_RSDP_V1_ONLY);
    assert_int_equal(r.revision, 2);
    assert_int_equal(r.rsdt_addr, 0x07FE14A0);
    assert_false(r.have_xsdt);
    assert_int_equal(r.bad_extended, 0);

    assert_false(acpi_parse_rsdp(&r, copy, 19));
    assert_int_equal(r.status, ACPI_RSDP_NOT_FOUND);

    copy[9] ^= 1;
    assert_false(acpi_parse_rsdp(&r, copy, 36));
    assert_int_equal(r.bad_checksums, 1);
    free(copy);
}

static void test_copy_rev0(void **state)
{
    (void)state;
    uint8_t *copy = malloc(20);
    put_rsdp(copy, 0, "OLD   ");
    assert_true(acpi_parse_rsdp(&r, copy, 20));
    assert_int_equal(r.status, ACPI_RSDP_OK);
    assert_false(r.have_xsdt);
    free(copy);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(acpi_rsdp_status_name(ACPI_RSDP_OK), "ok");
    assert_string_equal(acpi_rsdp_status_name(ACPI_RSDP_NOT_FOUND), "no RSDP");
    assert_string_equal(acpi_rsdp_status_name((enum acpi_rsdp_status)7), "?");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_rev0_in_bios_area),
        T(test_rev2_in_ebda),
        T(test_e_segment),
        T(test_not_found),
        T(test_alignment_and_ebda_extent),
        T(test_bad_ebda_pointer),
        T(test_ebda_at_640k),
        T(test_bad_checksum_skipped),
        T(test_bad_extended_checksum),
        T(test_bad_lengths),
        T(test_longer_rsdp),
        T(test_rsdp_at_end_of_memory),
        T(test_small_window),
        T(test_oem_id_sanitised),
        T(test_copy),
        T(test_copy_rev0),
        T(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
