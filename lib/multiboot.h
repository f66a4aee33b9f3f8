/* Multiboot 1 as both ends see it: the magic numbers, and the information block a
 * loader hands the kernel (Multiboot Specification 0.6.96, 3.3), each field once. The
 * kernel reads the block (system/bootinfo.c), the floppy loader writes it
 * (loader/mbinfo.c). Pure constants. */
#ifndef APMOFF_LIB_MULTIBOOT_H
#define APMOFF_LIB_MULTIBOOT_H

#define MB1_HEADER_MAGIC        0x1BADB002u     /* in the kernel's header */
#define MB1_BOOT_MAGIC          0x2BADB002u     /* in EAX at the kernel's entry */

/* The information block: flag bits and field offsets. */
#define MB1_FLAG_MEM            (1u << 0)       /* mem_lower, mem_upper */
#define MB1_FLAG_BOOT_DEVICE    (1u << 1)
#define MB1_FLAG_CMDLINE        (1u << 2)
#define MB1_FLAG_MMAP           (1u << 6)
#define MB1_FLAG_LOADER         (1u << 9)
#define MB1_OFF_FLAGS           0
#define MB1_OFF_MEM_LOWER       4
#define MB1_OFF_MEM_UPPER       8
#define MB1_OFF_BOOT_DEVICE     12              /* drive, then three partition bytes */
#define MB1_OFF_CMDLINE         16
#define MB1_OFF_MMAP_LENGTH     44
#define MB1_OFF_MMAP_ADDR       48
#define MB1_OFF_LOADER          64
#define MB1_INFO_SIZE           88
/* A memory map entry: u32 size (not counting itself), u64 base, u64 length, u32 type. */
#define MB1_MMAP_ENTRY          24
#define MB1_MMAP_ENTRY_SIZE     20              /* what the size field says */

/* apmoff's kernel refuses a command line this long or longer (it never parses one cut
 * short); the floppy loader refuses to build one. */
#define APMOFF_CMDLINE_MAX      1024

#endif
