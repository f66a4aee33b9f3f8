/* The EFI memory map as a boot loader passes it on (multiboot 2 tag 17, built from
 * GetMemoryMap(): UEFI 2.x 7.2, EFI_MEMORY_DESCRIPTOR): the facts both the boot
 * information parser and the survey need. */
#ifndef APMOFF_EFI_MMAP_H
#define APMOFF_EFI_MMAP_H

#include <stdint.h>

#define EFI_MEMORY_DESCRIPTOR_MIN   40      /* Type, PhysicalStart at 8, NumberOfPages
                                               at 24, Attribute at 32 */
#define EFI_MEMORY_RUNTIME          (1ull << 63)    /* kept for the runtime services */
#define EFI_RUNTIME_SERVICES_CODE   5       /* EFI_MEMORY_TYPE */
#define EFI_PAGE_BYTES              4096

/* A region the firmware keeps for its runtime services (attribute EFI_MEMORY_RUNTIME):
 * where ResetSystem must lie. */
struct efi_region {
    uint64_t base;
    uint64_t pages;             /* EFI_PAGE_BYTES each */
    uint32_t type;              /* EFI_MEMORY_TYPE: 5 runtime services code, 6 data, ... */
};

#endif
