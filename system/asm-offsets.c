/* Constants for the platform's assembly (isr.asm, bios_irq.asm, frame.inc, and every
 * layer above that includes build/system-offsets.inc), generated from the C headers
 * so the two sides cannot drift. The Makefile compiles this file to assembly and
 * turns every "->NAME value" marker line into "NAME equ value". */
#include <stddef.h>

#include "descriptors.h"
#include "efi_rt.h"
#include "../lib/bda.h"
#include "../lib/pc.h"
#include "../lib/x86.h"

#define DEFINE(sym, val) __asm__ volatile("\n->" #sym " %c0" : : "i"(val))

void system_asm_constants(void);
void system_asm_constants(void)
{
    DEFINE(SEL_CODE32, SEL_CODE32);
    DEFINE(SEL_DATA32, SEL_DATA32);
    DEFINE(SEL_TRAMP_CODE16, SEL_TRAMP_CODE16);
    DEFINE(SEL_TRAMP_DATA16, SEL_TRAMP_DATA16);
    DEFINE(SEL_APM_CODE32, SEL_APM_CODE32);
    DEFINE(SEL_APM_CODE16, SEL_APM_CODE16);
    DEFINE(SEL_APM_DATA, SEL_APM_DATA);

    DEFINE(PIC_MASTER_CMD, PIC_MASTER_CMD);
    DEFINE(PIC_SLAVE_CMD, PIC_SLAVE_CMD);
    DEFINE(PIC_MASTER_DATA, PIC_MASTER_DATA);
    DEFINE(PIC_SLAVE_DATA, PIC_SLAVE_DATA);
    DEFINE(PIC_BIOS_MASTER_BASE, PIC_BIOS_MASTER_BASE);
    DEFINE(PIC_OCW3_READ_ISR, PIC_OCW3_READ_ISR);
    DEFINE(PIC_OCW3_READ_IRR, PIC_OCW3_READ_IRR);
    DEFINE(PIC_EOI, PIC_EOI);
    DEFINE(BDA_TICKS, BDA_TICKS);
    DEFINE(X86_VECTOR_DF, X86_VECTOR_DF);

    /* struct efi_fault, written by efi_call64.asm's exception handler */
    DEFINE(EFI_FAULT_VECTOR, offsetof(struct efi_fault, vector));
    DEFINE(EFI_FAULT_ERROR, offsetof(struct efi_fault, error));
    DEFINE(EFI_FAULT_RIP, offsetof(struct efi_fault, rip));
    DEFINE(EFI_FAULT_CS, offsetof(struct efi_fault, cs));
    DEFINE(EFI_FAULT_RFLAGS, offsetof(struct efi_fault, rflags));
    DEFINE(EFI_FAULT_RSP, offsetof(struct efi_fault, rsp));
    DEFINE(EFI_FAULT_CR2, offsetof(struct efi_fault, cr2));
    DEFINE(EFI_FAULT_RAX, offsetof(struct efi_fault, rax));
    DEFINE(EFI_FAULT_RBX, offsetof(struct efi_fault, rbx));
    DEFINE(EFI_FAULT_RCX, offsetof(struct efi_fault, rcx));
    DEFINE(EFI_FAULT_RDX, offsetof(struct efi_fault, rdx));
    DEFINE(EFI_FAULT_RSI, offsetof(struct efi_fault, rsi));
    DEFINE(EFI_FAULT_RDI, offsetof(struct efi_fault, rdi));
    DEFINE(EFI_FAULT_RBP, offsetof(struct efi_fault, rbp));
    DEFINE(EFI_FAULT_R8, offsetof(struct efi_fault, r8));
    DEFINE(EFI_FAULT_R9, offsetof(struct efi_fault, r9));
    DEFINE(EFI_FAULT_R10, offsetof(struct efi_fault, r10));
    DEFINE(EFI_FAULT_R11, offsetof(struct efi_fault, r11));
    DEFINE(EFI_FAULT_R12, offsetof(struct efi_fault, r12));
    DEFINE(EFI_FAULT_R13, offsetof(struct efi_fault, r13));
    DEFINE(EFI_FAULT_R14, offsetof(struct efi_fault, r14));
    DEFINE(EFI_FAULT_R15, offsetof(struct efi_fault, r15));
    DEFINE(EFI_FAULT_NMIS, offsetof(struct efi_fault, nmis));
}
