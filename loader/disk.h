/* Diskette reads for the loader, a whole cylinder at a time.
 *
 * The geometry is the medium's (the BPB iso/mkfloppy.sh wrote for its format), never
 * the drive's: a 720 KB disk in a 1.44 MB drive has 9 sectors a track whatever INT 13h
 * AH=08h says of the drive. The disk's first DISK_MIRROR_SECTORS sectors are kept in
 * memory (the mirror) as they are read, whole cylinders at a time, in order: what the
 * loader reads (the FAT, the directories, the menu, the kernel) lies there, so every
 * sector is read once and a file that lies in one run is used where it lies. A
 * cylinder of a run is begun at the sector that comes under the heads after the step,
 * not at sector 1, so no turn of the disk is waited for (disk.c); head 0's rest and
 * head 1 are one multi-track read where the BIOS takes it, else a read a head; reads
 * go through a buffer below 64 KiB, where no DMA transfer crosses a 64 KiB page. A
 * read is tried five times with a drive reset between; a cylinder that will not read
 * whole (an image cut short) is read again for just the sectors asked for. */
#ifndef APMOFF_LOADER_DISK_H
#define APMOFF_LOADER_DISK_H

#include <stdint.h>

#include "fat.h"

#define DISK_MIRROR_SECTORS 384         /* 192 KiB, at 20000h */

struct disk_error {
    uint8_t status;             /* INT 13h's AH */
    uint32_t lba;
    unsigned cylinder, head, sector;
};

struct disk_stats {
    uint32_t tracks;            /* whole tracks read */
    uint32_t retries;
};

void disk_open(uint8_t drive, const struct fat_volume *v);
/* count sectors from lba to dest (any address). 0, or -1 with *err filled in. */
int disk_read(uint32_t lba, unsigned count, void *dest, struct disk_error *err);
/* Where the sectors lie in the mirror, read if need be; 0 when they lie past it, or
 * when a cylinder would not read (err->status is then set). */
const void *disk_map(uint32_t lba, unsigned count, struct disk_error *err);
/* No more mirroring: its memory becomes the caller's. */
void disk_mirror_off(void);
const struct disk_stats *disk_stats(void);
/* What INT 13h's status byte means. */
const char *disk_status_name(uint8_t status);

#endif
