/* Calling a UEFI runtime service from our 32-bit protected mode, after GRUB has left
 * boot services: ResetSystem for method=efi and reset=efi.
 *
 * ia32 firmware: a plain 32-bit C call (UEFI's IA-32 convention is cdecl, flat
 * segments, paging off or identity), made from our flat code segment.
 * x64 firmware: the call runs in long mode. efi_call64 (system/efi_call64.asm) loads
 * its own GDT, turns on PAE with identity paging of the first 4 GiB (2 MiB pages,
 * built here), sets EFER.LME and CR0.PG, far-jumps to a 64-bit code segment and calls
 * the service with the Microsoft x64 convention (RCX, RDX, R8, R9, 32 bytes of shadow
 * space, RSP 16-byte aligned); if the service returns, it comes back down the same
 * way and restores our GDT, IDT, CR0, CR3, CR4 and EFER. Interrupts stay off; an
 * exception in long mode reaches a 64-bit IDT of its own, which ends the call and
 * leaves the registers in struct efi_fault (an NMI is counted and the call goes on).
 * The service must lie below 4 GiB.
 *
 * Both set the FPU as UEFI 2.x 2.3.2 and 2.3.4 ask: FNINIT, the x87 control word
 * (027Fh on ia32, 037Fh on x64) and, with SSE, MXCSR 1F80h; the ia32 call aligns
 * the stack to 16 bytes (efi_call32.asm), the x64 one to 16 plus the shadow space. */
#ifndef APMOFF_EFI_RT_H
#define APMOFF_EFI_RT_H

#include <stdbool.h>
#include <stdint.h>

#define EFI_RESET_COLD      0       /* EFI_RESET_TYPE EfiResetCold */
#define EFI_RESET_WARM      1       /* EfiResetWarm */
#define EFI_RESET_SHUTDOWN  2       /* EfiResetShutdown */

/* What an exception in the x64 firmware left (efi_call64.asm writes it). */
#define EFI_NO_FAULT        0xFFFFFFFFu
struct efi_fault {
    uint64_t vector;            /* EFI_NO_FAULT when the call returned */
    uint64_t error, rip, cs, rflags, rsp, cr2;
    uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15;
    uint32_t nmis;              /* NMIs that arrived during the call (it went on) */
};

/* ResetSystem(type, EFI_SUCCESS, 0, NULL) at fn; sse: the CPU has SSE (CPUID.1:EDX
 * bit 25), for MXCSR on ia32 (x64 CPUs all have it). Returns only when the firmware
 * returns, or (x64) when it faulted: then *fault says how. The EFI_STATUS's low 32
 * bits. */
uint32_t efi_reset_system(uint32_t fn, bool efi64, uint32_t type, bool sse,
                          struct efi_fault *fault);

/* A CPU exception in the firmware (the x64 thunk caught it): the 64-bit registers,
 * then the halt every CPU exception gets (HALT_EXCEPTION). */
void efi_fault_halt(const struct efi_fault *f) __attribute__((noreturn));

#endif
