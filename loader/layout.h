/* The floppy loader's memory below 1 MiB, one map for the boot sector and the second
 * stage. loader/bootsect.asm and loader/head.asm read it through
 * build/loader-offsets.inc (loader/asm-offsets.c), and the boot sector refuses to
 * build when the field the second stage reads in it is not where this says.
 *
 *   0522h          the boot sector's copy of the diskette parameter table (INT 1Eh),
 *                  where DOS keeps its own
 *   1000h-57FFh    the track buffer (disk.c): below 10000h, so no DMA page is crossed
 *   5800h-7BFFh    the stack; 7C00h the boot sector, its BPB read by the second stage
 *   8000h-FFFFh    the second stage, its BSS too (loader.ld): gcc -m16 code reaches
 *                  its own variables with 16-bit addresses, other memory by pointers
 *   10000h         the FAT; 12000h the menu file; 14000h the multiboot information
 *   20000h-4FFFFh  the disk's first 384 sectors, as read (disk.c), the kernel file
 *                  among them; or, the mirror given up, a file read whole
 *   50000h-EBDA    the kernel file unpacked, when it was LZ4-packed
 * and the kernel where its ELF headers say (apmoff: 2 MiB). */
#ifndef APMOFF_LOADER_LAYOUT_H
#define APMOFF_LOADER_LAYOUT_H

#define LOADER_DPT_COPY         0x0522u
#define LOADER_TRACK_BUFFER     0x1000u
#define LOADER_TRACK_SECTORS    36u         /* two heads of 18: to 5800h */
#define LOADER_STACK_TOP        0x7C00u
#define LOADER_BOOT_SECTOR      0x7C00u
#define LOADER_STAGE2           0x8000u     /* loader.ld links the second stage here */
#define LOADER_STAGE2_END       0x10000u
#define LOADER_FAT_BUFFER       0x10000u
#define LOADER_MENU_BUFFER      0x12000u
#define LOADER_INFO_BUFFER      0x14000u
#define LOADER_INFO_MAX         0x2000u
#define LOADER_MIRROR           0x20000u    /* sector n of the disk at + n * 512 ... */
#define LOADER_FILE_BUFFER      LOADER_MIRROR   /* ... or a file, once it is given up */
#define LOADER_FILE_MAX         0x30000u    /* 192 KiB: to 50000h */
#define LOADER_UNPACK_BUFFER    0x50000u

/* Where the boot sector keeps what the second stage reads back (an offset in it). */
#define BOOT_BIOS_DRIVE         0x25u       /* the BPB's reserved byte: the BIOS's DL */

#endif
