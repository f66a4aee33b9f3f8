/* survey/aml_s5.c: the \_S5_ reader on hand-made AML, good and hostile.
 *
 * Each stream is copied into a heap block of exactly its length, so AddressSanitizer
 * flags any read past the end. The byte sequences are what iasl (or, where said, the
 * Microsoft ASL compiler of the 1990s) emits for the ASL quoted beside them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/aml_s5.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

static struct aml_s5 s;

/* Reads n bytes from a block of their exact size. */
static enum aml_s5_result run(const uint8_t *aml, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, aml, n);
    memset(&s, 0xA5, sizeof(s));
    enum aml_s5_result r = aml_find_s5(copy, n, &s);
    free(copy);
    assert_int_equal(r, s.result);
    return r;
}

#define RUN(a) run(a, sizeof(a))

static void found(const uint8_t *aml, size_t n, uint8_t how, uint8_t a, uint8_t b)
{
    assert_int_equal(run(aml, n), AML_S5_FOUND);
    assert_int_equal(s.how, how);
    assert_int_equal(s.slp_typa, a);
    assert_int_equal(s.slp_typb, b);
}

#define FOUND(arr, how, a, b) found(arr, sizeof(arr), how, a, b)

/* QEMU's generated DSDT (hw/i386/acpi-build.c, aml_int(0) is ZeroOp) and Bochs'
 * rombios acpi-dsdt.dsl as iasl compiles it: Name (_S5, Package (0x04) { Zero, Zero,
 * Zero, Zero }) at the DefinitionBlock's top level. */
static const uint8_t qemu[] = {
    0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

static void test_qemu(void **state)
{
    (void)state;
    FOUND(qemu, AML_S5_BY_WALK, 0, 0);
    assert_int_equal(s.elements, 4);
    assert_int_equal(s.offset, 0);
    assert_int_equal(s.conditional, 0);
    assert_int_equal(s.stop_offset, sizeof(qemu));
}

/* SeaBIOS's ssdt-misc.dsl (QEMU 1.x-2.0): Scope (\) { Name (_S3, Package (0x04) { One,
 * One, Zero, Zero }) Name (_S4, Package (0x04) { 0x2, 0x2, Zero, Zero })
 * Name (_S5, Package (0x04) { Zero, Zero, Zero, Zero }) } */
static const uint8_t seabios[] = {
    0x10, 0x29, 0x5C, 0x00,
    0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01, 0x00, 0x00,
    0x08, '_', 'S', '4', '_', 0x12, 0x08, 0x04, 0x0A, 0x02, 0x0A, 0x02, 0x00, 0x00,
    0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

static void test_seabios_scope_root(void **state)
{
    (void)state;
    FOUND(seabios, AML_S5_BY_WALK, 0, 0);
    assert_int_equal(s.offset, 30);
}

/* coreboot boards (src/mainboard/.../dsdt.asl): Name (\_S5, Package (0x04) { 0x02,
 * 0x02, 0x02, 0x02 }): root prefix, BytePrefix elements. */
static const uint8_t coreboot[] = {
    0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x0A, 0x04, 0x0A, 0x02, 0x0A, 0x02,
    0x0A, 0x02, 0x0A, 0x02,
};

static void test_coreboot_root_prefix(void **state)
{
    (void)state;
    FOUND(coreboot, AML_S5_BY_WALK, 2, 2);
}

/* Award 4.51PG-era DSDTs (Microsoft's ASL compiler: every integer with BytePrefix,
 * two-element packages, names with the root prefix), in the shape of the FIC VA-503+
 * (VT82C586B) one: Name (\_S5, Package (0x02) { 0x05, 0x05 }). The values are
 * illustrative: that board's own DSDT was not at hand. */
static const uint8_t award[] = {
    0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x06, 0x02, 0x0A, 0x05, 0x0A, 0x05,
};

static void test_award_byte_prefix(void **state)
{
    (void)state;
    FOUND(award, AML_S5_BY_WALK, 5, 5);
    assert_int_equal(s.elements, 2);
}

static void test_integer_encodings(void **state)
{
    (void)state;
    static const uint8_t one_ones[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x01, 0xFF,
    };
    static const uint8_t word_dword[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x0A, 0x02, 0x0B, 0x07, 0x00,
        0x0C, 0x06, 0x00, 0x00, 0x00,
    };
    static const uint8_t qword[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x14, 0x02, 0x0E, 0x03, 0, 0, 0, 0, 0, 0, 1,
        0x0E, 0x04, 0, 0, 0, 0, 0, 0, 0,
    };
    /* ACPICA: one integer holds both (a in bits 0-7, b in 8-15). */
    static const uint8_t single[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x01, 0x0B, 0x07, 0x03,
    };
    FOUND(one_ones, AML_S5_BY_WALK, 1, 0xFF);
    FOUND(word_dword, AML_S5_BY_WALK, 7, 6);
    FOUND(qword, AML_S5_BY_WALK, 3, 4);
    FOUND(single, AML_S5_BY_WALK, 7, 3);
    assert_int_equal(s.elements, 1);
}

static void test_pkg_length_forms(void **state)
{
    (void)state;
    /* A 2-byte PkgLength for a 6-byte package (legal, if not minimal). */
    static const uint8_t two_byte[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x48, 0x00, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    FOUND(two_byte, AML_S5_BY_WALK, 7, 0);

    /* Scope (\) with a 2-byte PkgLength: a 100-byte Buffer before \_S5_. */
    uint8_t big[5 + 8 + 2 + 96 + 12];
    size_t n = 0;
    size_t scope_len = sizeof(big) - 1;
    big[n++] = 0x10;
    big[n++] = (uint8_t)(0x40 | (scope_len & 0x0F));
    big[n++] = (uint8_t)(scope_len >> 4);
    big[n++] = 0x5C;
    big[n++] = 0x00;
    memcpy(big + n, (const uint8_t[]){ 0x08, 'B', 'U', 'F', '0', 0x11, 0x40 | 4, 6 }, 8);
    n += 8;
    big[n++] = 0x0A;
    big[n++] = 100;
    memset(big + n, 0x08, 100 - 4); /* NameOp bytes as data */
    n += 100 - 4;
    memcpy(big + n, qemu, sizeof(qemu));
    n += sizeof(qemu);
    assert_int_equal(n, sizeof(big));
    found(big, n, AML_S5_BY_WALK, 0, 0);
}

/* Name (\_S5, ...) in Scope (\_SB) is the root's; Name (_S5, ...) there is
 * \_SB._S5_, not the sleep object; ^_S5_ from \_SB is the root's again. */
static void test_scopes(void **state)
{
    (void)state;
    static const uint8_t root_in_sb[] = {
        0x10, 0x14, 0x5C, '_', 'S', 'B', '_',
        0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x05, 0x00, 0x00, 0x00,
    };
    static const uint8_t rel_in_sb[] = {
        0x10, 0x13, 0x5C, '_', 'S', 'B', '_',
        0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x05, 0x00, 0x00, 0x00,
    };
    static const uint8_t parent_in_sb[] = {
        0x10, 0x14, 0x5C, '_', 'S', 'B', '_',
        0x08, 0x5E, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x05, 0x00, 0x00, 0x00,
    };
    /* Scope (\_SB.PCI0) { Name (^^_S5, ...) }: DualNamePrefix, two parents up. */
    static const uint8_t dual[] = {
        0x10, 0x1A, 0x5C, 0x2E, '_', 'S', 'B', '_', 'P', 'C', 'I', '0',
        0x08, 0x5E, 0x5E, '_', 'S', '5', '_',
        0x12, 0x07, 0x04, 0x0A, 0x06, 0x00, 0x00, 0x00,
    };
    /* Scope (\_SB.PCI0.ISA_) via MultiNamePrefix, then ^_S5_ is \_SB.PCI0._S5_. */
    static const uint8_t multi[] = {
        0x10, 0x1E, 0x5C, 0x2F, 0x03, '_', 'S', 'B', '_', 'P', 'C', 'I', '0',
        'I', 'S', 'A', '_',
        0x08, 0x5E, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x06, 0x00, 0x00, 0x00,
    };
    FOUND(root_in_sb, AML_S5_BY_WALK, 5, 0);
    assert_int_equal(RUN(rel_in_sb), AML_S5_ABSENT);
    FOUND(parent_in_sb, AML_S5_BY_WALK, 5, 0);
    FOUND(dual, AML_S5_BY_WALK, 6, 0);
    assert_int_equal(RUN(multi), AML_S5_ABSENT);
}

/* If (SS5) { Name (_S5, Package (0x04) { 0x07, Zero, Zero, Zero }) }, as some BIOSes
 * guard it with a setup option, after the variable's own Name. */
static void test_inside_if(void **state)
{
    (void)state;
    static const uint8_t guarded[] = {
        0x08, 'S', 'S', '5', '_', 0x01,
        0xA0, 0x12, 'S', 'S', '5', '_',
        0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    /* If (LEqual (OSYS, 0x07D0)) {} Else { Name (\_S5, ...) } */
    static const uint8_t else_branch[] = {
        0xA0, 0x0B, 0x93, 'O', 'S', 'Y', 'S', 0x0B, 0xD0, 0x07, 0xA3, 0xA3,
        0xA1, 0x0F, 0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07,
        0x00, 0x00, 0x00,
    };
    FOUND(guarded, AML_S5_BY_WALK, 7, 0);
    assert_int_equal(s.conditional, 1);
    FOUND(else_branch, AML_S5_BY_WALK, 7, 0);
    assert_int_equal(s.conditional, 1);
}

/* A Method whose body holds the same bytes, and a Buffer holding them: both skipped,
 * the real \_S5_ after them is taken. */
static void test_decoys_skipped(void **state)
{
    (void)state;
    static const uint8_t decoys[] = {
        /* Method (_PTS, 1) { Name (_S5, Package (0x04) { 0x05, ... }) } */
        0x14, 0x13, '_', 'P', 'T', 'S', 0x01,
        0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x05, 0x00, 0x00, 0x00,
        /* Name (BUF0, Buffer (0x0D) { the same bytes with 0x06 }) */
        0x08, 'B', 'U', 'F', '0', 0x11, 0x10, 0x0A, 0x0D,
        0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0A, 0x06, 0x00, 0x00, 0x00,
        /* Name (STR0, "_S5_") */
        0x08, 'S', 'T', 'R', '0', 0x0D, '_', 'S', '5', '_', 0x00,
        /* the real one */
        0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    static const uint8_t only_decoys[] = {
        0x14, 0x13, '_', 'P', 'T', 'S', 0x01,
        0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x05, 0x00, 0x00, 0x00,
    };
    FOUND(decoys, AML_S5_BY_WALK, 7, 0);
    assert_int_equal(s.offset, sizeof(decoys) - 13);
    assert_int_equal(RUN(only_decoys), AML_S5_ABSENT);
}

/* The objects a DSDT holds before \_S5_: each sized, none entered. */
static void test_objects_walked(void **state)
{
    (void)state;
    static const uint8_t dsdt[] = {
        /* External (\_SB.PCI0, DeviceObj) */
        0x15, 0x5C, 0x2E, '_', 'S', 'B', '_', 'P', 'C', 'I', '0', 0x06, 0x00,
        /* OperationRegion (DBG_, SystemIO, 0x0402, One) */
        0x5B, 0x80, 'D', 'B', 'G', '_', 0x01, 0x0B, 0x02, 0x04, 0x01,
        /* Field (DBG_, ByteAcc, NoLock, Preserve) { DBGB, 8 } */
        0x5B, 0x81, 0x0B, 'D', 'B', 'G', '_', 0x01, 'D', 'B', 'G', 'B', 0x08,
        /* Mutex (MUT0, 0), Event (EVT0), Alias (MUT0, MUTX) */
        0x5B, 0x01, 'M', 'U', 'T', '0', 0x00,
        0x5B, 0x02, 'E', 'V', 'T', '0',
        0x06, 'M', 'U', 'T', '0', 'M', 'U', 'T', 'X',
        /* Processor (\_PR.CPU0, 0x01, 0x0000B010, 0x06) {} */
        0x5B, 0x83, 0x11, 0x5C, 0x2E, '_', 'P', 'R', '_', 'C', 'P', 'U', '0',
        0x01, 0x10, 0xB0, 0x00, 0x00, 0x06,
        /* Scope (_SB) { Device (PCI0) { Name (_HID, EisaId ("PNP0A03")) } } */
        0x10, 0x16, '_', 'S', 'B', '_',
        0x5B, 0x82, 0x0F, 'P', 'C', 'I', '0',
        0x08, '_', 'H', 'I', 'D', 0x0C, 0x41, 0xD0, 0x0A, 0x03,
        /* PowerResource, ThermalZone, While, Noop */
        0x5B, 0x84, 0x0A, 'P', 'W', 'R', '0', 0x00, 0x00, 0x00, 0xA3, 0xA3,
        0x5B, 0x85, 0x05, 'T', 'Z', '0', '_',
        0xA2, 0x02, 0x00,
        0xA3,
        /* Name (_S5, Package (0x04) { 0x05, 0x05, Zero, Zero }) */
        0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0A, 0x05, 0x0A, 0x05, 0x00, 0x00,
    };
    FOUND(dsdt, AML_S5_BY_WALK, 5, 5);
}

/* An opcode the walk cannot size: it stops there, and only then searches. */
static void test_fallback_search(void **state)
{
    (void)state;
    static const uint8_t store_first[] = {
        0x70, 0x01, 'D', 'B', 'G', 'B',         /* Store (One, DBGB) at table level */
        0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    static const uint8_t bad_package[] = {
        0x70, 0x01, 'D', 'B', 'G', 'B',
        0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0A,
    };
    static const uint8_t name_elements[] = {
        0x70, 0x01, 'D', 'B', 'G', 'B',
        0x08, '_', 'S', '5', '_', 0x12, 0x0B, 0x02, 'S', 'L', 'P', 'A', 'S', 'L', 'P', 'B',
    };
    FOUND(store_first, AML_S5_BY_SEARCH, 7, 0);
    assert_int_equal(s.stop_offset, 0);
    assert_int_equal(s.stop_opcode, 0x70);
    assert_int_equal(s.offset, 6);
    assert_int_equal(RUN(bad_package), AML_S5_NOT_UNDERSTOOD);
    assert_int_equal(RUN(name_elements), AML_S5_NOT_UNDERSTOOD);
}

/* The walk is authoritative: a \_S5_ it reaches but cannot read is not searched on. */
static void test_unreadable(void **state)
{
    (void)state;
    static const uint8_t names[] = {
        0x08, '_', 'S', '5', '_', 0x12, 0x0B, 0x02, 'S', 'L', 'P', 'A', 'S', 'L', 'P', 'B',
        0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    static const uint8_t not_package[] = { 0x08, '_', 'S', '5', '_', 0x0A, 0x05 };
    static const uint8_t empty[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x02, 0x00 };
    static const uint8_t short_pkg[] = {       /* NumElements 2, one element */
        0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x0A, 0x05,
    };
    assert_int_equal(RUN(names), AML_S5_UNREADABLE);
    assert_int_equal(s.how, AML_S5_BY_WALK);
    assert_int_equal(RUN(not_package), AML_S5_UNREADABLE);
    assert_int_equal(RUN(empty), AML_S5_UNREADABLE);
    assert_int_equal(RUN(short_pkg), AML_S5_UNREADABLE);
}

/* Every prefix of a good stream is read within its bounds and never found. */
static void test_truncated(void **state)
{
    (void)state;
    for (size_t n = 0; n < sizeof(seabios); n++)
        assert_int_not_equal(run(seabios, n), AML_S5_FOUND);
    for (size_t n = 0; n < sizeof(coreboot); n++)
        assert_int_not_equal(run(coreboot, n), AML_S5_FOUND);
    assert_int_equal(run(qemu, 0), AML_S5_ABSENT);
    assert_int_equal(run(qemu, 6), AML_S5_UNREADABLE);
}

/* PkgLengths that claim more than their container. */
static void test_pkg_length_overrun(void **state)
{
    (void)state;
    static const uint8_t scope_long[] = { 0x10, 0x3F, 0x5C, 0xA3 };
    static const uint8_t four_byte[] = { 0x14, 0xC0, 0xFF, 0xFF, 0xFF, 'M', 'T', 'H', 'D' };
    static const uint8_t zero_len[] = { 0x14, 0x00, 0xA3 };
    assert_int_equal(RUN(scope_long), AML_S5_NOT_UNDERSTOOD);
    assert_int_equal(s.stop_offset, 0);
    assert_int_equal(RUN(four_byte), AML_S5_NOT_UNDERSTOOD);
    assert_int_equal(RUN(zero_len), AML_S5_NOT_UNDERSTOOD);
}

/* Scopes nested past AML_NEST_MAX stop the walk; the search still finds \_S5_. */
static void test_nesting_bounded(void **state)
{
    (void)state;
    enum { LEVELS = AML_NEST_MAX + 2 };
    uint8_t aml[LEVELS * 5 + sizeof(coreboot)];
    size_t n = 0;
    for (unsigned i = 0; i < LEVELS; i++) {
        size_t len = sizeof(aml) - n - 1;
        aml[n++] = 0x10;
        aml[n++] = (uint8_t)(0x40 | (len & 0x0F));     /* 2-byte PkgLength */
        aml[n++] = (uint8_t)(len >> 4);
        aml[n++] = 0x5C;
        aml[n++] = 0x00;
    }
    memcpy(aml + n, coreboot, sizeof(coreboot));
    FOUND(aml, AML_S5_BY_SEARCH, 2, 2);
    assert_int_equal(s.stop_offset, AML_NEST_MAX * 5);
}

static void test_bad_names(void **state)
{
    (void)state;
    static const uint8_t lower[] = { 0x08, '_', 's', '5', '_', 0x00 };
    static const uint8_t parent_above_root[] = {
        0x08, 0x5E, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0A, 0x07, 0x00, 0x00, 0x00,
    };
    static const uint8_t multi_zero[] = { 0x10, 0x04, 0x2F, 0x00, 0xA3 };
    assert_int_equal(RUN(lower), AML_S5_NOT_UNDERSTOOD);
    /* ^_S5_ at the root is no object; the walk reads its package as a Name's value */
    assert_int_equal(RUN(parent_above_root), AML_S5_ABSENT);
    assert_int_equal(RUN(multi_zero), AML_S5_NOT_UNDERSTOOD);
}

/* Real firmware's DSDTs, stored in tests/unit/fixtures/: the ones QEMU 7.2 generates
 * for its pc and q35 machines (taken from guest memory with QMP pmemsave) and Bochs
 * 2.7's own BIOS's (dumped with its debugger's writemem): the whole term list as the
 * firmware writes it, Devices, Methods, Fields and all. Each says
 * Name (_S5, Package (0x04) { Zero, Zero, Zero, Zero }), and the walk, not the
 * search, must find it. */
static void stored_dsdt(const char *name)
{
    char path[256];
    static uint8_t table[65536];
    snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    size_t n = fread(table, 1, sizeof(table), f);
    fclose(f);
    assert_true(n > 36);
    assert_memory_equal(table, "DSDT", 4);
    struct aml_s5 out;
    assert_int_equal(aml_find_s5(table + 36, n - 36, &out), AML_S5_FOUND);
    assert_int_equal(out.how, AML_S5_BY_WALK);
    assert_int_equal(out.slp_typa, 0);
    assert_int_equal(out.slp_typb, 0);
    assert_int_equal(out.elements, 4);
    assert_false(out.conditional);
}

static void test_stored_qemu_pc(void **state)
{
    (void)state;
    stored_dsdt("qemu-pc-dsdt.aml");
}

static void test_stored_qemu_q35(void **state)
{
    (void)state;
    stored_dsdt("qemu-q35-dsdt.aml");
}

static void test_stored_bochs(void **state)
{
    (void)state;
    stored_dsdt("bochs-rombios-dsdt.aml");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu),
        cmocka_unit_test(test_seabios_scope_root),
        cmocka_unit_test(test_coreboot_root_prefix),
        cmocka_unit_test(test_award_byte_prefix),
        cmocka_unit_test(test_integer_encodings),
        cmocka_unit_test(test_pkg_length_forms),
        cmocka_unit_test(test_scopes),
        cmocka_unit_test(test_inside_if),
        cmocka_unit_test(test_decoys_skipped),
        cmocka_unit_test(test_objects_walked),
        cmocka_unit_test(test_fallback_search),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_pkg_length_overrun),
        cmocka_unit_test(test_nesting_bounded),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_stored_qemu_pc),
        cmocka_unit_test(test_stored_qemu_q35),
        cmocka_unit_test(test_stored_bochs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
