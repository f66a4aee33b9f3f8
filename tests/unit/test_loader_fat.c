/* loader/fat.c: FAT12 on diskettes mformat made (tests/unit/loader_fixtures.py), in
 * every format the loader boots from, then on broken copies of them.
 *
 * The judge of a file found is mtools: the sectors fat_runs() lists, read from the
 * image, must hold the bytes mcopy put there, and a fragmented file's pieces must be
 * the clusters mshowfat lists. Sectors come through a read function over the image
 * that fails on demand, as the BIOS may. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../loader/fat.h"
#include "loader_fixture.h"

#define RUNS_MAX        64
#define READ_FAILED     42      /* what the read function returns when told to fail */

struct disk {
    uint8_t *img;
    size_t size;
    struct fat_volume v;
    uint8_t *fat;               /* the first FAT, in a block of exactly its size */
    uint32_t fail_lba;          /* a read that covers it fails; UINT32_MAX: none */
    unsigned reads;
};

static struct disk d;

static int read_sectors(void *ctx, uint32_t lba, unsigned count, void *dest)
{
    struct disk *k = ctx;
    k->reads++;
    if (k->fail_lba >= lba && k->fail_lba - lba < count)
        return READ_FAILED;
    if ((uint64_t)(lba + count) * FAT_SECTOR > k->size)
        fail_msg("read of sectors %u-%u past the image", lba, lba + count - 1);
    memcpy(dest, k->img + (size_t)lba * FAT_SECTOR, (size_t)count * FAT_SECTOR);
    return 0;
}

/* Loads and mounts an image; the FAT is read as the loader reads it. */
static void mount(const char *name)
{
    const char *why = "";
    free(d.img);
    free(d.fat);
    d = (struct disk){ .fail_lba = UINT32_MAX };
    d.img = fixture_read(name, &d.size);
    if (fat_mount(&d.v, d.img, &why))
        fail_msg("%s: %s", name, why);
    d.fat = malloc((size_t)d.v.fat_sectors * FAT_SECTOR);
    assert_int_equal(read_sectors(&d, d.v.fat_lba, d.v.fat_sectors, d.fat), 0);
}

static int teardown(void **state)
{
    (void)state;
    free(d.img);
    free(d.fat);
    d = (struct disk){ 0 };
    return 0;
}

static int find(const char *path, struct fat_file *f, const char **why)
{
    *why = "";
    return fat_find(&d.v, d.fat, read_sectors, &d, path, f, why);
}

static void find_ok(const char *path, struct fat_file *f)
{
    const char *why;
    int err = find(path, f, &why);
    if (err)
        fail_msg("%s: %d, %s", path, err, why);
}

static void find_refused(const char *path, const char *expected)
{
    struct fat_file f;
    const char *why;
    int err = find(path, &f, &why);
    if (err != -1 || !strstr(why, expected))
        fail_msg("%s: %d \"%s\", not -1 \"%s\"", path, err, why, expected);
}

static unsigned runs_of(const struct fat_file *f, struct fat_run *runs, unsigned max)
{
    const char *why = "";
    unsigned count = 999;
    if (fat_runs(&d.v, d.fat, f, runs, max, &count, &why))
        fail_msg("fat_runs: %s", why);
    return count;
}

static void runs_refused(const struct fat_file *f, const char *expected)
{
    struct fat_run runs[RUNS_MAX];
    const char *why = "";
    unsigned count = 999;
    if (fat_runs(&d.v, d.fat, f, runs, RUNS_MAX, &count, &why) != -1 ||
        !strstr(why, expected))
        fail_msg("fat_runs: \"%s\", not -1 \"%s\"", why, expected);
    assert_int_equal(count, 0);
}

/* The file's bytes, read through its runs as the loader reads it, against what
 * mcopy put on the disk. */
static void assert_file(const char *path, const char *source)
{
    struct fat_file f;
    struct fat_run runs[RUNS_MAX];
    size_t want_size;
    uint8_t *want = fixture_read(source, &want_size);

    find_ok(path, &f);
    assert_int_equal(f.size, want_size);
    unsigned n = runs_of(&f, runs, RUNS_MAX);
    uint32_t sectors = 0;
    for (unsigned i = 0; i < n; i++) {
        assert_true(runs[i].count > 0);
        assert_true(runs[i].lba >= d.v.data_lba);
        assert_true(runs[i].lba + runs[i].count <= d.v.total_sectors);
        sectors += runs[i].count;
    }
    assert_int_equal(sectors, (want_size + FAT_SECTOR - 1) / FAT_SECTOR);
    uint8_t *got = malloc((size_t)sectors * FAT_SECTOR + 1), *p = got;
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(read_sectors(&d, runs[i].lba, runs[i].count, p), 0);
        p += runs[i].count * FAT_SECTOR;
    }
    assert_memory_equal(got, want, want_size);
    free(got);
    free(want);
}

/* The FAT12 entry of a cluster, read and written in the loaded FAT. */
static unsigned fat_get(unsigned c)
{
    unsigned v = d.fat[c + c / 2] | d.fat[c + c / 2 + 1] << 8;
    return c & 1 ? v >> 4 : v & 0xFFF;
}

static void fat_set(unsigned c, unsigned value)
{
    uint8_t *p = d.fat + c + c / 2;
    if (c & 1) {
        p[0] = (uint8_t)((p[0] & 0x0F) | (value << 4 & 0xF0));
        p[1] = (uint8_t)(value >> 4);
    } else {
        p[0] = (uint8_t)value;
        p[1] = (uint8_t)((p[1] & 0xF0) | (value >> 8 & 0x0F));
    }
    assert_int_equal(fat_get(c), value);
}

/* The root directory entry of an 8.3 name as it is stored ("BOOT       "). */
static uint8_t *root_entry(const char *name11)
{
    uint8_t *root = d.img + d.v.root_lba * FAT_SECTOR;
    for (unsigned e = 0; e < d.v.root_entries; e++)
        if (!memcmp(root + e * 32, name11, 11))
            return root + e * 32;
    fail_msg("no %s in the root directory", name11);
    return NULL;
}

static unsigned entry_cluster(const uint8_t *e)
{
    return e[26] | e[27] << 8;
}

/* --- the formats ---------------------------------------------------------------------- */

static const struct format {
    const char *image;
    uint32_t total;
    uint16_t track_sectors;
    uint8_t cluster_sectors;
} formats[] = {
    { "fat/fd2880.img", 5760, 36, 2 },
    { "fat/fd1440.img", 2880, 18, 1 },
    { "fat/fd1200.img", 2400, 15, 1 },
    { "fat/fd720.img", 1440, 9, 2 },
    { "fat/fd360.img", 720, 9, 2 },
};
#define FORMATS (sizeof(formats) / sizeof(formats[0]))

static void test_mount_formats(void **state)
{
    (void)state;
    for (size_t i = 0; i < FORMATS; i++) {
        const struct format *fm = &formats[i];
        mount(fm->image);
        assert_int_equal(d.size, fm->total * FAT_SECTOR);
        assert_int_equal(d.v.total_sectors, fm->total);
        assert_int_equal(d.v.track_sectors, fm->track_sectors);
        assert_int_equal(d.v.heads, 2);
        assert_int_equal(d.v.cluster_sectors, fm->cluster_sectors);
        assert_int_equal(d.v.reserved, 5);              /* mformat -R 5 */
        assert_int_equal(d.v.fat_lba, 5);
        assert_int_equal(d.v.fats, 2);
        assert_int_equal(d.v.root_lba, 5 + 2 * d.v.fat_sectors);
        assert_int_equal(d.v.data_lba, d.v.root_lba + d.v.root_entries / 16);
        /* The FAT's first entry holds the media descriptor, then FFh FFh. */
        assert_int_equal(d.fat[0], d.img[0x15]);
        assert_int_equal(d.fat[1], 0xFF);
        assert_true(d.v.clusters >= (fm->total - d.v.data_lba) / fm->cluster_sectors);
        assert_true(d.v.clusters < (fm->total - d.v.data_lba) / fm->cluster_sectors + 1);
    }
}

/* Every file, on every format: the root, a subdirectory, a directory two deep, a
 * root directory of several sectors, a directory of several clusters. */
static void test_read_files_formats(void **state)
{
    (void)state;
    for (size_t i = 0; i < FORMATS; i++) {
        mount(formats[i].image);
        assert_file("/boot/kernel.bin", "files/kernel.bin");
        assert_file("/boot/menu.cfg", "files/menu.cfg");
        assert_file("/boot/sub/readme.txt", "files/readme.txt");
        assert_file("/LAST.TXT", "files/readme.txt");
        assert_file("/many/F00.TXT", "files/many/F00.TXT");
        assert_file("/many/F39.TXT", "files/many/F39.TXT");
    }
}

/* mcopy writes a file into the empty data area in one piece. */
static void test_contiguous_one_run(void **state)
{
    struct fat_file f;
    struct fat_run runs[RUNS_MAX];
    (void)state;
    for (size_t i = 0; i < FORMATS; i++) {
        mount(formats[i].image);
        find_ok("/boot/kernel.bin", &f);
        assert_int_equal(runs_of(&f, runs, 1), 1);
        assert_int_equal(runs[0].lba,
                         d.v.data_lba + (f.first_cluster - 2u) * d.v.cluster_sectors);
        assert_int_equal(runs[0].count, (40000 + FAT_SECTOR - 1) / FAT_SECTOR);
    }
}

/* A file in the holes two deleted files left: its runs are the pieces mshowfat
 * lists, and its bytes are mcopy's. */
static void test_fragmented_runs(void **state)
{
    struct fat_file f;
    struct fat_run runs[RUNS_MAX];
    unsigned first[16], last[16], pieces = 0;
    size_t size;
    (void)state;
    char *listed = (char *)fixture_read("fat/frag.runs", &size);
    char *text = strndup(listed, size), *line = text;
    for (int used; pieces < 16 && sscanf(line, "%u %u\n%n", &first[pieces], &last[pieces],
                                         &used) == 2; line += used)
        pieces++;
    free(text);
    free(listed);
    assert_true(pieces >= 3);

    mount("fat/frag.img");
    find_ok("/BIG.BIN", &f);
    unsigned n = runs_of(&f, runs, RUNS_MAX);
    assert_int_equal(n, pieces);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(runs[i].lba, d.v.data_lba + (first[i] - 2) * d.v.cluster_sectors);
        uint32_t whole = (last[i] - first[i] + 1) * d.v.cluster_sectors;
        if (i + 1 < n)
            assert_int_equal(runs[i].count, whole);
        else                            /* the last cluster is read as far as the file */
            assert_true(runs[i].count <= whole && runs[i].count > whole - d.v.cluster_sectors);
    }
    assert_file("/BIG.BIN", "files/BIG.BIN");
    assert_file("/A.BIN", "files/A.BIN");
    assert_file("/E.BIN", "files/E.BIN");

    /* Room for one piece less than it has: refused, with the reason. */
    const char *why = "";
    unsigned count = 999;
    assert_int_equal(fat_runs(&d.v, d.fat, &f, runs, pieces - 1, &count, &why), -1);
    assert_non_null(strstr(why, "too many pieces"));
    assert_int_equal(runs_of(&f, runs, pieces), pieces);
}

/* --- names ---------------------------------------------------------------------------- */

static void test_any_case_and_slashes(void **state)
{
    struct fat_file a, b;
    (void)state;
    mount("fat/fd1440.img");
    find_ok("/boot/kernel.bin", &a);
    static const char *const same[] = {
        "/BOOT/KERNEL.BIN", "/Boot/Kernel.Bin", "boot/kernel.bin", "//boot///kernel.bin",
    };
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        find_ok(same[i], &b);
        assert_int_equal(b.first_cluster, a.first_cluster);
        assert_int_equal(b.size, a.size);
    }
}

static void test_missing(void **state)
{
    (void)state;
    mount("fat/fd1440.img");
    find_refused("/boot/nothere.bin", "no such file");
    find_refused("/boot/kernel", "no such file");
    find_refused("/nodir/kernel.bin", "no such file");
    find_refused("/many/F40.TXT", "no such file");     /* past a directory's clusters */
    find_refused("/R20.TXT", "no such file");           /* past the root's entries */
    find_refused("/", "no file named");
    find_refused("", "no file named");
    find_refused("///", "no file named");
}

static void test_directory_or_file(void **state)
{
    (void)state;
    mount("fat/fd720.img");
    find_refused("/boot", "it is a directory");
    find_refused("/boot/", "it is a directory");
    find_refused("/boot/sub", "it is a directory");
    find_refused("/boot/menu.cfg/x.cfg", "a name in the path is a file");
    find_refused("/EMPTY.TXT/x", "a name in the path is a file");
}

static void test_not_dos_names(void **state)
{
    (void)state;
    mount("fat/fd1440.img");
    static const char *const bad[] = {
        "/boot/kernelbin.bin",          /* 9 characters */
        "/boot/kernel.binx",            /* 4 in the extension */
        "/boot/a.b.c",
        "/boot/.cfg",
        "/boot/..",
        "/boot/./kernel.bin",
        "/Long File Name.txt",
        "/boot/ker nel.bin",
        "/boot/k\tl.bin",
        "/boot\\kernel.bin",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        find_refused(bad[i], "not a DOS name");
}

/* A long name is found by its 8.3 alias; the LFN entries before it are not names,
 * nor is the volume label. */
static void test_lfn_and_label(void **state)
{
    (void)state;
    mount("fat/fd1440.img");
    assert_file("/LONGFI~1.TXT", "files/readme.txt");
    find_refused("/APMOFF", "no such file");            /* the label, attribute 08h */

    /* An LFN entry (attribute 0Fh) that spells an 8.3 name is still not that file. */
    uint8_t *root = d.img + d.v.root_lba * FAT_SECTOR;
    int lfn = -1;
    for (int e = 0; e < 16 * 14 && lfn < 0; e++)
        if (root[e * 32 + 11] == 0x0F)
            lfn = e;
    assert_true(lfn >= 0);
    memcpy(root + lfn * 32, "LFNTRAP TXT", 11);
    find_refused("/LFNTRAP.TXT", "no such file");
    /* The same entry as a plain file is found: the test above proves something. */
    root[lfn * 32 + 11] = 0x20;
    struct fat_file f;
    find_ok("/LFNTRAP.TXT", &f);
}

/* A deleted entry (first byte E5h) is no file; the first free entry (00h) ends the
 * directory. */
static void test_deleted_and_end_entries(void **state)
{
    struct fat_file f;
    (void)state;
    mount("fat/frag.img");
    find_refused("/\xE5.BIN", "no such file");         /* B.BIN, deleted */
    find_ok("/E.BIN", &f);
    uint8_t *e = root_entry("E       BIN");
    e[0] = 0xE5;
    find_refused("/\xE5.BIN", "no such file");
    e[0] = 'E';
    e[-32] = 0x00;                                      /* the entry before E.BIN */
    find_refused("/E.BIN", "no such file");
}

static void test_empty_file(void **state)
{
    struct fat_file f;
    struct fat_run runs[RUNS_MAX];
    (void)state;
    mount("fat/fd360.img");
    find_ok("/EMPTY.TXT", &f);
    assert_int_equal(f.size, 0);
    assert_int_equal(f.first_cluster, 0);
    assert_int_equal(runs_of(&f, runs, RUNS_MAX), 0);
}

/* --- broken chains -------------------------------------------------------------------- */

static void test_chain_shorter_than_size(void **state)
{
    struct fat_file f;
    (void)state;
    mount("fat/fd720.img");
    find_ok("/boot/kernel.bin", &f);
    f.size += d.v.cluster_sectors * FAT_SECTOR;
    runs_refused(&f, "shorter than the file");
}

/* A size that overflows a sum of 32 bits when rounded to clusters or sectors. */
static void test_size_near_4g(void **state)
{
    struct fat_file f;
    (void)state;
    mount("fat/fd1440.img");
    find_ok("/boot/kernel.bin", &f);
    static const uint32_t sizes[] = { 0xFFFFFFFFu, 0xFFFFFE01u, 0xFFFFFC00u, 0x80000000u };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        f.size = sizes[i];
        runs_refused(&f, "shorter than the file");
    }
}

static void test_bad_cluster(void **state)
{
    struct fat_file f;
    (void)state;
    mount("fat/fd1440.img");
    find_ok("/boot/kernel.bin", &f);
    fat_set(f.first_cluster + 3, 0xFF7);
    runs_refused(&f, "bad cluster");
}

static void test_chain_leaves_disk(void **state)
{
    struct fat_file f;
    (void)state;
    static const unsigned nexts[] = { 0, 1, 0xFF0, 0xFF6 };
    for (size_t i = 0; i < sizeof(nexts) / sizeof(nexts[0]); i++) {
        mount("fat/fd1440.img");
        find_ok("/boot/kernel.bin", &f);
        fat_set(f.first_cluster + 1, nexts[i]);
        runs_refused(&f, "leaves the disk");
    }
    /* The first cluster itself outside. */
    mount("fat/fd1440.img");
    find_ok("/boot/kernel.bin", &f);
    f.first_cluster = (uint16_t)(d.v.clusters + 2);
    runs_refused(&f, "leaves the disk");
}

/* A chain that comes back on itself, within the file's size: the same sectors would
 * be read twice as different parts of the file. */
static void test_chain_loops(void **state)
{
    struct fat_file f;
    (void)state;
    mount("fat/fd1440.img");
    find_ok("/boot/kernel.bin", &f);
    fat_set(f.first_cluster + 4, f.first_cluster + 2);
    runs_refused(&f, "loops");

    mount("fat/fd1440.img");                  /* onto itself */
    find_ok("/boot/kernel.bin", &f);
    fat_set(f.first_cluster, f.first_cluster);
    runs_refused(&f, "loops");

    mount("fat/frag.img");                    /* back into an earlier piece */
    find_ok("/BIG.BIN", &f);
    struct fat_run runs[RUNS_MAX];
    assert_true(runs_of(&f, runs, RUNS_MAX) >= 3);
    unsigned c = f.first_cluster;
    for (int i = 0; i < 5; i++)
        c = fat_get(c);
    fat_set(c, f.first_cluster + 1);
    runs_refused(&f, "loops");
}

/* A directory whose chain loops, with no end entry in it to stop the search: the
 * search ends all the same, with the reason. */
static void test_directory_loops(void **state)
{
    struct fat_file f;
    const char *why;
    (void)state;
    mount("fat/fd1440.img");
    unsigned c = entry_cluster(root_entry("MANY       "));
    fat_set(c, c);                      /* its first cluster, 16 entries, on itself */
    assert_int_equal(find("/many/NONE.TXT", &f, &why), -1);
    assert_non_null(strstr(why, "loops"));
}

/* --- the read function's errors ------------------------------------------------------ */

static void test_read_error_root(void **state)
{
    struct fat_file f;
    const char *why;
    (void)state;
    mount("fat/fd1440.img");
    d.fail_lba = d.v.root_lba;
    assert_int_equal(find("/boot/kernel.bin", &f, &why), READ_FAILED);
    /* LAST.TXT's entry lies past the root's first sector: that one is read too. */
    uint32_t last = (uint32_t)(root_entry("LAST    TXT") - d.img) / FAT_SECTOR;
    assert_true(last > d.v.root_lba);
    d.fail_lba = last;
    assert_int_equal(find("/LAST.TXT", &f, &why), READ_FAILED);
    d.fail_lba = last - 1;
    assert_int_equal(find("/LAST.TXT", &f, &why), READ_FAILED);
    d.fail_lba = last + 1;                              /* never read */
    find_ok("/LAST.TXT", &f);
}

static void test_read_error_subdirectory(void **state)
{
    struct fat_file f;
    const char *why;
    (void)state;
    mount("fat/fd720.img");
    unsigned boot = entry_cluster(root_entry("BOOT       "));
    d.fail_lba = d.v.data_lba + (boot - 2) * d.v.cluster_sectors;
    assert_int_equal(find("/boot/sub/readme.txt", &f, &why), READ_FAILED);
    d.fail_lba += 1;                    /* its second sector: /boot's entries are in the first */
    find_ok("/boot/sub/readme.txt", &f);
    find_refused("/boot/none.txt", "no such file");    /* the end entry stops it before */
}

/* --- broken BIOS parameter blocks ----------------------------------------------------- */

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v & 0xFFFF);
    put16(p + 2, v >> 16);
}

static const struct bpb_case {
    unsigned offset, width;     /* the field; width 0: a 32-bit total with total16 0 */
    uint32_t value;
    const char *why;            /* 0: mounts */
} bpb_cases[] = {
    { 0x0B, 2, 1024, "not 512 bytes" },
    { 0x0B, 2, 0, "not 512 bytes" },
    { 0x0B, 2, 256, "not 512 bytes" },
    { 0x0D, 1, 0, "not a diskette's FAT12" },
    { 0x0D, 1, 3, "not a diskette's FAT12" },
    { 0x0D, 1, 4, 0 },
    { 0x0E, 2, 0, "not a diskette's FAT12" },
    { 0x10, 1, 0, "not a diskette's FAT12" },
    { 0x10, 1, 3, "not a diskette's FAT12" },
    { 0x10, 1, 1, 0 },
    { 0x11, 2, 0, "not a diskette's FAT12" },
    { 0x11, 2, 17, "not a diskette's FAT12" },
    { 0x11, 2, 240, 0 },
    { 0x16, 2, 0, "not a diskette's FAT12" },
    { 0x16, 2, 13, "not a diskette's FAT12" },
    { 0x16, 2, 12, 0 },
    { 0x16, 2, 1, "too small for its clusters" },
    { 0x18, 2, 7, "no diskette geometry" },
    { 0x18, 2, 37, "no diskette geometry" },
    { 0x18, 2, 8, 0 },
    { 0x1A, 2, 0, "no diskette geometry" },
    { 0x1A, 2, 3, "no diskette geometry" },
    { 0x1A, 2, 1, 0 },
    { 0x13, 2, 0, "no room for data" },                 /* and total32 is 0 */
    { 0x13, 2, 20, "no room for data" },
    { 0x13, 2, 37, "no room for data" },                /* data_lba itself */
    { 0x13, 2, 38, 0 },                                 /* one cluster */
    { 0, 0, 2880, 0 },                                  /* total32, total16 0 */
    { 0, 0, 0x10000, "not FAT12" },                     /* 65k clusters of 1 sector */
};

/* 4084 clusters is FAT12's most, 4085 a FAT16 (with a FAT large enough for either). */
static void test_fat12_cluster_limit(void **state)
{
    (void)state;
    size_t size;
    uint8_t *boot = fixture_read("fat/fd1440.img", &size);
    struct fat_volume v;
    const char *why = "";
    put16(boot + 0x16, 12);                             /* data from 5 + 24 + 14 = 43 */
    put16(boot + 0x13, 43 + 4084);
    assert_int_equal(fat_mount(&v, boot, &why), 0);
    assert_int_equal(v.clusters, 4084);
    put16(boot + 0x13, 43 + 4085);
    assert_int_equal(fat_mount(&v, boot, &why), -1);
    assert_non_null(strstr(why, "not FAT12"));
    free(boot);
}

static void test_broken_bpb(void **state)
{
    (void)state;
    size_t size;
    uint8_t *good = fixture_read("fat/fd1440.img", &size);
    for (size_t i = 0; i < sizeof(bpb_cases) / sizeof(bpb_cases[0]); i++) {
        const struct bpb_case *c = &bpb_cases[i];
        uint8_t boot[FAT_SECTOR];
        struct fat_volume v;
        const char *why = "";
        memcpy(boot, good, sizeof(boot));
        if (!c->width) {
            put16(boot + 0x13, 0);
            put32(boot + 0x20, c->value);
        } else if (c->width == 1) {
            boot[c->offset] = (uint8_t)c->value;
        } else {
            put16(boot + c->offset, c->value);
        }
        int err = fat_mount(&v, boot, &why);
        if (c->why ? err != -1 || !strstr(why, c->why) : err != 0)
            fail_msg("case %zu (%02Xh = %u): %d \"%s\", not %s", i, c->offset,
                     (unsigned)c->value, err, why, c->why ? c->why : "mounted");
    }
    free(good);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_mount_formats),
        T(test_read_files_formats),
        T(test_contiguous_one_run),
        T(test_fragmented_runs),
        T(test_any_case_and_slashes),
        T(test_missing),
        T(test_directory_or_file),
        T(test_not_dos_names),
        T(test_lfn_and_label),
        T(test_deleted_and_end_entries),
        T(test_empty_file),
        T(test_chain_shorter_than_size),
        T(test_size_near_4g),
        T(test_bad_cluster),
        T(test_chain_leaves_disk),
        T(test_chain_loops),
        T(test_directory_loops),
        T(test_read_error_root),
        T(test_read_error_subdirectory),
        T(test_broken_bpb),
        T(test_fat12_cluster_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
