/* loader/mbinfo.c: the multiboot information the loader builds, read back by the
 * kernel's own reader (system/bootinfo.c), so the two ends are tested against each
 * other and not each against our reading of the specification.
 *
 * A host buffer stands in for physical memory from address 0; the block is built at
 * INFO in it, with INFO as its physical address, and bootinfo_parse() follows the
 * addresses in it as the kernel would. The buffer is filled with a marker first, so
 * a byte written past what mbinfo_build() says it used shows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../loader/mbinfo.h"
#include "../../system/bootinfo.h"

#define MEM_SIZE    0x8000
#define INFO        0x4000
#define MARK        0xEE
#define MEG         0x100000u

static uint8_t mem[MEM_SIZE];
static struct bootinfo bi;

static int setup(void **state)
{
    (void)state;
    memset(mem, MARK, sizeof(mem));
    return 0;
}

static uint32_t get32(uint32_t at)
{
    return mem[at] | (uint32_t)mem[at + 1] << 8 | (uint32_t)mem[at + 2] << 16 |
           (uint32_t)mem[at + 3] << 24;
}

static uint32_t build(const struct mbinfo_in *in, uint32_t size)
{
    return mbinfo_build(in, mem + INFO, size, INFO);
}

static void parse(void)
{
    bootinfo_parse(&bi, MB1_BOOT_MAGIC, INFO, (uintptr_t)mem);
}

static void assert_untouched(uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        if (mem[i] != MARK)
            fail_msg("byte %04Xh written", i);
}

/* The fields the loader does not fill are zero, as the specification requires of a
 * block whose flags do not name them. */
static void assert_unused_zero(void)
{
    static const struct { uint32_t from, to; } unused[] = {
        { 20, 44 },     /* mods_count, mods_addr, syms */
        { 52, 64 },     /* drives, config_table */
        { 68, 88 },     /* apm_table, vbe_* */
    };
    for (size_t k = 0; k < 3; k++)
        for (uint32_t i = unused[k].from; i < unused[k].to; i++)
            assert_int_equal(mem[INFO + i], 0);
}

static const struct mbinfo_range e820[] = {
    { 0, 0x9FC00, E820_AVAILABLE },
    { 0x9FC00, 0x400, E820_RESERVED },
    { 0xF0000, 0x10000, E820_RESERVED },
    { MEG, 0x7EE0000, E820_AVAILABLE },
    { 0x7FE0000, 0x20000, 3 },                          /* ACPI reclaimable */
    { 0xFFFC0000, 0x40000, E820_RESERVED },
    { 0x100000000ull, 0x80000000ull, E820_AVAILABLE },  /* above 4 GiB */
};
#define E820_COUNT (sizeof(e820) / sizeof(e820[0]))

static void test_with_e820(void **state)
{
    (void)state;
    const char *cmdline = "/boot/apmoff.lz4 action=survey wait=60";
    const char *loader = "apmoff loader 0.3";
    struct mbinfo_in in = {
        .lower_kb = 639, .upper_kb = 130944, .map_count = E820_COUNT, .map = e820,
        .drive = 0x00, .cmdline = cmdline, .loader = loader,
    };
    uint32_t need = MB1_INFO_SIZE + E820_COUNT * MB1_MMAP_ENTRY + strlen(cmdline) + 1 +
                    strlen(loader) + 1;
    assert_int_equal(build(&in, 0x1000), need);
    assert_untouched(0, INFO);
    assert_untouched(INFO + need, MEM_SIZE);
    assert_unused_zero();
    assert_int_equal(get32(INFO + MB1_OFF_FLAGS), MB1_FLAG_MEM | MB1_FLAG_BOOT_DEVICE |
                     MB1_FLAG_CMDLINE | MB1_FLAG_MMAP | MB1_FLAG_LOADER);
    /* The boot device: drive 00h (A:), and no partition (FFh) at each level. */
    assert_int_equal(get32(INFO + MB1_OFF_BOOT_DEVICE), 0x00FFFFFF);
    assert_int_equal(get32(INFO + MB1_OFF_MMAP_ADDR), INFO + MB1_INFO_SIZE);
    assert_int_equal(get32(INFO + MB1_OFF_MMAP_LENGTH), E820_COUNT * MB1_MMAP_ENTRY);

    parse();
    assert_int_equal(bi.protocol, 1);
    assert_int_equal(bi.malformed, 0);
    assert_true(bi.have_mem);
    assert_int_equal(bi.mem_lower_kb, 639);
    assert_int_equal(bi.mem_upper_kb, 130944);
    assert_string_equal(bi.cmdline, cmdline);
    assert_false(bi.cmdline_truncated);
    assert_string_equal(bi.loader, loader);
    assert_int_equal(bi.mmap_count, E820_COUNT);
    assert_false(bi.mmap_truncated);
    for (unsigned i = 0; i < E820_COUNT; i++) {
        assert_true(bi.mmap[i].base == e820[i].base);
        assert_true(bi.mmap[i].length == e820[i].length);
        assert_int_equal(bi.mmap[i].type, e820[i].type);
    }
}

/* No E820h map: one made of the sizes, as GRUB makes it. */
static void test_without_e820(void **state)
{
    (void)state;
    struct mbinfo_in in = {
        .lower_kb = 640, .upper_kb = 15360, .map_count = 0, .map = NULL,
        .drive = 0x01, .cmdline = "/boot/apmoff.lz4 ", .loader = "apmoff loader",
    };
    uint32_t n = build(&in, 0x1000);
    assert_int_equal(n, MB1_INFO_SIZE + 2 * MB1_MMAP_ENTRY + 18 + 14);
    assert_untouched(INFO + n, MEM_SIZE);
    assert_int_equal(get32(INFO + MB1_OFF_BOOT_DEVICE), 0x01FFFFFF);   /* B: */
    parse();
    assert_int_equal(bi.malformed, 0);
    assert_int_equal(bi.mem_lower_kb, 640);
    assert_int_equal(bi.mem_upper_kb, 15360);
    assert_string_equal(bi.cmdline, "/boot/apmoff.lz4 ");
    assert_string_equal(bi.loader, "apmoff loader");
    assert_int_equal(bi.mmap_count, 2);
    assert_true(bi.mmap[0].base == 0);
    assert_true(bi.mmap[0].length == 640 * 1024);
    assert_int_equal(bi.mmap[0].type, MMAP_AVAILABLE);
    assert_true(bi.mmap[1].base == MEG);
    assert_true(bi.mmap[1].length == 15360 * 1024);
    assert_int_equal(bi.mmap[1].type, MMAP_AVAILABLE);
}

/* Sizes too large for 32 bits of bytes still make a map of 64-bit lengths. */
static void test_without_e820_large(void **state)
{
    (void)state;
    struct mbinfo_in in = {
        .lower_kb = 639, .upper_kb = 0xFFFFFFFF, .cmdline = "", .loader = "",
    };
    assert_true(build(&in, 0x1000) > 0);
    parse();
    assert_int_equal(bi.mmap_count, 2);
    assert_true(bi.mmap[1].length == 0xFFFFFFFFull * 1024);
    assert_string_equal(bi.cmdline, "");
}

/* The longest command line the kernel takes whole: 1023 bytes. */
static void test_long_cmdline(void **state)
{
    static char cmdline[BOOTINFO_CMDLINE_MAX];
    (void)state;
    memset(cmdline, 'w', sizeof(cmdline) - 1);
    cmdline[sizeof(cmdline) - 1] = '\0';
    struct mbinfo_in in = { .lower_kb = 639, .upper_kb = 1024, .cmdline = cmdline,
                            .loader = "apmoff loader 0.3" };
    assert_true(build(&in, 0x2000) > BOOTINFO_CMDLINE_MAX);
    parse();
    assert_false(bi.cmdline_truncated);
    assert_string_equal(bi.cmdline, cmdline);
}

/* Where the block starts does not matter: every address in it is base + offset. */
static void test_other_base(void **state)
{
    (void)state;
    struct mbinfo_in in = { .lower_kb = 639, .upper_kb = 1024, .map_count = E820_COUNT,
                            .map = e820, .cmdline = "a b", .loader = "L" };
    uint32_t n = mbinfo_build(&in, mem + 0x100, 0x1000, 0x100);
    assert_true(n > 0);
    bootinfo_parse(&bi, MB1_BOOT_MAGIC, 0x100, (uintptr_t)mem);
    assert_string_equal(bi.cmdline, "a b");
    assert_string_equal(bi.loader, "L");
    assert_int_equal(bi.mmap_count, E820_COUNT);
    assert_true(get32(0x100 + MB1_OFF_CMDLINE) >= 0x100 + MB1_INFO_SIZE);
    assert_true(get32(0x100 + MB1_OFF_LOADER) < 0x100 + n);
}

/* Too little room: 0, and nothing written. */
static void test_too_small(void **state)
{
    (void)state;
    struct mbinfo_in in = { .lower_kb = 639, .upper_kb = 1024, .map_count = E820_COUNT,
                            .map = e820, .cmdline = "/boot/apmoff.lz4 x", .loader = "L" };
    uint32_t need = build(&in, MEM_SIZE - INFO);
    assert_true(need > 0);
    memset(mem, MARK, sizeof(mem));
    const uint32_t try[] = { 0, 1, MB1_INFO_SIZE, need - 2, need - 1 };
    for (size_t i = 0; i < sizeof(try) / sizeof(try[0]); i++) {
        assert_int_equal(build(&in, try[i]), 0);
        assert_untouched(0, MEM_SIZE);
    }
    assert_int_equal(build(&in, need), need);
    assert_untouched(INFO + need, MEM_SIZE);
}

/* A map of more ranges than the loader keeps is refused whole, not cut. */
static void test_map_limit(void **state)
{
    static struct mbinfo_range map[MBINFO_MAP_MAX + 1];
    (void)state;
    for (unsigned i = 0; i <= MBINFO_MAP_MAX; i++)
        map[i] = (struct mbinfo_range){ (uint64_t)i << 20, 0x1000, E820_AVAILABLE };
    struct mbinfo_in in = { .lower_kb = 639, .upper_kb = 1024, .map_count = MBINFO_MAP_MAX,
                            .map = map, .cmdline = "", .loader = "" };
    assert_true(build(&in, MEM_SIZE - INFO) > 0);
    parse();
    assert_int_equal(bi.mmap_count, MBINFO_MAP_MAX);
    assert_true(bi.mmap[MBINFO_MAP_MAX - 1].base == (uint64_t)(MBINFO_MAP_MAX - 1) << 20);
    memset(mem, MARK, sizeof(mem));
    in.map_count = MBINFO_MAP_MAX + 1;
    assert_int_equal(build(&in, MEM_SIZE - INFO), 0);
    assert_untouched(0, MEM_SIZE);
}

/* --- mbinfo_upper_from_map ------------------------------------------------------------ */

#define R(base, len, type) { (base), (len), (type) }
#define A E820_AVAILABLE
#define KB(x) ((uint64_t)(x) * 1024)
#define MB(x) ((uint64_t)(x) * MEG)

static const struct upper_case {
    const char *what;
    struct mbinfo_range map[6];
    unsigned count;
    uint32_t upper_kb;
} upper_cases[] = {
    { "no map", { R(0, 0, 0) }, 0, 0 },
    { "a PC's", { R(0, KB(639), A), R(0xF0000, KB(64), 2), R(MB(1), MB(127), A) }, 3,
      127 * 1024 },
    { "out of order", { R(MB(16), MB(16), A), R(MB(1), MB(15), A), R(0, KB(640), A) }, 3,
      31 * 1024 },
    { "three, last first", { R(MB(8), MB(8), A), R(MB(4), MB(4), A), R(MB(1), MB(3), A) }, 3,
      15 * 1024 },
    { "overlapping", { R(MB(1), MB(7), A), R(MB(4), MB(28), A), R(MB(2), MB(1), A) }, 3,
      31 * 1024 },
    { "from below 1 MiB", { R(0, MB(16), A) }, 1, 15 * 1024 },
    { "a gap at 1 MiB", { R(0, KB(640), A), R(MB(1) + KB(4), MB(31), A) }, 2, 0 },
    { "the ISA hole", { R(MB(1), MB(14), A), R(MB(15), MB(1), 2), R(MB(16), MB(48), A) }, 3,
      14 * 1024 },
    { "reserved only", { R(MB(1), MB(15), 2) }, 1, 0 },
    { "ACPI after", { R(MB(1), MB(7), A), R(MB(8), MB(8), 3) }, 2, 7 * 1024 },
    { "zero lengths", { R(MB(1), 0, A), R(MB(1), MB(1), A), R(MB(2), 0, A) }, 3, 1024 },
    { "past 4 TiB", { R(MB(1), 0x50000000000ull, A) }, 1, 0xFFFFFFFF },
    { "to 4 GiB", { R(MB(1), 0x100000000ull - MB(1), A) }, 1, 0x3FFC00 },
};

static void test_upper_from_map(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(upper_cases) / sizeof(upper_cases[0]); i++) {
        const struct upper_case *c = &upper_cases[i];
        uint32_t got = mbinfo_upper_from_map(c->map, c->count);
        if (got != c->upper_kb)
            fail_msg("%s: %u KiB, not %u", c->what, got, c->upper_kb);
    }
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_with_e820),
        T(test_without_e820),
        T(test_without_e820_large),
        T(test_long_cmdline),
        T(test_other_base),
        T(test_too_small),
        T(test_map_limit),
        T(test_upper_from_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
