/* loader/mbload.c: the load plan of apmoff's own kernel (build/apmoff.elf, as built
 * and as iso/mkfloppy.sh strips and packs it), of broken copies of it, and of small
 * kernels made here: ELF files and the a.out kludge.
 *
 * Each file lies in a heap block of exactly its size, so a read past its end is an
 * AddressSanitizer report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../loader/lz4.h"
#include "../../loader/mbload.h"
#include "../../lib/le.h"
#include "loader_fixture.h"

#define MEG             0x100000u
#define KERNEL_AT       0x200000u       /* boot/linker.ld */
#define TOP             (64 * MEG)      /* a machine with 64 MiB */

static void set16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void set32(uint8_t *p, uint32_t v)
{
    set16(p, v & 0xFFFF);
    set16(p + 2, v >> 16);
}

static int plan(const uint8_t *file, size_t size, uint32_t min, uint32_t max,
                struct mbload_plan *p, const char **why)
{
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, file, size);
    *why = "";
    int r = mbload_plan(copy, (uint32_t)size, min, max, p, why);
    free(copy);
    return r;
}

static void assert_plans(const uint8_t *file, size_t size, uint32_t min, uint32_t max,
                         struct mbload_plan *p)
{
    const char *why;
    if (plan(file, size, min, max, p, &why))
        fail_msg("refused: %s", why);
}

static void assert_refused(const uint8_t *file, size_t size, uint32_t min, uint32_t max,
                           const char *expected)
{
    struct mbload_plan p;
    const char *why;
    int r = plan(file, size, min, max, &p, &why);
    if (r != -1 || !strstr(why, expected))
        fail_msg("%d \"%s\", not -1 \"%s\"", r, why, expected);
}

/* A multiboot header at, with these flags and the checksum that makes it one. */
static void mb_header(uint8_t *file, uint32_t at, uint32_t flags)
{
    set32(file + at, MB1_HEADER_MAGIC);
    set32(file + at + 4, flags);
    set32(file + at + 8, -(MB1_HEADER_MAGIC + flags));
}

/* --- the real kernel ------------------------------------------------------------------ */

static uint8_t *kernel;
static size_t kernel_size;

static int load_kernel(void **state)
{
    (void)state;
    kernel = fixture_read("kernel/apmoff-stripped.elf", &kernel_size);
    return 0;
}

static int free_kernel(void **state)
{
    (void)state;
    free(kernel);
    kernel = NULL;
    return 0;
}

/* What the kernel's plan must be: one piece at 2 MiB from its one PT_LOAD segment,
 * its entry inside, its header where the file has it. */
static void assert_kernel_plan(const uint8_t *file, size_t size, const struct mbload_plan *p)
{
    assert_int_equal(p->count, 1);
    assert_false(p->aout_kludge);
    assert_true(p->header_offset < MB1_SEARCH);
    assert_int_equal(le32(file + p->header_offset), MB1_HEADER_MAGIC);
    assert_int_equal(p->flags, le32(file + p->header_offset + 4));
    assert_true(p->flags & MB1_MEMORY_INFO);
    const struct mbload_piece *q = &p->piece[0];
    assert_int_equal(q->dest, KERNEL_AT);
    assert_true(q->file_bytes > 0x10000 && q->file_bytes <= q->mem_bytes);
    assert_true(q->offset + q->file_bytes <= size);
    assert_int_equal(p->entry, le32(file + 24));       /* e_entry */
    assert_true(p->entry >= q->dest && p->entry < q->dest + q->file_bytes);
    assert_int_equal(p->low, KERNEL_AT);
    assert_int_equal(p->high, KERNEL_AT + q->mem_bytes);
    /* Its bytes: the first of the segment are the ones its program header points at. */
    uint32_t phoff = le32(file + 28);
    assert_int_equal(q->offset, le32(file + phoff + 4));
}

static void test_real_kernel(void **state)
{
    struct mbload_plan p;
    size_t size;
    (void)state;
    assert_plans(kernel, kernel_size, MEG, TOP, &p);
    assert_kernel_plan(kernel, kernel_size, &p);

    uint8_t *full = fixture_read("kernel/apmoff.elf", &size);   /* with its symbols */
    struct mbload_plan q;
    assert_plans(full, size, MEG, TOP, &q);
    assert_kernel_plan(full, size, &q);
    assert_int_equal(q.entry, p.entry);
    assert_int_equal(q.piece[0].mem_bytes, p.piece[0].mem_bytes);
    free(full);
}

/* The floppy's way: unpacked from its LZ4 frame, then planned. */
static void test_real_kernel_unpacked(void **state)
{
    size_t n;
    (void)state;
    uint8_t *frame = fixture_read("kernel/apmoff.lz4", &n);
    uint8_t *out = malloc(0x50000);
    uint32_t out_len;
    const char *why;
    assert_int_equal(lz4_unpack(frame, (uint32_t)n, out, 0x50000, &out_len, &why), 0);
    struct mbload_plan p;
    assert_plans(out, out_len, MEG, TOP, &p);
    assert_kernel_plan(out, out_len, &p);
    free(out);
    free(frame);
}

/* The memory bounds are exact: the kernel fits [2 MiB, its end), not one byte less. */
static void test_real_kernel_bounds(void **state)
{
    struct mbload_plan p;
    (void)state;
    assert_plans(kernel, kernel_size, MEG, TOP, &p);
    uint32_t end = p.high;
    assert_plans(kernel, kernel_size, KERNEL_AT, end, &p);
    assert_refused(kernel, kernel_size, KERNEL_AT + 1, TOP, "outside the memory");
    assert_refused(kernel, kernel_size, MEG, end - 1, "outside the memory");
    assert_refused(kernel, kernel_size, MEG, KERNEL_AT, "outside the memory");
}

static uint8_t *kernel_copy(struct mbload_plan *p)
{
    uint8_t *copy = malloc(kernel_size);
    memcpy(copy, kernel, kernel_size);
    assert_plans(copy, kernel_size, MEG, TOP, p);
    return copy;
}

static void test_kernel_header_broken(void **state)
{
    struct mbload_plan p;
    (void)state;
    uint8_t *k = kernel_copy(&p);
    uint32_t at = p.header_offset, flags = p.flags;

    set32(k + at, 0);                                   /* no magic */
    assert_refused(k, kernel_size, MEG, TOP, "no multiboot header");
    mb_header(k, at, flags);
    set32(k + at + 8, le32(k + at + 8) + 1);           /* the checksum off by one */
    assert_refused(k, kernel_size, MEG, TOP, "no multiboot header");

    mb_header(k, at, flags | MB1_VIDEO_MODE);
    assert_refused(k, kernel_size, MEG, TOP, "graphics mode");
    static const uint32_t unknown[] = { 1u << 3, 1u << 8, 1u << 15 };
    for (size_t i = 0; i < 3; i++) {
        mb_header(k, at, flags | unknown[i]);
        assert_refused(k, kernel_size, MEG, TOP, "requires a feature");
    }
    /* Bits 16-31 other than the a.out kludge's are not requirements. */
    mb_header(k, at, flags | 1u << 17 | 1u << 31);
    assert_plans(k, kernel_size, MEG, TOP, &p);
    mb_header(k, at, flags | MB1_PAGE_ALIGN);
    assert_plans(k, kernel_size, MEG, TOP, &p);
    free(k);
}

/* The header must lie, whole, in the first 8 KiB: at 8180 it does, at 8184 not. */
static void test_kernel_header_beyond_8k(void **state)
{
    struct mbload_plan p;
    (void)state;
    uint8_t *k = kernel_copy(&p);
    uint32_t flags = p.flags;
    set32(k + p.header_offset, 0);
    mb_header(k, MB1_SEARCH - 12, flags);
    assert_plans(k, kernel_size, MEG, TOP, &p);
    assert_int_equal(p.header_offset, MB1_SEARCH - 12);
    set32(k + MB1_SEARCH - 12, 0);
    mb_header(k, MB1_SEARCH - 8, flags);
    assert_refused(k, kernel_size, MEG, TOP, "no multiboot header");
    mb_header(k, MB1_SEARCH, flags);
    assert_refused(k, kernel_size, MEG, TOP, "no multiboot header");
    /* Not 4-byte aligned: not a header. */
    set32(k + MB1_SEARCH, 0);
    mb_header(k, 0x102, flags);
    assert_refused(k, kernel_size, MEG, TOP, "no multiboot header");
    free(k);
}

/* Cut anywhere before the end of its segment, the file is refused. */
static void test_kernel_truncated(void **state)
{
    struct mbload_plan p;
    (void)state;
    assert_plans(kernel, kernel_size, MEG, TOP, &p);
    uint32_t end = p.piece[0].offset + p.piece[0].file_bytes;
    for (uint32_t size = 0; size < end; size += size < 0x1100 ? 1 : 509) {
        struct mbload_plan q;
        const char *why;
        if (!plan(kernel, size, MEG, TOP, &q, &why))
            fail_msg("cut to %u bytes of %u: planned", size, end);
    }
    assert_refused(kernel, end - 1, MEG, TOP, "past the end of the file");
    assert_refused(kernel, p.header_offset + 12, MEG, TOP, "past the end of the file");
    assert_refused(kernel, p.header_offset + 11, MEG, TOP, "no multiboot header");
    assert_refused(kernel, 0, MEG, TOP, "no multiboot header");
    assert_plans(kernel, end, MEG, TOP, &p);        /* the section headers are not needed */
}

static void test_kernel_segment_moved(void **state)
{
    struct mbload_plan p;
    (void)state;
    uint8_t *k = kernel_copy(&p);
    uint8_t *ph = k + le32(k + 28);
    set32(ph + 12, 0x80000);                            /* p_paddr below 1 MiB */
    assert_refused(k, kernel_size, MEG, TOP, "below 1 MiB");
    set32(ph + 12, TOP - 0x1000);                       /* past the machine's memory */
    assert_refused(k, kernel_size, MEG, TOP, "past the machine's memory");
    set32(ph + 12, 0xFFFFF000);                         /* past 4 GiB */
    assert_refused(k, kernel_size, MEG, 0xFFFFFFFF, "outside the memory");
    free(k);
}

static void test_kernel_entry_outside(void **state)
{
    struct mbload_plan p;
    (void)state;
    uint8_t *k = kernel_copy(&p);
    const struct mbload_piece q = p.piece[0];
    static const uint32_t outside[] = { 0, MEG, KERNEL_AT - 1, 0xFFFFFFFF };
    for (size_t i = 0; i < 4; i++) {
        set32(k + 24, outside[i]);
        assert_refused(k, kernel_size, MEG, TOP, "entry point lies outside");
    }
    set32(k + 24, q.dest + q.file_bytes);               /* in its zeroed memory (BSS) */
    assert_refused(k, kernel_size, MEG, TOP, "entry point lies outside");
    set32(k + 24, q.dest + q.file_bytes - 1);
    assert_plans(k, kernel_size, MEG, TOP, &p);
    set32(k + 24, q.dest);
    assert_plans(k, kernel_size, MEG, TOP, &p);
    free(k);
}

/* The kernel's second program header (GNU_STACK) made a PT_LOAD segment. */
static void test_kernel_overlapping_segments(void **state)
{
    struct mbload_plan p;
    (void)state;
    uint8_t *k = kernel_copy(&p);
    const struct mbload_piece q = p.piece[0];
    assert_true((le32(k + 44) & 0xFFFF) >= 2);         /* e_phnum */
    uint8_t *ph = k + le32(k + 28) + 32;
    set32(ph + 0, 1);                                   /* PT_LOAD */
    set32(ph + 4, q.offset);
    set32(ph + 16, 0x100);
    set32(ph + 20, 0x100);
    const uint32_t overlap[] = {
        q.dest + q.mem_bytes - 0x100,                   /* over its end */
        q.dest + q.mem_bytes - 1,
        q.dest - 0x80,                                  /* over its start */
        q.dest - 0xFF,
        q.dest + 0x1000,                                /* inside it */
    };
    for (size_t i = 0; i < sizeof(overlap) / sizeof(overlap[0]); i++) {
        set32(ph + 12, overlap[i]);
        assert_refused(k, kernel_size, MEG, TOP, "two segments overlap");
    }
    set32(ph + 12, q.dest + q.mem_bytes);               /* right after it: fine */
    assert_plans(k, kernel_size, MEG, TOP, &p);
    assert_int_equal(p.count, 2);
    assert_int_equal(p.high, q.dest + q.mem_bytes + 0x100);
    set32(ph + 12, q.dest - 0x100);                     /* right before it: fine */
    assert_plans(k, kernel_size, MEG, TOP, &p);
    assert_int_equal(p.low, q.dest - 0x100);
    free(k);
}

/* --- small ELF kernels made here ------------------------------------------------------ */

#define SMALL       0x3000
#define MB_AT       0x200
#define DATA_AT     0x1000

static uint8_t small[SMALL];

/* An ELF header with phnum program headers at 52; one PT_LOAD segment of 0x100
 * bytes at DATA_AT for 2 MiB, the entry at its start, a multiboot header at MB_AT. */
static void small_elf(unsigned phnum)
{
    memset(small, 0, sizeof(small));
    memcpy(small, "\x7f" "ELF\x01\x01\x01", 7);
    set16(small + 16, 2);                               /* ET_EXEC */
    set16(small + 18, 3);                               /* EM_386 */
    set32(small + 20, 1);
    set32(small + 24, KERNEL_AT);
    set32(small + 28, 52);
    set16(small + 40, 52);
    set16(small + 42, 32);
    set16(small + 44, phnum);
    for (unsigned i = 0; i < phnum; i++) {
        uint8_t *ph = small + 52 + 32 * i;
        set32(ph + 0, 6);                               /* PT_PHDR: not loaded */
    }
    mb_header(small, MB_AT, MB1_MEMORY_INFO);
}

static void small_load(unsigned i, uint32_t offset, uint32_t paddr, uint32_t filesz,
                       uint32_t memsz)
{
    uint8_t *ph = small + 52 + 32 * i;
    set32(ph + 0, 1);
    set32(ph + 4, offset);
    set32(ph + 8, paddr);
    set32(ph + 12, paddr);
    set32(ph + 16, filesz);
    set32(ph + 20, memsz);
}

static void test_small_elf(void **state)
{
    struct mbload_plan p;
    (void)state;
    small_elf(3);
    small_load(1, DATA_AT, KERNEL_AT, 0x100, 0x400);
    small_load(2, DATA_AT + 0x100, KERNEL_AT + 0x400, 0, 0);    /* empty: no piece */
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_int_equal(p.count, 1);
    assert_int_equal(p.header_offset, MB_AT);
    assert_int_equal(p.piece[0].offset, DATA_AT);
    assert_int_equal(p.piece[0].file_bytes, 0x100);
    assert_int_equal(p.piece[0].mem_bytes, 0x400);
    assert_int_equal(p.entry, KERNEL_AT);

    small_load(2, DATA_AT + 0x100, KERNEL_AT + 0x400, 0, 0x200);  /* BSS only */
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_int_equal(p.count, 2);
    assert_int_equal(p.piece[1].file_bytes, 0);
    assert_int_equal(p.high, KERNEL_AT + 0x600);

    /* The seeds the fuzz target starts from are good kernels too. */
    size_t n;
    uint8_t *seed = fixture_read("mbload/elf.bin", &n);
    assert_plans(seed, n, MEG, TOP, &p);
    free(seed);
}

static void test_small_elf_refusals(void **state)
{
    (void)state;
    static const struct {
        unsigned offset, width;
        uint32_t value;
        const char *why;
    } bad[] = {
        { 0, 1, 0x7E, "neither an ELF file" },
        { 3, 1, 'f', "neither an ELF file" },
        { 4, 1, 2, "not a 32-bit x86 ELF" },            /* ELFCLASS64 */
        { 5, 1, 2, "not a 32-bit x86 ELF" },            /* big-endian */
        { 16, 2, 3, "not a 32-bit x86 ELF" },           /* ET_DYN */
        { 18, 2, 62, "not a 32-bit x86 ELF" },          /* EM_X86_64 */
        { 42, 2, 56, "program headers run past" },      /* another entry size */
        { 28, 4, SMALL + 1, "program headers run past" },
        { 28, 4, SMALL - 32 * 2 + 1, "program headers run past" },
        { 28, 4, 0xFFFFFFF0, "program headers run past" },
        { 44, 2, 0xFFFF, "program headers run past" },
        { 44, 2, 0, "nothing to load" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct mbload_plan p;
        const char *why;
        small_elf(2);
        small_load(0, DATA_AT, KERNEL_AT, 0x100, 0x100);
        if (bad[i].width == 1)
            small[bad[i].offset] = (uint8_t)bad[i].value;
        else if (bad[i].width == 2)
            set16(small + bad[i].offset, bad[i].value);
        else
            set32(small + bad[i].offset, bad[i].value);
        int r = plan(small, SMALL, MEG, TOP, &p, &why);
        if (r != -1 || !strstr(why, bad[i].why))
            fail_msg("case %zu: %d \"%s\", not -1 \"%s\"", i, r, why, bad[i].why);
    }

    small_elf(2);                                       /* no PT_LOAD at all */
    assert_refused(small, SMALL, MEG, TOP, "nothing to load");
    small_load(0, DATA_AT, KERNEL_AT, 0x200, 0x100);    /* more file than memory */
    assert_refused(small, SMALL, MEG, TOP, "past the end of the file");
    small_load(0, SMALL + 1, KERNEL_AT, 0, 0x100);      /* its offset past the end */
    assert_refused(small, SMALL, MEG, TOP, "past the end of the file");
    small_load(0, 0xFFFFFF00, KERNEL_AT, 0x200, 0x200); /* offset + size wraps */
    assert_refused(small, SMALL, MEG, TOP, "past the end of the file");
    small_load(0, DATA_AT, KERNEL_AT, SMALL - DATA_AT + 1, SMALL);
    assert_refused(small, SMALL, MEG, TOP, "past the end of the file");
    small_load(0, DATA_AT, KERNEL_AT, SMALL - DATA_AT, SMALL);
    struct mbload_plan p;
    assert_plans(small, SMALL, MEG, TOP, &p);
}

/* Eight loadable segments are the most. */
static void test_small_elf_segment_count(void **state)
{
    struct mbload_plan p;
    (void)state;
    small_elf(MBLOAD_PIECES_MAX + 1);
    for (unsigned i = 0; i < MBLOAD_PIECES_MAX; i++)
        small_load(i, DATA_AT, KERNEL_AT + 0x1000 * i, 0x10, 0x10);
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_int_equal(p.count, MBLOAD_PIECES_MAX);
    assert_int_equal(p.low, KERNEL_AT);
    assert_int_equal(p.high, KERNEL_AT + 0x1000 * (MBLOAD_PIECES_MAX - 1) + 0x10);
    small_load(MBLOAD_PIECES_MAX, DATA_AT, KERNEL_AT + 0x1000 * MBLOAD_PIECES_MAX, 0x10, 0x10);
    assert_refused(small, SMALL, MEG, TOP, "more loadable segments");
}

/* --- the a.out kludge ----------------------------------------------------------------- */

/* A header with flag 16 and the five addresses after the checksum. */
static void aout(uint32_t at, uint32_t header_addr, uint32_t load, uint32_t load_end,
                 uint32_t bss_end, uint32_t entry)
{
    memset(small, 0, sizeof(small));
    mb_header(small, at, MB1_MEMORY_INFO | MB1_AOUT_KLUDGE);
    set32(small + at + 12, header_addr);
    set32(small + at + 16, load);
    set32(small + at + 20, load_end);
    set32(small + at + 24, bss_end);
    set32(small + at + 28, entry);
}

static void test_aout_kludge(void **state)
{
    struct mbload_plan p;
    (void)state;
    /* The whole file from its start at 1 MiB (load_end and bss_end 0). */
    aout(0x40, MEG + 0x40, MEG, 0, 0, MEG + 0x100);
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_true(p.aout_kludge);
    assert_int_equal(p.count, 1);
    assert_int_equal(p.piece[0].dest, MEG);
    assert_int_equal(p.piece[0].offset, 0);
    assert_int_equal(p.piece[0].file_bytes, SMALL);
    assert_int_equal(p.piece[0].mem_bytes, SMALL);
    assert_int_equal(p.entry, MEG + 0x100);

    /* The file loaded from 0x20 before its header, up to load_end, zeroed to bss_end. */
    aout(0x800, 2 * MEG + 0x20, 2 * MEG, 2 * MEG + 0x1000, 2 * MEG + 0x5000, 2 * MEG + 0x30);
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_int_equal(p.piece[0].dest, 2 * MEG);
    assert_int_equal(p.piece[0].offset, 0x800 - 0x20);
    assert_int_equal(p.piece[0].file_bytes, 0x1000);
    assert_int_equal(p.piece[0].mem_bytes, 0x5000);
    assert_int_equal(p.low, 2 * MEG);
    assert_int_equal(p.high, 2 * MEG + 0x5000);

    /* An ELF file with the kludge flag is loaded by the header's addresses. */
    small_elf(1);
    small_load(0, DATA_AT, KERNEL_AT, 0x100, 0x100);
    mb_header(small, MB_AT, MB1_MEMORY_INFO | MB1_AOUT_KLUDGE);
    set32(small + MB_AT + 12, 3 * MEG + MB_AT);
    set32(small + MB_AT + 16, 3 * MEG);
    set32(small + MB_AT + 28, 3 * MEG + 4);
    assert_plans(small, SMALL, MEG, TOP, &p);
    assert_true(p.aout_kludge);
    assert_int_equal(p.piece[0].dest, 3 * MEG);

    size_t n;
    uint8_t *seed = fixture_read("mbload/aout.bin", &n);
    assert_plans(seed, n, MEG, TOP, &p);
    assert_true(p.aout_kludge);
    free(seed);
}

static void test_aout_refusals(void **state)
{
    (void)state;
    aout(0x40, MEG + 0x30, MEG + 0x40, 0, 0, MEG + 0x50);       /* header before load */
    assert_refused(small, SMALL, MEG, TOP, "addresses do not fit the file");
    aout(0x40, MEG + 0x41, MEG, 0, 0, MEG + 0x50);              /* more before it than the file has */
    assert_refused(small, SMALL, MEG, TOP, "addresses do not fit the file");
    aout(0x40, MEG + 0x40, MEG, MEG - 1, 0, MEG + 0x50);        /* load_end before load */
    assert_refused(small, SMALL, MEG, TOP, "run backwards");
    aout(0x40, MEG + 0x40, MEG, MEG + 0x100, MEG + 0xFF, MEG + 0x50);   /* bss_end too */
    assert_refused(small, SMALL, MEG, TOP, "run backwards");
    aout(0x40, MEG + 0x40, MEG, MEG + SMALL + 1, 0, MEG + 0x50);
    assert_refused(small, SMALL, MEG, TOP, "past the end of the file");
    aout(0x40, MEG + 0x40, MEG, MEG + 0x100, 0, MEG + 0x100);   /* entry past the file part */
    assert_refused(small, SMALL, MEG, TOP, "entry point lies outside");
    aout(0x40, 0x80040, 0x80000, 0, 0, 0x80050);                 /* below 1 MiB */
    assert_refused(small, SMALL, MEG, TOP, "outside the memory");
    aout(0x40, 0xFFFFF040, 0xFFFFF000, 0, 0, 0xFFFFF050);        /* wraps past 4 GiB */
    assert_refused(small, SMALL, MEG, 0xFFFFFFFF, "outside the memory");
    /* Its header cut short: the five addresses must be in the file. */
    aout(0x1000 - 32, MEG + 0x1000 - 32, MEG, 0, 0, MEG);
    assert_plans(small, 0x1000, MEG, TOP, &(struct mbload_plan){ 0 });
    for (uint32_t cut = 1; cut <= 20; cut++)
        assert_refused(small, 0x1000 - cut, MEG, TOP, "cut short");
}

#define K(f) cmocka_unit_test_setup_teardown(f, load_kernel, free_kernel)

int main(void)
{
    const struct CMUnitTest tests[] = {
        K(test_real_kernel),
        K(test_real_kernel_unpacked),
        K(test_real_kernel_bounds),
        K(test_kernel_header_broken),
        K(test_kernel_header_beyond_8k),
        K(test_kernel_truncated),
        K(test_kernel_segment_moved),
        K(test_kernel_entry_outside),
        K(test_kernel_overlapping_segments),
        cmocka_unit_test(test_small_elf),
        cmocka_unit_test(test_small_elf_refusals),
        cmocka_unit_test(test_small_elf_segment_count),
        cmocka_unit_test(test_aout_kludge),
        cmocka_unit_test(test_aout_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
