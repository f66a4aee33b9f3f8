/* UEFI runtime calls: see efi_rt.h. */
#include "efi_rt.h"

#define PAGE_PRESENT_RW     0x003
#define PAGE_2M             0x083   /* present, writable, page size (PS) */
#define PD_COUNT            4       /* 4 x 1 GiB */
#define ENTRIES             512

/* The identity map efi_call64 switches to: 24 KiB, only ever used for that call. */
static uint64_t pml4[ENTRIES] __attribute__((aligned(4096)));
static uint64_t pdpt[ENTRIES] __attribute__((aligned(4096)));
static uint64_t pd[PD_COUNT][ENTRIES] __attribute__((aligned(4096)));

/* system/efi_call64.asm: fn(arg0, 0, 0, 0) in long mode, with CR3 = pml4; a fault
 * there is written here. system/efi_call32.asm: fn(type, 0, 0, NULL), aligned. */
uint32_t efi_call64(uint32_t fn, uint32_t pml4_addr, uint32_t arg0);
uint32_t efi_call32(uint32_t fn, uint32_t type, uint32_t sse);
struct efi_fault efi_fault64;

static void identity_map_4g(void)
{
    pml4[0] = (uint32_t)(uintptr_t)pdpt | PAGE_PRESENT_RW;
    for (unsigned i = 0; i < PD_COUNT; i++) {
        pdpt[i] = (uint32_t)(uintptr_t)pd[i] | PAGE_PRESENT_RW;
        for (unsigned j = 0; j < ENTRIES; j++)
            pd[i][j] = ((uint64_t)(i * ENTRIES + j) << 21) | PAGE_2M;
    }
}

uint32_t efi_reset_system(uint32_t fn, bool efi64, uint32_t type, bool sse,
                          struct efi_fault *fault)
{
    uint32_t status;

    efi_fault64 = (struct efi_fault){ .vector = EFI_NO_FAULT };
    if (!efi64) {
        status = efi_call32(fn, type, sse);
    } else {
        identity_map_4g();
        status = efi_call64(fn, (uint32_t)(uintptr_t)pml4, type);
    }
    *fault = efi_fault64;
    return status;
}
