/* FAT12 for the loader: see fat.h. Offsets and values from Microsoft's "FAT: General
 * Overview of On-Disk Format" (the BPB of DOS 3.31, FAT12 entries, 32-byte directory
 * entries). */
#include "fat.h"
#include "../lib/string.h"
#include "../lib/le.h"

#define BPB_BYTES_PER_SECTOR    0x0B
#define BPB_CLUSTER_SECTORS     0x0D
#define BPB_RESERVED            0x0E
#define BPB_FATS                0x10
#define BPB_ROOT_ENTRIES        0x11
#define BPB_TOTAL16             0x13
#define BPB_FAT_SECTORS         0x16
#define BPB_TRACK_SECTORS       0x18
#define BPB_HEADS               0x1A
#define BPB_TOTAL32             0x20

#define DIR_ENTRY               32
#define DIR_ATTR                11
#define DIR_CLUSTER             26
#define DIR_SIZE                28
#define ATTR_VOLUME             0x08
#define ATTR_DIRECTORY          0x10
#define ATTR_LONG_NAME          0x0F
#define NAME_FREE               0xE5
#define NAME_END                0x00

#define FAT12_MAX_CLUSTERS      4084    /* more make a FAT16 */
#define FAT12_BAD               0xFF7
#define FAT12_END               0xFF8   /* and above: the chain's last cluster */

int fat_mount(struct fat_volume *v, const uint8_t *boot, const char **why)
{
    uint16_t total16 = le16(boot + BPB_TOTAL16);

    v->cluster_sectors = boot[BPB_CLUSTER_SECTORS];
    v->reserved = le16(boot + BPB_RESERVED);
    v->fats = boot[BPB_FATS];
    v->root_entries = le16(boot + BPB_ROOT_ENTRIES);
    v->total_sectors = total16 ? total16 : le32(boot + BPB_TOTAL32);
    v->fat_sectors = le16(boot + BPB_FAT_SECTORS);
    v->track_sectors = le16(boot + BPB_TRACK_SECTORS);
    v->heads = le16(boot + BPB_HEADS);
    if (le16(boot + BPB_BYTES_PER_SECTOR) != FAT_SECTOR) {
        *why = "its sectors are not 512 bytes";
        return -1;
    }
    if (!v->cluster_sectors || (v->cluster_sectors & (v->cluster_sectors - 1)) ||
        !v->reserved || !v->fats || v->fats > 2 || !v->fat_sectors ||
        v->fat_sectors > FAT_MAX_FAT_SECTORS || !v->root_entries ||
        v->root_entries % (FAT_SECTOR / DIR_ENTRY)) {
        *why = "its BIOS parameter block is not a diskette's FAT12";
        return -1;
    }
    if (v->track_sectors < 8 || v->track_sectors > FAT_MAX_TRACK_SECTORS || v->heads < 1 ||
        v->heads > 2) {
        *why = "its BIOS parameter block gives no diskette geometry";
        return -1;
    }
    v->fat_lba = v->reserved;
    v->root_lba = v->fat_lba + (uint32_t)v->fats * v->fat_sectors;
    v->root_sectors = (uint32_t)v->root_entries * DIR_ENTRY / FAT_SECTOR;
    v->data_lba = v->root_lba + v->root_sectors;
    if (v->data_lba >= v->total_sectors) {
        *why = "its BIOS parameter block leaves no room for data";
        return -1;
    }
    v->clusters = (v->total_sectors - v->data_lba) / v->cluster_sectors;
    if (v->clusters > FAT12_MAX_CLUSTERS ||
        (v->clusters + 2) * 3 / 2 + 1 > (uint32_t)v->fat_sectors * FAT_SECTOR) {
        *why = "its FAT is not FAT12, or too small for its clusters";
        return -1;
    }
    return 0;
}

static unsigned next_cluster(const uint8_t *fat, unsigned cluster)
{
    unsigned v = le16(fat + cluster + cluster / 2);
    return cluster & 1 ? v >> 4 : v & 0xFFF;
}

static int is_data_cluster(const struct fat_volume *v, unsigned c)
{
    return c >= 2 && c < v->clusters + 2;
}

static uint32_t cluster_lba(const struct fat_volume *v, unsigned c)
{
    return v->data_lba + (uint32_t)(c - 2) * v->cluster_sectors;
}

/* One path component as a directory entry names it: 8 + 3 characters, upper case,
 * space-padded. 0, or -1 for a name DOS could not have. */
static int dos_name(const char *s, unsigned len, char out[11])
{
    unsigned i = 0, limit = 8;
    memset(out, ' ', 11);
    for (unsigned k = 0; k < len; k++) {
        char c = s[k];
        if (c == '.') {
            if (i > 8 || limit == 11 || k == 0)
                return -1;
            i = 8;
            limit = 11;
            continue;
        }
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (i == limit || (unsigned char)c <= ' ' || c == '/' || c == '\\')
            return -1;
        out[i++] = c;
    }
    return len ? 0 : -1;
}

/* Looks for name in the directory entries of one sector: 1 found (into *f, with its
 * attributes), 0 not here, -1 the directory ended. */
static int in_sector(const uint8_t *sector, const char name[11], struct fat_file *f,
                     uint8_t *attr)
{
    for (unsigned at = 0; at < FAT_SECTOR; at += DIR_ENTRY) {
        const uint8_t *e = sector + at;
        if (e[0] == NAME_END)
            return -1;
        if (e[0] == NAME_FREE || (e[DIR_ATTR] & ATTR_LONG_NAME) == ATTR_LONG_NAME ||
            (e[DIR_ATTR] & ATTR_VOLUME))
            continue;
        if (!memcmp(e, name, 11)) {
            f->first_cluster = le16(e + DIR_CLUSTER);
            f->size = le32(e + DIR_SIZE);
            *attr = e[DIR_ATTR];
            return 1;
        }
    }
    return 0;
}

int fat_find(const struct fat_volume *v, const uint8_t *fat, fat_read_fn read, void *ctx,
             const char *path, struct fat_file *f, const char **why)
{
    uint8_t sector[FAT_SECTOR];
    unsigned dir = 0;                   /* 0: the root directory */

    while (*path == '/')
        path++;
    if (!*path) {
        *why = "no file named";
        return -1;
    }
    while (*path) {
        unsigned len = 0;
        while (path[len] && path[len] != '/')
            len++;
        char name[11];
        if (dos_name(path, len, name)) {
            *why = "a name in the path is not a DOS name (8.3)";
            return -1;
        }
        path += len;
        while (*path == '/')
            path++;

        int found = 0;
        uint8_t attr = 0;
        if (!dir) {
            for (uint32_t s = 0; s < v->root_sectors && !found; s++) {
                int err = read(ctx, v->root_lba + s, 1, sector);
                if (err)
                    return err;
                found = in_sector(sector, name, f, &attr);
            }
        } else {
            for (unsigned c = dir, steps = 0; !found && is_data_cluster(v, c);
                 c = next_cluster(fat, c)) {
                if (++steps > v->clusters) {
                    *why = "a directory's cluster chain loops";
                    return -1;
                }
                for (unsigned s = 0; s < v->cluster_sectors && !found; s++) {
                    int err = read(ctx, cluster_lba(v, c) + s, 1, sector);
                    if (err)
                        return err;
                    found = in_sector(sector, name, f, &attr);
                }
            }
        }
        if (found != 1) {
            *why = "no such file";
            return -1;
        }
        int last = !*path;
        if (last && (attr & ATTR_DIRECTORY)) {
            *why = "it is a directory";
            return -1;
        }
        if (!last) {
            if (!(attr & ATTR_DIRECTORY)) {
                *why = "a name in the path is a file, not a directory";
                return -1;
            }
            if (!is_data_cluster(v, f->first_cluster)) {
                *why = "a directory starts outside the disk";
                return -1;
            }
            dir = f->first_cluster;
        }
    }
    return 0;
}

int fat_runs(const struct fat_volume *v, const uint8_t *fat, const struct fat_file *f,
             struct fat_run *runs, unsigned max, unsigned *count, const char **why)
{
    uint32_t cluster_bytes = (uint32_t)v->cluster_sectors * FAT_SECTOR;
    /* Rounded up without adding first: a size near 4 GiB would wrap to a few bytes. */
    uint32_t need = f->size / cluster_bytes + (f->size % cluster_bytes != 0);
    uint32_t sectors_left = f->size / FAT_SECTOR + (f->size % FAT_SECTOR != 0);
    unsigned c = f->first_cluster, n = 0;

    *count = 0;
    if (!f->size)
        return 0;
    for (uint32_t i = 0; i < need; i++) {
        if (!is_data_cluster(v, c)) {
            *why = c >= FAT12_END ? "its cluster chain is shorter than the file" :
                   c == FAT12_BAD ? "its cluster chain holds a bad cluster" :
                   "its cluster chain leaves the disk";
            return -1;
        }
        uint32_t lba = cluster_lba(v, c);
        /* A cluster taken before: the chain comes back on itself, and would hand the
         * same sectors over again as the file's next part. */
        for (unsigned k = 0; k < n; k++)
            if (lba - runs[k].lba < runs[k].count) {
                *why = "its cluster chain loops";
                return -1;
            }
        uint32_t take = sectors_left < v->cluster_sectors ? sectors_left
                                                           : v->cluster_sectors;
        if (n && runs[n - 1].lba + runs[n - 1].count == lba) {
            runs[n - 1].count += take;
        } else {
            if (n == max) {
                *why = "the file lies in too many pieces (defragment the disk)";
                return -1;
            }
            runs[n].lba = lba;
            runs[n].count = take;
            n++;
        }
        sectors_left -= take;
        c = next_cluster(fat, c);
    }
    *count = n;
    return 0;
}
