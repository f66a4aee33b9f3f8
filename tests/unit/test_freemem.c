/* Finding the AML interpreter's pool in the boot loader's map (system/freemem.c):
 * available RAM only, above 1 MiB, below 4 GiB, around the kernel, the tables and any
 * entry that calls the same memory reserved. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../system/freemem.h"

#define MIB 0x100000ull

/* The linker script's symbols, which freemem_kernel() reads in the kernel. */
char kernel_start[1], kernel_end[1];

static void test_around_the_kernel(void **state)
{
    /* A 4 MiB machine: the kernel at 2 MiB-2.3 MiB, ACPI at the top. */
    const struct mmap_entry map[] = {
        { 0, 0x9FC00, MMAP_AVAILABLE },
        { MIB, 3 * MIB - 0x10000, MMAP_AVAILABLE },
        { 4 * MIB - 0x10000, 0x10000, MMAP_ACPI_RECLAIMABLE },
    };
    const struct mem_range kernel = { 2 * MIB, 2 * MIB + 0x48000 };
    struct mem_range out;
    uint64_t largest;
    (void)state;
    assert_true(freemem_find(map, 3, &kernel, 1, 512 * 1024, &out, &largest));
    assert_int_equal(out.base, MIB);                    /* below the kernel */
    assert_true(freemem_find(map, 3, &kernel, 1, 1536 * 1024, &out, &largest));
    assert_int_equal(out.base, 2 * MIB + 0x48000);      /* after it */
    assert_false(freemem_find(map, 3, &kernel, 1, 2 * MIB, &out, &largest));
    assert_int_equal(largest, 4 * MIB - 0x10000 - (2 * MIB + 0x48000));
}

static void test_overlapping_reserved(void **state)
{
    /* An available entry that overlaps a reserved one: the reserved part is avoided. */
    const struct mmap_entry map[] = {
        { MIB, 16 * MIB, MMAP_AVAILABLE },
        { 8 * MIB, MIB, MMAP_RESERVED },
    };
    struct mem_range out;
    uint64_t largest;
    (void)state;
    assert_true(freemem_find(map, 2, NULL, 0, 7 * MIB, &out, &largest));
    assert_int_equal(out.base, MIB);
    assert_true(freemem_find(map, 2, NULL, 0, 7 * MIB + 1, &out, &largest));
    assert_int_equal(out.base, 9 * MIB);
    assert_false(freemem_find(map, 2, NULL, 0, 8 * MIB + 1, &out, &largest));
}

static void test_limits(void **state)
{
    /* Nothing below 1 MiB, nothing at or above 4 GiB; the pool is 16-byte aligned. */
    const struct mmap_entry map[] = {
        { 0, 0x9FC00, MMAP_AVAILABLE },
        { 0xFFFF0000ull, 0x200000000ull, MMAP_AVAILABLE },
    };
    const struct mem_range table = { 0xFFFF0000ull, 0xFFFF0003ull };
    struct mem_range out;
    uint64_t largest;
    (void)state;
    assert_true(freemem_find(map, 2, &table, 1, 0x1000, &out, &largest));
    assert_int_equal(out.base, 0xFFFF0010ull);
    assert_true(out.end <= 0x100000000ull);
    assert_false(freemem_find(map, 2, &table, 1, 0x10000, &out, &largest));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_around_the_kernel),
        cmocka_unit_test(test_overlapping_reserved),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests_name("freemem", tests, NULL, NULL);
}
