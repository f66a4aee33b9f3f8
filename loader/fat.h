/* FAT12, as the loader reads it: the BIOS parameter block of the boot sector, a file
 * found by its path (8.3 names), and the sectors holding it as runs of consecutive
 * sectors, so the disk code can read them a whole track at a time.
 *
 * Pure: sectors come through the caller's read function, so the host tests run this
 * on images mformat made. Only what a diskette needs: 512-byte sectors, FAT12. */
#ifndef APMOFF_LOADER_FAT_H
#define APMOFF_LOADER_FAT_H

#include <stdint.h>

#define FAT_SECTOR          512
#define FAT_MAX_FAT_SECTORS 12      /* a 2.88 MB diskette's FAT has 9 */
#define FAT_MAX_TRACK_SECTORS 36    /* a 2.88 MB diskette */

struct fat_volume {
    uint8_t cluster_sectors;
    uint16_t reserved;          /* the boot sector and the loader's second stage */
    uint8_t fats;
    uint16_t root_entries;
    uint32_t total_sectors;
    uint16_t fat_sectors;
    uint16_t track_sectors;     /* the medium's geometry, as the BPB gives it */
    uint16_t heads;
    uint32_t fat_lba, root_lba, root_sectors, data_lba;
    uint32_t clusters;          /* data clusters, numbered from 2 */
};

struct fat_file {
    uint32_t size;
    uint16_t first_cluster;
};

struct fat_run {
    uint32_t lba;
    uint32_t count;
};

/* Reads count sectors from lba into dest; 0 on success, else the error to report. */
typedef int (*fat_read_fn)(void *ctx, uint32_t lba, unsigned count, void *dest);

/* Reads the BPB of a boot sector; 0, or -1 with *why saying what is wrong. */
int fat_mount(struct fat_volume *v, const uint8_t *boot, const char **why);

/* Finds a file by its path from the root ("/boot/apmoff.lz4", any case); fat is the
 * first FAT, whole. 0; -1 with *why; or the read function's error. */
int fat_find(const struct fat_volume *v, const uint8_t *fat, fat_read_fn read, void *ctx,
             const char *path, struct fat_file *f, const char **why);

/* The file's sectors, in order, as at most max runs; *count gets how many. 0, or -1
 * with *why (a broken chain, one that loops, a chain shorter than the file, too many
 * runs). */
int fat_runs(const struct fat_volume *v, const uint8_t *fat, const struct fat_file *f,
             struct fat_run *runs, unsigned max, unsigned *count, const char **why);

#endif
