/* Calling a UEFI runtime service from our 32-bit protected mode, after GRUB has left
 * boot services: ResetSystem for method=efi.
 *
 * ia32 firmware: a plain 32-bit C call (UEFI's IA-32 convention is cdecl, flat
 * segments, paging off or identity), made from our flat code segment.
 * x64 firmware: the call runs in long mode. efi_call64 (system/efi_call64.asm) loads
 * its own GDT, turns on PAE with identity paging of the first 4 GiB (2 MiB pages,
 * built here), sets EFER.LME and CR0.PG, far-jumps to a 64-bit code segment and calls
 * the service with the Microsoft x64 convention (RCX, RDX, R8, R9, 32 bytes of shadow
 * space, RSP 16-byte aligned); if the service returns, it comes back down the same
 * way and restores our GDT, CR0, CR3, CR4 and EFER. Interrupts stay off throughout
 * (our IDT has no 64-bit gates). The service must lie below 4 GiB. */
#ifndef APMOFF_EFI_RT_H
#define APMOFF_EFI_RT_H

#include <stdbool.h>
#include <stdint.h>

#define EFI_RESET_SHUTDOWN  2       /* EFI_RESET_TYPE EfiResetShutdown */

/* ResetSystem(type, EFI_SUCCESS, 0, NULL) at fn. Returns only when the firmware
 * returns; then the EFI_STATUS's low 32 bits. */
uint32_t efi_reset_system(uint32_t fn, bool efi64, uint32_t type);

#endif
