/* system/bootinfo.c: multiboot 1 and 2 information, good and hostile.
 *
 * The information is built in a host buffer standing in for physical memory:
 * bootinfo_parse() gets mem_base = the buffer and addresses that are offsets into
 * it. The buffer is larger than anything the parser may read (it bounds its reads),
 * so AddressSanitizer flags any read the bounds do not cover. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../system/bootinfo.h"

#define MEM_SIZE        0x8000
#define MB1_INFO        0x0100
#define STR_A           0x1000  /* up to 1 KiB of string read here (cmdline) */
#define STR_B           0x1800
#define MMAP_AT         0x2000  /* up to 4 KiB of memory map read here */
#define MB2_INFO        0x4000

static uint8_t mem[MEM_SIZE] __attribute__((aligned(8)));
static struct bootinfo bi;

static int setup(void **state)
{
    (void)state;
    memset(mem, 0, sizeof(mem));
    memset(&bi, 0xA5, sizeof(bi));     /* the parser must clear what it does not set */
    return 0;
}

static void put32(uint32_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        mem[at + i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint32_t at, uint64_t v)
{
    put32(at, (uint32_t)v);
    put32(at + 4, (uint32_t)(v >> 32));
}

static void parse(uint32_t magic, uint32_t info)
{
    bootinfo_parse(&bi, magic, info, (uintptr_t)mem);
}

/* --- multiboot 1 ------------------------------------------------------------------ */

#define MB1_MEM         (1u << 0)
#define MB1_CMDLINE     (1u << 2)
#define MB1_MMAP        (1u << 6)
#define MB1_LOADER      (1u << 9)

/* One memory map entry with the given size field (20 for a plain entry); returns
 * the offset of the next. */
static uint32_t mb1_entry(uint32_t at, uint32_t size, uint64_t base, uint64_t len,
                          uint32_t type)
{
    put32(at, size);
    put64(at + 4, base);
    put64(at + 12, len);
    put32(at + 20, type);
    return at + 4 + size;
}

static void mb1_info(uint32_t flags, uint32_t mmap_length)
{
    put32(MB1_INFO + 0, flags);
    put32(MB1_INFO + 4, 639);
    put32(MB1_INFO + 8, 130048);
    put32(MB1_INFO + 16, STR_A);
    put32(MB1_INFO + 44, mmap_length);
    put32(MB1_INFO + 48, MMAP_AT);
    put32(MB1_INFO + 64, STR_B);
}

static void test_mb1_good(void **state)
{
    (void)state;
    strcpy((char *)mem + STR_A, "/boot/apmoff.elf action=survey");
    strcpy((char *)mem + STR_B, "GRUB 2.06");
    uint32_t at = mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    at = mb1_entry(at, 20, 0xF0000, 0x10000, MMAP_RESERVED);
    at = mb1_entry(at, 20, 0x100000, 0x7EE0000, MMAP_AVAILABLE);
    mb1_info(MB1_MEM | MB1_CMDLINE | MB1_MMAP | MB1_LOADER, at - MMAP_AT);

    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.protocol, 1);
    assert_string_equal(bi.cmdline, "/boot/apmoff.elf action=survey");
    assert_string_equal(bi.loader, "GRUB 2.06");
    assert_true(bi.have_mem);
    assert_int_equal(bi.mem_lower_kb, 639);
    assert_int_equal(bi.mem_upper_kb, 130048);
    assert_int_equal(bi.mmap_count, 3);
    assert_false(bi.mmap_truncated);
    assert_int_equal(bi.mmap[1].base, 0xF0000);
    assert_int_equal(bi.mmap[1].length, 0x10000);
    assert_int_equal(bi.mmap[1].type, MMAP_RESERVED);
    assert_int_equal(bi.mmap[2].base, 0x100000);
    assert_int_equal(bi.mmap[2].length, 0x7EE0000);
    assert_int_equal(bi.malformed, 0);
    assert_false(bi.efi_system_table);
    assert_false(bi.efi_boot_services);
}

/* 64-bit fields keep their high halves. */
static void test_mb1_mmap_above_4g(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 20, 0x100000000ull, 0x240000000ull, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, at - MMAP_AT);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 1);
    assert_true(bi.mmap[0].base == 0x100000000ull);
    assert_true(bi.mmap[0].length == 0x240000000ull);
}

/* Flags clear: the fields are not read, whatever they hold. */
static void test_mb1_no_flags(void **state)
{
    (void)state;
    strcpy((char *)mem + STR_A, "action=survey");
    mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    mb1_info(0, 24);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.protocol, 1);
    assert_string_equal(bi.cmdline, "");
    assert_string_equal(bi.loader, "");
    assert_false(bi.have_mem);
    assert_int_equal(bi.mmap_count, 0);
    assert_int_equal(bi.malformed, 0);
}

static void test_mb1_null_strings(void **state)
{
    (void)state;
    mb1_info(MB1_CMDLINE | MB1_LOADER, 0);
    put32(MB1_INFO + 16, 0);
    put32(MB1_INFO + 64, 0);
    mem[0] = 'Z';                       /* would show if address 0 were followed */
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_string_equal(bi.cmdline, "");
    assert_string_equal(bi.loader, "");
}

/* Entries larger than 20 bytes are stepped over by their size field. */
static void test_mb1_mmap_larger_entries(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 28, 0x1000, 0x2000, MMAP_ACPI_NVS);
    at = mb1_entry(at, 28, 0x3000, 0x4000, MMAP_BAD);
    mb1_info(MB1_MMAP, at - MMAP_AT);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 2);
    assert_int_equal(bi.mmap[1].base, 0x3000);
    assert_int_equal(bi.mmap[1].type, MMAP_BAD);
    assert_int_equal(bi.malformed, 0);
}

/* A size field of 0 would loop forever on the same entry: stop and count it. */
static void test_mb1_mmap_entry_size_zero(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    at = mb1_entry(at, 0, 0x100000, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, 3 * 24);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 1);
    assert_int_equal(bi.malformed, 1);
}

static void test_mb1_mmap_entry_size_huge(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    mb1_entry(at, 0xFFFFFFF0, 0x100000, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, 2 * 24);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 1);
    assert_int_equal(bi.malformed, 1);
}

/* A map length beyond any real map is cut to 4 KiB (and the zeros after the real
 * entries then stop the walk). */
static void test_mb1_mmap_length_huge(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    mb1_entry(at, 20, 0x100000, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, 0x7FFFFFFF);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 2);
    assert_true(bi.malformed >= 1);
}

/* A map length that ends inside an entry: the partial entry is not read. */
static void test_mb1_mmap_length_cuts_entry(void **state)
{
    (void)state;
    uint32_t at = mb1_entry(MMAP_AT, 20, 0, 0x9FC00, MMAP_AVAILABLE);
    mb1_entry(at, 20, 0x100000, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, 24 + 23);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, 1);
    assert_int_equal(bi.malformed, 0);
}

static void test_mb1_mmap_too_many_entries(void **state)
{
    (void)state;
    uint32_t at = MMAP_AT;
    for (unsigned i = 0; i < BOOTINFO_MMAP_MAX + 12; i++)
        at = mb1_entry(at, 20, (uint64_t)i << 20, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, at - MMAP_AT);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, BOOTINFO_MMAP_MAX);
    assert_true(bi.mmap_truncated);
    /* the first ones are kept */
    assert_int_equal(bi.mmap[BOOTINFO_MMAP_MAX - 1].base,
                     (uint64_t)(BOOTINFO_MMAP_MAX - 1) << 20);
}

static void test_mb1_exactly_max_entries(void **state)
{
    (void)state;
    uint32_t at = MMAP_AT;
    for (unsigned i = 0; i < BOOTINFO_MMAP_MAX; i++)
        at = mb1_entry(at, 20, (uint64_t)i << 20, 0x1000, MMAP_AVAILABLE);
    mb1_info(MB1_MMAP, at - MMAP_AT);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(bi.mmap_count, BOOTINFO_MMAP_MAX);
    assert_false(bi.mmap_truncated);
}

/* Strings with no terminator are cut at the buffer's size and terminated. */
static void test_mb1_unterminated_strings(void **state)
{
    (void)state;
    memset(mem + STR_A, 'a', 0x800);    /* runs into STR_B's area: no NUL for 2 KiB */
    memset(mem + STR_B, 'b', 0x400);
    mb1_info(MB1_CMDLINE | MB1_LOADER, 0);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    assert_int_equal(strlen(bi.cmdline), BOOTINFO_CMDLINE_MAX - 1);
    assert_int_equal(strlen(bi.loader), BOOTINFO_LOADER_MAX - 1);
    assert_int_equal(strspn(bi.cmdline, "a"), BOOTINFO_CMDLINE_MAX - 1);
    assert_int_equal(strspn(bi.loader, "b"), BOOTINFO_LOADER_MAX - 1);
    assert_true(bi.cmdline_truncated);          /* so the options refuse it */
}

static void test_mb1_non_printable(void **state)
{
    (void)state;
    memcpy(mem + STR_A, "ab\x01" "c\x7f\xff\t\x1b[2Jd", 12);
    mb1_info(MB1_CMDLINE, 0);
    parse(MB1_BOOT_MAGIC, MB1_INFO);
    /* The bytes as given: app/common/options.c refuses them by name (a '?' for each would
     * turn label=M\xfcller into a label "M?ller"). */
    assert_string_equal(bi.cmdline, "ab\x01" "c\x7f\xff\t\x1b[2Jd");
}

/* Not a multiboot magic: nothing at info_addr is read (it points nowhere here). */
static void test_bad_magic(void **state)
{
    (void)state;
    bootinfo_parse(&bi, 0x12345678, 0xFFFFFFF0, (uintptr_t)mem + MEM_SIZE * 64);
    assert_int_equal(bi.protocol, 0);
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.mmap_count, 0);
    assert_int_equal(bi.malformed, 0);
    assert_false(bi.have_mem);
}

/* --- multiboot 2 ------------------------------------------------------------------ */

#define MB2_CMDLINE     1
#define MB2_LOADER      2
#define MB2_MEMINFO     4
#define MB2_MMAP        6
#define MB2_EFI32       11
#define MB2_EFI64       12
#define MB2_EFI_MMAP    17
#define MB2_EFI_BS      18

/* Builds a tag list at MB2_INFO: total_size, reserved, then 8-aligned tags. */
static uint32_t mb2_off;

static void mb2_begin(void)
{
    mb2_off = MB2_INFO + 8;
}

/* Appends a tag; returns its offset so a test can corrupt it. */
static uint32_t mb2_tag(uint32_t type, const void *payload, uint32_t len)
{
    uint32_t at = mb2_off;
    put32(at, type);
    put32(at + 4, 8 + len);
    if (len)
        memcpy(mem + at + 8, payload, len);
    mb2_off += (8 + len + 7) & ~7u;
    return at;
}

static void mb2_end(void)
{
    mb2_tag(0, NULL, 0);
    put32(MB2_INFO, mb2_off - MB2_INFO);
}

static uint32_t mb2_string(uint32_t type, const char *s)
{
    return mb2_tag(type, s, (uint32_t)strlen(s) + 1);
}

/* A memory map tag of n entries of entry_size bytes (24 is the standard size). */
static uint32_t mb2_mmap(uint32_t entry_size, unsigned n)
{
    uint8_t payload[8 + 64 * 40] = { 0 };
    for (int i = 0; i < 4; i++)
        payload[i] = (uint8_t)(entry_size >> (8 * i));
    for (unsigned e = 0; e < n; e++) {
        uint8_t *p = payload + 8 + e * entry_size;
        uint64_t base = (uint64_t)e << 20, len = 0x1000 + e;
        for (int i = 0; i < 8; i++) {
            p[i] = (uint8_t)(base >> (8 * i));
            p[8 + i] = (uint8_t)(len >> (8 * i));
        }
        p[16] = e % 2 ? MMAP_RESERVED : MMAP_AVAILABLE;
    }
    return mb2_tag(MB2_MMAP, payload, 8 + n * entry_size);
}

static void mb2_meminfo(uint32_t lower, uint32_t upper)
{
    uint8_t p[8];
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(lower >> (8 * i));
        p[4 + i] = (uint8_t)(upper >> (8 * i));
    }
    mb2_tag(MB2_MEMINFO, p, 8);
}

static void test_mb2_good(void **state)
{
    (void)state;
    mb2_begin();
    mb2_string(MB2_CMDLINE, "/boot/apmoff.elf action=survey");
    mb2_string(MB2_LOADER, "GRUB 2.12");
    mb2_meminfo(639, 523136);
    mb2_mmap(24, 3);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_int_equal(bi.protocol, 2);
    assert_string_equal(bi.cmdline, "/boot/apmoff.elf action=survey");
    assert_string_equal(bi.loader, "GRUB 2.12");
    assert_true(bi.have_mem);
    assert_int_equal(bi.mem_lower_kb, 639);
    assert_int_equal(bi.mem_upper_kb, 523136);
    assert_int_equal(bi.mmap_count, 3);
    assert_int_equal(bi.mmap[2].base, 2u << 20);
    assert_int_equal(bi.mmap[2].length, 0x1002);
    assert_int_equal(bi.mmap[1].type, MMAP_RESERVED);
    assert_false(bi.mmap_truncated);
    assert_int_equal(bi.malformed, 0);
    assert_false(bi.efi_system_table);
    assert_false(bi.efi_boot_services);
}

/* Tags this parser does not know (odd sizes too) are stepped over. */
static void test_mb2_unknown_tags_skipped(void **state)
{
    (void)state;
    mb2_begin();
    mb2_tag(21, "xyzab", 5);            /* size 13, padded to 16 */
    mb2_tag(3, "module", 6);
    mb2_string(MB2_CMDLINE, "action=survey");
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "action=survey");
    assert_int_equal(bi.malformed, 0);
}

/* The end tag ends the list even when total_size says there is more. */
static void test_mb2_end_tag_stops(void **state)
{
    (void)state;
    mb2_begin();
    mb2_tag(0, NULL, 0);
    mb2_string(MB2_CMDLINE, "action=survey");
    put32(MB2_INFO, mb2_off - MB2_INFO);
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.malformed, 0);
}

static void test_mb2_efi_tags(void **state)
{
    static const struct {
        uint32_t type;
        bool table, bs;
    } cases[] = {
        { MB2_EFI32, true, false },
        { MB2_EFI64, true, false },
        { MB2_EFI_BS, false, true },
    };
    uint8_t ptr[8] = { 0x78, 0x56, 0x34, 0x12 };
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        setup(NULL);
        mb2_begin();
        mb2_tag(cases[i].type, ptr, cases[i].type == MB2_EFI_BS ? 0 : 8);
        mb2_end();
        parse(MB2_BOOT_MAGIC, MB2_INFO);
        assert_int_equal(bi.efi_system_table, cases[i].table);
        assert_int_equal(bi.efi_boot_services, cases[i].bs);
        assert_int_equal(bi.malformed, 0);
    }
}

/* A tag claiming more bytes than the list has: stop there, keep what came before. */
static void test_mb2_tag_overruns_total(void **state)
{
    (void)state;
    mb2_begin();
    mb2_string(MB2_CMDLINE, "action=survey");
    uint32_t bad = mb2_string(MB2_LOADER, "GRUB");
    mb2_meminfo(639, 1000);
    mb2_end();
    put32(bad + 4, 0x10000);
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "action=survey");
    assert_string_equal(bi.loader, "");
    assert_false(bi.have_mem);
    assert_int_equal(bi.malformed, 1);
}

/* A tag size below the 8-byte header would never advance. */
static void test_mb2_tag_size_too_small(void **state)
{
    (void)state;
    mb2_begin();
    uint32_t bad = mb2_string(MB2_LOADER, "GRUB");
    mb2_string(MB2_CMDLINE, "action=survey");
    mb2_end();
    put32(bad + 4, 4);
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "");
    assert_int_equal(bi.malformed, 1);
}

static void test_mb2_total_size_bad(void **state)
{
    static const uint32_t totals[] = { 0xFFFFFFFF, 0x10001, 8, 0 };
    (void)state;
    for (unsigned i = 0; i < 4; i++) {
        setup(NULL);
        mb2_begin();
        mb2_string(MB2_CMDLINE, "action=survey");
        mb2_end();
        put32(MB2_INFO, totals[i]);
        parse(MB2_BOOT_MAGIC, MB2_INFO);
        assert_int_equal(bi.protocol, 2);
        assert_string_equal(bi.cmdline, "");
        assert_int_equal(bi.malformed, 1);
    }
}

/* total_size ending inside a tag header: the walk stops without reading past it. */
static void test_mb2_total_size_short(void **state)
{
    (void)state;
    mb2_begin();
    mb2_string(MB2_CMDLINE, "action=survey");     /* 8 + 14 -> 24 bytes */
    mb2_string(MB2_LOADER, "GRUB");
    mb2_end();
    put32(MB2_INFO, 8 + 24 + 4);
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "action=survey");
    assert_string_equal(bi.loader, "");
    assert_int_equal(bi.malformed, 0);
}

/* The cmdline tag's bytes end where the tag ends, terminator or not. */
static void test_mb2_unterminated_string(void **state)
{
    (void)state;
    mb2_begin();
    mb2_tag(MB2_CMDLINE, "action=survey", 13);   /* no NUL */
    mb2_string(MB2_LOADER, "ZZZZ");
    mb2_end();
    /* fill the padding after the cmdline so a read past the tag would show */
    mem[MB2_INFO + 8 + 8 + 13] = 'Q';
    mem[MB2_INFO + 8 + 8 + 14] = 'Q';
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_string_equal(bi.cmdline, "action=survey");
    assert_string_equal(bi.loader, "ZZZZ");
}

static void test_mb2_long_and_non_printable_strings(void **state)
{
    char longname[200];
    (void)state;
    memset(longname, 'L', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    mb2_begin();
    mb2_string(MB2_LOADER, longname);
    mb2_tag(MB2_CMDLINE, "a\x80" "b\n\x1f" "c", 7);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_int_equal(strlen(bi.loader), BOOTINFO_LOADER_MAX - 1);
    assert_string_equal(bi.cmdline, "a\x80" "b\n\x1f" "c");
}

static void test_mb2_meminfo_too_short(void **state)
{
    (void)state;
    mb2_begin();
    mb2_tag(MB2_MEMINFO, "\x7f\x02\x00\x00", 4);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_false(bi.have_mem);
}

static void test_mb2_mmap_entry_size_bad(void **state)
{
    static const uint32_t sizes[] = { 0, 16, 23, 257, 0xFFFFFFFF };
    (void)state;
    for (unsigned i = 0; i < 5; i++) {
        setup(NULL);
        mb2_begin();
        uint32_t at = mb2_mmap(24, 2);
        mb2_string(MB2_CMDLINE, "action=survey");
        mb2_end();
        put32(at + 8, sizes[i]);
        parse(MB2_BOOT_MAGIC, MB2_INFO);
        assert_int_equal(bi.mmap_count, 0);
        assert_int_equal(bi.malformed, 1);
        /* a bad map does not end the list */
        assert_string_equal(bi.cmdline, "action=survey");
    }
}

/* Larger entries (a newer loader) are stepped over by entry_size; a partial last
 * entry is not read. */
static void test_mb2_mmap_larger_entries(void **state)
{
    (void)state;
    mb2_begin();
    uint32_t at = mb2_mmap(32, 3);
    mb2_end();
    put32(at + 4, 8 + 8 + 3 * 32 - 1);  /* cut the last entry by one byte */
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_int_equal(bi.mmap_count, 2);
    assert_int_equal(bi.mmap[1].base, 1u << 20);
    assert_int_equal(bi.mmap[1].type, MMAP_RESERVED);
    assert_int_equal(bi.malformed, 0);
}

static void test_mb2_mmap_too_many_entries(void **state)
{
    (void)state;
    mb2_begin();
    mb2_mmap(24, BOOTINFO_MMAP_MAX + 5);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_int_equal(bi.mmap_count, BOOTINFO_MMAP_MAX);
    assert_true(bi.mmap_truncated);
    assert_int_equal(bi.mmap[0].base, 0);
}

static void test_mmap_type_names(void **state)
{
    (void)state;
    assert_string_equal(mmap_type_name(MMAP_AVAILABLE), "available");
    assert_string_equal(mmap_type_name(MMAP_RESERVED), "reserved");
    assert_string_equal(mmap_type_name(MMAP_ACPI_RECLAIMABLE), "ACPI reclaimable");
    assert_string_equal(mmap_type_name(MMAP_ACPI_NVS), "ACPI NVS");
    assert_string_equal(mmap_type_name(MMAP_BAD), "bad");
    assert_string_equal(mmap_type_name(0), "unknown");
    assert_string_equal(mmap_type_name(0xFFFFFFFF), "unknown");
}

/* An EFI memory map tag (17): n descriptors of desc_size bytes; every third is a
 * runtime region (attribute bit 63), of type 5 (runtime services code). */
static void mb2_efi_mmap(uint32_t desc_size, unsigned n)
{
    static uint8_t payload[8 + 100 * 64];
    memset(payload, 0, sizeof(payload));
    payload[0] = (uint8_t)desc_size;
    payload[1] = (uint8_t)(desc_size >> 8);
    payload[4] = 1;                             /* descriptor version */
    for (unsigned e = 0; e < n; e++) {
        uint8_t *p = payload + 8 + e * desc_size;
        uint64_t base = 0x7F000000u + ((uint64_t)e << 16), pages = 16;
        p[0] = e % 3 ? 7 : 5;                   /* conventional memory, or RT code */
        for (int i = 0; i < 8; i++) {
            p[8 + i] = (uint8_t)(base >> (8 * i));
            p[24 + i] = (uint8_t)(pages >> (8 * i));
        }
        if (e % 3 == 0)
            p[39] = 0x80;                       /* EFI_MEMORY_RUNTIME */
    }
    mb2_tag(MB2_EFI_MMAP, payload, 8 + n * desc_size);
}

/* Tag 17: only the runtime regions are kept, in order, whatever the descriptor size;
 * more than fit are counted as cut, and a descriptor size below the UEFI one is a
 * malformed tag. */
static void test_mb2_efi_mmap(void **state)
{
    (void)state;
    mb2_begin();
    mb2_efi_mmap(48, 10);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_true(bi.efi_mmap);
    assert_int_equal(bi.efi_mmap_count, 10);
    assert_int_equal(bi.efi_runtime_count, 4);          /* 0, 3, 6, 9 */
    assert_false(bi.efi_runtime_truncated);
    assert_int_equal(bi.efi_runtime[1].base, 0x7F030000u);
    assert_int_equal(bi.efi_runtime[1].pages, 16);
    assert_int_equal(bi.efi_runtime[1].type, 5);

    mb2_begin();
    mb2_efi_mmap(40, 3 * BOOTINFO_EFI_RUNTIME_MAX + 3);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_int_equal(bi.efi_runtime_count, BOOTINFO_EFI_RUNTIME_MAX);
    assert_true(bi.efi_runtime_truncated);

    mb2_begin();
    mb2_efi_mmap(32, 4);
    mb2_end();
    parse(MB2_BOOT_MAGIC, MB2_INFO);
    assert_false(bi.efi_mmap);
    assert_int_equal(bi.malformed, 1);
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_mb1_good),
        T(test_mb1_mmap_above_4g),
        T(test_mb1_no_flags),
        T(test_mb1_null_strings),
        T(test_mb1_mmap_larger_entries),
        T(test_mb1_mmap_entry_size_zero),
        T(test_mb1_mmap_entry_size_huge),
        T(test_mb1_mmap_length_huge),
        T(test_mb1_mmap_length_cuts_entry),
        T(test_mb1_mmap_too_many_entries),
        T(test_mb1_exactly_max_entries),
        T(test_mb1_unterminated_strings),
        T(test_mb1_non_printable),
        T(test_bad_magic),
        T(test_mb2_good),
        T(test_mb2_unknown_tags_skipped),
        T(test_mb2_end_tag_stops),
        T(test_mb2_efi_tags),
        T(test_mb2_tag_overruns_total),
        T(test_mb2_tag_size_too_small),
        T(test_mb2_total_size_bad),
        T(test_mb2_total_size_short),
        T(test_mb2_unterminated_string),
        T(test_mb2_long_and_non_printable_strings),
        T(test_mb2_meminfo_too_short),
        T(test_mb2_mmap_entry_size_bad),
        T(test_mb2_mmap_larger_entries),
        T(test_mb2_mmap_too_many_entries),
        T(test_mb2_efi_mmap),
        T(test_mmap_type_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
