/* The tables action=dump archives (survey/acpi_list.c), on a made-up memory: an ACPI
 * 2.0 RSDP, an XSDT and an RSDT that list the same FACP and APIC (each table once), the
 * DSDT and FACS the FACP points to, an entry outside memory and one with a bad header
 * (counted, not listed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../lib/le.h"
#include "../../survey/acpi_list.h"

#define MEM 0x20000
static uint8_t mem[MEM];

static void table(uint32_t at, const char *sig, uint32_t len)
{
    memcpy(mem + at, sig, 4);
    put_le32(mem + at + 4, len);
}

static void test_list(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, MEM };
    struct acpi_rsdp rsdp = { 0 };
    static struct acpi_list l;

    memset(mem, 0, sizeof(mem));
    table(0x1000, "XSDT", 36 + 4 * 8);
    put_le_n(mem + 0x1000 + 36, 8, 0x3000);        /* FACP */
    put_le_n(mem + 0x1000 + 44, 8, 0x4000);        /* APIC */
    put_le_n(mem + 0x1000 + 52, 8, 0x100000000ull);    /* above 4 GiB */
    put_le_n(mem + 0x1000 + 60, 8, 0x9000);        /* no table there */
    table(0x2000, "RSDT", 36 + 2 * 4);
    put_le32(mem + 0x2000 + 36, 0x4000);
    put_le32(mem + 0x2000 + 40, 0x3000);
    table(0x3000, "FACP", 244);
    put_le32(mem + 0x3000 + 36, 0x5000);        /* FIRMWARE_CTRL */
    put_le32(mem + 0x3000 + 40, 0x6000);        /* DSDT */
    put_le_n(mem + 0x3000 + 140, 8, 0x7000);       /* X_DSDT wins */
    table(0x4000, "APIC", 80);
    table(0x5000, "FACS", 64);
    table(0x6000, "DSDT", 100);
    table(0x7000, "DSDT", 200);
    rsdp.addr = 0xE000;
    rsdp.revision = 2;
    rsdp.length = 36;
    rsdp.have_xsdt = true;
    rsdp.xsdt_addr = 0x1000;
    rsdp.rsdt_addr = 0x2000;

    acpi_list(&l, &pm, &rsdp);
    const char *sigs[] = { "RSDP", "XSDT", "RSDT", "FACP", "APIC", "DSDT", "FACS" };
    const uint32_t addrs[] = { 0xE000, 0x1000, 0x2000, 0x3000, 0x4000, 0x7000, 0x5000 };
    const uint32_t lens[] = { 36, 68, 44, 244, 80, 200, 64 };
    assert_int_equal(l.count, 7);
    for (unsigned i = 0; i < 7; i++) {
        assert_string_equal(l.table[i].sig, sigs[i]);
        assert_int_equal(l.table[i].addr, addrs[i]);
        assert_int_equal(l.table[i].length, lens[i]);
    }
    assert_int_equal(l.skipped, 2);
}

static void test_no_rsdp(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, MEM };
    struct acpi_rsdp rsdp = { 0 };
    static struct acpi_list l;
    acpi_list(&l, &pm, &rsdp);
    assert_int_equal(l.count, 0);
}

/* A root table that claims more than the window holds is skipped, not read past. */
static void test_root_past_window(void **state)
{
    (void)state;
    struct physmem pm = { (uintptr_t)mem, MEM };
    struct acpi_rsdp rsdp = { .addr = 0xE000, .rsdt_addr = 0x1F000 };
    static struct acpi_list l;
    memset(mem, 0, sizeof(mem));
    table(0x1F000, "RSDT", 0x2000);
    acpi_list(&l, &pm, &rsdp);
    assert_int_equal(l.count, 1);
    assert_int_equal(l.table[0].length, 20);
    assert_int_equal(l.skipped, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_no_rsdp),
        cmocka_unit_test(test_root_past_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
