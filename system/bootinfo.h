/* What the boot loader told us, copied out of its multiboot 1 or 2 information.
 *
 * Everything is copied into struct bootinfo first, because the loader's structures
 * may sit in low memory that the real-mode trampoline is about to claim. The parser
 * is defensive (lengths bounded, strings cut and terminated) and takes the address of
 * physical memory as a parameter, so the host unit tests can feed it a buffer. */
#ifndef APMOFF_BOOTINFO_H
#define APMOFF_BOOTINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/efi_mmap.h"
#include "../lib/multiboot.h"

#define MB2_BOOT_MAGIC  0x36D76289

#define BOOTINFO_MMAP_MAX       48
#define BOOTINFO_CMDLINE_MAX    APMOFF_CMDLINE_MAX  /* longer ones are refused, not cut */
#define BOOTINFO_LOADER_MAX     64
#define BOOTINFO_RSDP_MAX       64
#define BOOTINFO_EFI_RUNTIME_MAX 32     /* runtime regions kept from the EFI memory map */

enum mmap_type {
    MMAP_AVAILABLE = 1,
    MMAP_RESERVED = 2,
    MMAP_ACPI_RECLAIMABLE = 3,
    MMAP_ACPI_NVS = 4,
    MMAP_BAD = 5,
};

struct mmap_entry {
    uint64_t base;
    uint64_t length;
    uint32_t type;
};

/* A linear framebuffer the loader set up (multiboot 2 tag 8, RGB type only). */
struct framebuffer {
    uint64_t addr;
    uint32_t pitch, width, height;
    uint8_t bpp;
    uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct bootinfo {
    int protocol;               /* 1 or 2; 0 when the magic was not a multiboot one */
    char cmdline[BOOTINFO_CMDLINE_MAX];
    bool cmdline_truncated;     /* the loader's line did not fit: it must not be used */
    char loader[BOOTINFO_LOADER_MAX];
    bool have_mem;
    uint32_t mem_lower_kb, mem_upper_kb;
    unsigned mmap_count;
    bool mmap_truncated;
    struct mmap_entry mmap[BOOTINFO_MMAP_MAX];
    bool efi_system_table;      /* multiboot 2: an EFI 32/64-bit system table tag */
    bool efi_boot_services;     /* multiboot 2: "boot services not terminated" tag */
    bool have_fb;
    struct framebuffer fb;
    uint64_t efi_system_table_addr;     /* tag 12 (64-bit) or 11 (32-bit) pointer */
    bool efi64;
    bool efi_mmap;              /* multiboot 2 tag 17: the EFI memory map */
    unsigned efi_mmap_count;    /* its descriptors */
    unsigned efi_runtime_count; /* those kept in efi_runtime[] */
    bool efi_runtime_truncated; /* more runtime regions than BOOTINFO_EFI_RUNTIME_MAX */
    struct efi_region efi_runtime[BOOTINFO_EFI_RUNTIME_MAX];
    unsigned rsdp_len;          /* multiboot 2 tags 14/15: a copy of the ACPI RSDP */
    uint8_t rsdp[BOOTINFO_RSDP_MAX];
    unsigned malformed;         /* pieces rejected as malformed (reported, not followed) */
};

/* mem_base is the address at which physical address 0 is visible (0 in the kernel). */
void bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint32_t info_addr,
                    uintptr_t mem_base);

const char *mmap_type_name(uint32_t type);

#endif
