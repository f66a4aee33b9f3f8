/* Diskette reads: see disk.h. */
#include "disk.h"
#include "bios.h"
#include "layout.h"
#include "../lib/pc.h"
#include "../lib/string.h"

#define TRIES           5
#define SECTOR          FAT_SECTOR

static uint8_t drive;
static unsigned spt, heads, mirror_sectors;
static int multitrack;                  /* 1 works, 0 not tried yet, -1 refused */
static int mirror_on = 1;
static uint8_t have[DISK_MIRROR_SECTORS / 8];
static struct disk_stats stats;

void disk_open(uint8_t d, const struct fat_volume *v)
{
    drive = d;
    spt = v->track_sectors;
    heads = v->heads;
    /* Whole cylinders only, so a cylinder is either mirrored or not. */
    unsigned cylinder = spt * heads;
    mirror_sectors = DISK_MIRROR_SECTORS / cylinder * cylinder;
    multitrack = heads == 2 && 2 * spt <= LOADER_TRACK_SECTORS ? 0 : -1;
}

const struct disk_stats *disk_stats(void)
{
    return &stats;
}

const char *disk_status_name(uint8_t status)
{
    switch (status) {
    case 0x01: return "invalid request";
    case 0x02: return "address mark not found (no such format on the disk?)";
    case 0x03: return "write-protected";
    case 0x04: return "sector not found";
    case 0x06: return "disk changed";
    case 0x08: return "DMA overrun";
    case 0x09: return "DMA across a 64 KiB boundary";
    case 0x0C: return "media type not found";
    case 0x10: return "CRC error (a damaged sector)";
    case 0x20: return "controller failure";
    case 0x40: return "seek failed";
    case 0x80: return "drive not ready (no disk?)";
    }
    return "an error the BIOS does not name";
}

/* INT 13h AH=02h: n sectors from (cylinder, head, sector) into the track buffer,
 * tried `tries` times with a reset between. 0, or the last status; *moved is AL on
 * success, the sectors the BIOS says it read (RBIL: not every BIOS sets it then). */
static uint8_t bios_read(unsigned cylinder, unsigned head, unsigned sector, unsigned n,
                         int tries, unsigned *moved)
{
    struct biosregs r;
    uint8_t status = 0;
    for (int t = 0; t < tries; t++) {
        if (t) {
            stats.retries++;
            initregs(&r);               /* AH=00h: reset, recalibrate */
            r.dl = drive;
            intcall(BIOS_INT_DISK, &r, &r);
        }
        initregs(&r);
        r.ah = 0x02;
        r.al = (uint8_t)n;
        r.ch = (uint8_t)cylinder;
        r.cl = (uint8_t)sector;
        r.dh = (uint8_t)head;
        r.dl = drive;
        r.es = (uint16_t)((LOADER_TRACK_BUFFER + (sector - 1) * SECTOR) >> 4);
        intcall(BIOS_INT_DISK, &r, &r);
        if (!(r.eflags & 1)) {
            *moved = r.al;
            return 0;
        }
        status = r.ah ? r.ah : 0xFF;
    }
    return status;
}

/* What a read that succeeded brought, by AL: fewer than asked when AL says so (a
 * BIOS whose diskette parameter table ends the track early stops there without an
 * error); AL 0, or more than asked, is a BIOS that does not set it: all of them. */
static unsigned sectors_read(unsigned al, unsigned asked)
{
    return al && al < asked ? al : asked;
}

/* One cylinder into the mirror: both heads in one multi-track read where the BIOS
 * takes it (one revolution saved a cylinder: the second head's first sector is not
 * missed between two calls), else a head at a time. A BIOS that stops at the end of
 * the first head says so only in AL, with CF clear and status 0 (86Box's Intel
 * AN430TX, Phoenix 4.0 6.0: AL=12h for 36 sectors): a multi-track read counts only
 * when AL is every sector asked for. 0, or the failing read. */
static int mirror_cylinder(unsigned c, struct disk_error *err)
{
    uint8_t *to = phys(LOADER_MIRROR + c * spt * heads * SECTOR);
    unsigned moved;
    if (multitrack >= 0) {
        if (!bios_read(c, 0, 1, 2 * spt, multitrack ? TRIES : 1, &moved) &&
            moved == 2 * spt) {
            multitrack = 1;
            memcpy(to, phys(LOADER_TRACK_BUFFER), 2 * spt * SECTOR);
            stats.tracks += 2;
            return 0;
        }
        multitrack = -1;                /* refused: a head at a time from now on */
    }
    for (unsigned h = 0; h < heads; h++) {
        for (unsigned s = 1, n; s <= spt; s += sectors_read(moved, n)) {
            n = spt - s + 1;
            uint8_t status = bios_read(c, h, s, n, TRIES, &moved);
            if (status) {
                *err = (struct disk_error){ status, (c * heads + h) * spt + s - 1, c, h, s };
                return -1;
            }
        }
        memcpy(to + h * spt * SECTOR, phys(LOADER_TRACK_BUFFER), spt * SECTOR);
        stats.tracks++;
    }
    return 0;
}

const void *disk_map(uint32_t lba, unsigned count, struct disk_error *err)
{
    err->status = 0;
    if (!mirror_on || lba + count > mirror_sectors)
        return 0;
    unsigned per_cylinder = spt * heads;
    for (unsigned c = lba / per_cylinder; c * per_cylinder < lba + count; c++) {
        if (have[c / 8] & (1 << (c % 8)))
            continue;
        if (mirror_cylinder(c, err))
            return 0;
        have[c / 8] |= (uint8_t)(1 << (c % 8));
    }
    return phys(LOADER_MIRROR + lba * SECTOR);
}

void disk_mirror_off(void)
{
    mirror_on = 0;
}

int disk_read(uint32_t lba, unsigned count, void *dest, struct disk_error *err)
{
    const void *mirrored = disk_map(lba, count, err);
    if (mirrored) {
        memcpy(dest, mirrored, count * SECTOR);
        return 0;
    }
    /* Past the mirror, or a cylinder that would not read whole (an image cut short
     * there): just the sectors asked for, a track at a time. */
    uint8_t *to = dest;
    while (count) {
        unsigned track = lba / spt, first = lba % spt;
        unsigned n = spt - first < count ? spt - first : count;
        unsigned moved;
        uint8_t status = bios_read(track / heads, track % heads, first + 1, n, TRIES, &moved);
        if (status) {
            *err = (struct disk_error){ status, lba, track / heads, track % heads, first + 1 };
            return -1;
        }
        n = sectors_read(moved, n);
        memcpy(to, phys(LOADER_TRACK_BUFFER + first * SECTOR), n * SECTOR);
        stats.tracks++;
        to += n * SECTOR;
        lba += n;
        count -= n;
    }
    return 0;
}
