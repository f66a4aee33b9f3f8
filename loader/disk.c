/* Diskette reads: see disk.h. */
#include "disk.h"
#include "bios.h"
#include "layout.h"
#include "../lib/pc.h"
#include "../lib/string.h"

#define TRIES           5
#define SECTOR          FAT_SECTOR
/* A step to the next cylinder, the heads' settling and the BIOS's work around them:
 * 3 ms and 15 ms in the diskette parameter table DOS and most BIOSes use, a few ms of
 * BIOS code, and room to spare. 86Box's Award 386 needs less than one sector's time
 * (11 ms), more than the index gap: too little room costs a turn, too much a sector. */
#define STEP_MS         25
/* Counted in sectors at 360 rpm, a 5.25" HD drive's turn: the faster turn passes more
 * sectors in the same time, so a 3.5" drive gets a little more room than it needs. */
#define RPM_FASTEST     360

static uint8_t drive;
static unsigned spt, heads, mirror_sectors;
static unsigned step_skip;              /* sectors that pass during a step: STEP_MS */
static int multitrack;                  /* 1 works, 0 not tried yet, -1 refused */
static int mirror_on = 1;
static uint8_t have[DISK_MIRROR_SECTORS / 8];
static struct disk_stats stats;

void disk_open(uint8_t d, const struct fat_volume *v)
{
    drive = d;
    spt = v->track_sectors;
    heads = v->heads;
    /* Whole cylinders only, so a cylinder is either mirrored or not; and only a disk
     * whose cylinder fits the track buffer (not a 2.88 MB one: it is read a track a
     * call, by disk_read()). */
    unsigned cylinder = spt * heads;
    mirror_sectors = cylinder <= LOADER_TRACK_SECTORS ?
                     DISK_MIRROR_SECTORS / cylinder * cylinder : 0;
    multitrack = heads == 2 && 2 * spt <= LOADER_TRACK_SECTORS ? 0 : -1;
    step_skip = (spt * STEP_MS * RPM_FASTEST + 60000 - 1) / 60000;
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

/* INT 13h AH=02h: n sectors from (cylinder, head, sector) into the track buffer from
 * its sector `at` on, tried `tries` times with a reset between. 0, or the last status;
 * *moved is AL on success, the sectors the BIOS says it read (RBIL: not every BIOS
 * sets it then). */
static uint8_t bios_read(unsigned cylinder, unsigned head, unsigned sector, unsigned n,
                         unsigned at, int tries, unsigned *moved)
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
        r.es = (uint16_t)((LOADER_TRACK_BUFFER + at * SECTOR) >> 4);
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

/* Sectors first .. first + n - 1 of one head of a cylinder into the track buffer at
 * their place in the cylinder, in as many reads as the BIOS's AL says it takes. 0, or
 * -1 with *err filled in. */
static int read_run(unsigned c, unsigned h, unsigned first, unsigned n,
                    struct disk_error *err)
{
    unsigned moved;
    for (unsigned s = first, left = n, got; left; s += got, left -= got) {
        uint8_t status = bios_read(c, h, s, left, h * spt + s - 1, TRIES, &moved);
        if (status) {
            *err = (struct disk_error){ status, (c * heads + h) * spt + s - 1, c, h, s };
            return -1;
        }
        got = sectors_read(moved, left);
    }
    return 0;
}

/* The sector to begin a cylinder with so that the disk's turn is not waited for: the
 * one that comes under the heads `skip` sectors after the last read ended with sector
 * `ended` (0: not known, and sector 1 is as good as any). */
static unsigned first_after(unsigned ended, unsigned skip)
{
    return ended ? (ended + skip) % spt + 1 : 1;
}

/* One cylinder into the mirror, begun where the heads are rather than at sector 1:
 * from `first` to the end of head 0's track, head 1's whole track, then head 0's
 * sectors 1 to first - 1. Every read but the first begins at the index, right after
 * the one before ended at the end of a track: the index gap holds the BIOS's work (on
 * 86Box's Award 386 and AMI 386 a read of the next sector after the index takes no
 * turn), and the track buffer is copied out only at the end, before the step. A
 * cylinder costs two turns and the step, where beginning at sector 1 cost three: the
 * step and the heads' settling let sector 1 pass, and waiting for it is a whole turn.
 *
 * Head 0's run and head 1's track are one multi-track read where the BIOS takes it,
 * else two. A BIOS that stops at the end of the first head says so only in AL, with
 * CF clear and status 0 (86Box's Intel AN430TX, Phoenix 4.0 6.0: AL=12h for 36
 * sectors): a multi-track read counts only when AL is every sector asked for.
 * *ended is the sector the last read ended with, from one cylinder to the next. 0, or
 * -1 with *err filled in. */
static int mirror_cylinder(unsigned c, unsigned *ended, struct disk_error *err)
{
    unsigned first = first_after(*ended, step_skip), moved;
    *ended = 0;
    if (multitrack >= 0) {
        unsigned n = 2 * spt - first + 1;
        if (!bios_read(c, 0, first, n, first - 1, multitrack ? TRIES : 1, &moved) &&
            moved == n)
            multitrack = 1;
        else
            multitrack = -1;            /* refused: a head at a time from now on */
    }
    if (multitrack < 0)
        for (unsigned h = 0, s = first; h < heads; h++, s = 1)
            if (read_run(c, h, s, spt - s + 1, err))
                return -1;
    if (first > 1 && read_run(c, 0, 1, first - 1, err))
        return -1;
    *ended = first > 1 ? first - 1 : spt;
    memcpy(phys(LOADER_MIRROR + c * heads * spt * SECTOR), phys(LOADER_TRACK_BUFFER),
           heads * spt * SECTOR);
    stats.tracks += heads;
    return 0;
}

const void *disk_map(uint32_t lba, unsigned count, struct disk_error *err)
{
    err->status = 0;
    if (!mirror_on || lba + count > mirror_sectors)
        return 0;
    unsigned per_cylinder = spt * heads, ended = 0;
    for (unsigned c = lba / per_cylinder; c * per_cylinder < lba + count; c++) {
        if (have[c / 8] & (1 << (c % 8))) {
            ended = 0;                  /* a longer seek: where the heads land is not known */
            continue;
        }
        if (mirror_cylinder(c, &ended, err))
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
        uint8_t status = bios_read(track / heads, track % heads, first + 1, n, first, TRIES,
                                   &moved);
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
