/* libFuzzer target: loader/fat.c on hostile diskettes. The input is the disk image:
 * sector 0 its boot sector, and each sector the read function is asked for is the
 * input's (the last one padded with zeros); a sector past the input is a read error,
 * as a BIOS would report one. The first FAT is read into a block of exactly its size,
 * so fat_find() and fat_runs() reading past it are AddressSanitizer reports.
 *
 * Byte 1FEh (the boot signature, which the loader does not read) picks the path
 * looked up. What comes out must be what the loader relies on: fat_find() returns 0,
 * -1 with a reason, or exactly the read function's error; the runs of a file cover
 * exactly its sectors, inside the data area, no sector twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/fat.h"

#define READ_ERROR  7
#define RUNS_MAX    64

struct image {
    const uint8_t *data;
    size_t size;
};

static int read_sectors(void *ctx, uint32_t lba, unsigned count, void *dest)
{
    const struct image *im = ctx;
    uint8_t *d = dest;
    for (unsigned i = 0; i < count; i++) {
        uint64_t at = (uint64_t)(lba + i) * FAT_SECTOR;
        if (at >= im->size)
            return READ_ERROR;
        size_t n = im->size - at < FAT_SECTOR ? im->size - at : FAT_SECTOR;
        memcpy(d, im->data + at, n);
        memset(d + n, 0, FAT_SECTOR - n);
        d += FAT_SECTOR;
    }
    return 0;
}

static const char *const paths[] = {
    "/boot/apmoff.lz4", "/boot/menu.cfg", "/APMOFF.LZ4", "/a/b/c/d.e", "boot//x", "/boot",
    "/A.B/C", "/\xE5", "/x.",
};

static void check_runs(const struct fat_volume *v, const uint8_t *fat, const struct fat_file *f)
{
    struct fat_run runs[RUNS_MAX];
    unsigned count = 0xDEAD;
    const char *why = 0;
    int r = fat_runs(v, fat, f, runs, RUNS_MAX, &count, &why);
    if (r == -1) {
        if (!why || !*why || count)
            abort();
        return;
    }
    if (r || count > RUNS_MAX)
        abort();
    uint64_t sectors = 0;
    uint64_t data_end = v->data_lba + (uint64_t)v->clusters * v->cluster_sectors;
    for (unsigned i = 0; i < count; i++) {
        if (!runs[i].count || runs[i].lba < v->data_lba ||
            runs[i].lba + (uint64_t)runs[i].count > data_end)
            abort();
        for (unsigned k = 0; k < i; k++)
            if (runs[i].lba < runs[k].lba + runs[k].count &&
                runs[k].lba < runs[i].lba + runs[i].count)
                abort();
        sectors += runs[i].count;
    }
    if (sectors != ((uint64_t)f->size + FAT_SECTOR - 1) / FAT_SECTOR)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct image im = { data, size };
    struct fat_volume v;
    const char *why = 0;
    uint8_t boot[FAT_SECTOR];

    if (read_sectors(&im, 0, 1, boot))
        return 0;
    if (fat_mount(&v, boot, &why)) {
        if (!why || !*why)
            abort();
        return 0;
    }
    if (v.data_lba >= v.total_sectors || v.clusters > 4084 ||
        v.fat_sectors > FAT_MAX_FAT_SECTORS || v.track_sectors > FAT_MAX_TRACK_SECTORS)
        abort();
    uint8_t *fat = malloc((size_t)v.fat_sectors * FAT_SECTOR);
    if (!read_sectors(&im, v.fat_lba, v.fat_sectors, fat)) {
        const char *path = paths[(size > 0x1FE ? data[0x1FE] : 0) %
                                 (sizeof(paths) / sizeof(paths[0]))];
        struct fat_file f;
        why = 0;
        int r = fat_find(&v, fat, read_sectors, &im, path, &f, &why);
        if (r == 0)
            check_runs(&v, fat, &f);
        else if (r != READ_ERROR && (r != -1 || !why || !*why))
            abort();
    }
    free(fat);
    return 0;
}
