/* survey/efi.c: the runtime services table and its ResetSystem pointer (method=efi),
 * in the ia32 and the x64 layout, and the tables it must refuse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/efi.h"

#define MEM_SIZE 0x4000
#define ST_AT    0x1000
#define RT_AT    0x2000
#define RESET_FN 0x7F123450u

static uint8_t mem[MEM_SIZE];
static struct physmem pm;

static void put(uint32_t at, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        mem[at + i] = (uint8_t)(v >> (8 * i));
}

/* A system table at ST_AT pointing to a runtime table at RT_AT. */
static void build(bool efi64, const char *rt_signature)
{
    unsigned ptr = efi64 ? 8 : 4;
    memset(mem, 0, sizeof(mem));
    pm = (struct physmem){ (uintptr_t)mem, MEM_SIZE };
    memcpy(mem + ST_AT, "IBI SYST", 8);
    put(ST_AT + 8, 0x00020046, 4);
    put(ST_AT + (efi64 ? 88 : 56), RT_AT, ptr);     /* RuntimeServices */
    memcpy(mem + RT_AT, rt_signature, 8);
    put(RT_AT + 24 + 10 * ptr, RESET_FN, ptr);      /* the 11th pointer: ResetSystem */
    put(RT_AT + 24 + 9 * ptr, 0x11111111, ptr);     /* GetNextHighMonotonicCount */
}

static void test_runtime_ia32(void **state)
{
    struct efi_info info;
    (void)state;
    build(false, "RUNTSERV");
    efi_read_system_table(&info, &pm, ST_AT, false);
    assert_true(info.valid);
    assert_false(info.efi64);
    assert_true(info.runtime_ok);
    assert_int_equal(info.runtime_services, RT_AT);
    assert_int_equal(info.reset_system, RESET_FN);
}

static void test_runtime_x64(void **state)
{
    struct efi_info info;
    (void)state;
    build(true, "RUNTSERV");
    efi_read_system_table(&info, &pm, ST_AT, true);
    assert_true(info.efi64);
    assert_true(info.runtime_ok);
    assert_int_equal(info.reset_system, RESET_FN);
}

static void test_runtime_bad_signature(void **state)
{
    struct efi_info info;
    (void)state;
    build(true, "RUNTSERX");
    efi_read_system_table(&info, &pm, ST_AT, true);
    assert_true(info.valid);
    assert_false(info.runtime_ok);
    assert_int_equal(info.reset_system, 0);
}

/* A runtime table whose ResetSystem would lie past the readable window. */
static void test_runtime_outside_window(void **state)
{
    struct efi_info info;
    (void)state;
    build(true, "RUNTSERV");
    put(ST_AT + 88, MEM_SIZE - 40, 8);
    efi_read_system_table(&info, &pm, ST_AT, true);
    assert_false(info.runtime_ok);
    assert_int_equal(info.reset_system, 0);
}

/* Where ResetSystem lies among the runtime regions: code, another runtime type,
 * none (unless the list was cut short), or no map at all. */
static void test_locate(void **state)
{
    const struct efi_region rt[] = {
        { 0x7F000000u, 16, EFI_RUNTIME_SERVICES_CODE },
        { 0x7F100000u, 4, 6 },                  /* runtime services data */
    };
    const struct efi_region *r;
    (void)state;
    assert_int_equal(efi_locate(rt, 2, true, false, 0x7F00FFFFu, &r), EFI_PLACE_RUNTIME_CODE);
    assert_ptr_equal(r, &rt[0]);
    assert_int_equal(efi_locate(rt, 2, true, false, 0x7F010000u, &r), EFI_PLACE_NOT_RUNTIME);
    assert_null(r);
    assert_int_equal(efi_locate(rt, 2, true, false, 0x7F100010u, &r), EFI_PLACE_RUNTIME_OTHER);
    assert_int_equal(efi_locate(rt, 2, true, true, 0x10000u, &r), EFI_PLACE_NO_MAP);
    assert_int_equal(efi_locate(rt, 0, false, false, 0x7F000000u, NULL), EFI_PLACE_NO_MAP);
    assert_string_equal(efi_place_name(EFI_PLACE_NOT_RUNTIME), "not-runtime");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_ia32),
        cmocka_unit_test(test_runtime_x64),
        cmocka_unit_test(test_runtime_bad_signature),
        cmocka_unit_test(test_runtime_outside_window),
        cmocka_unit_test(test_locate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
