/* Architectural constants of the x86 the kernel and the host tests share. */
#ifndef APMOFF_X86_H
#define APMOFF_X86_H

#define X86_EFLAGS_CF   0x0001
#define X86_EFLAGS_BIT1 0x0002  /* always 1 */
#define X86_EFLAGS_ZF   0x0040
#define X86_EFLAGS_DF   0x0400
#define X86_EFLAGS_OF   0x0800
#define X86_EFLAGS_IF   0x0200
#define X86_EFLAGS_IOPL 0x3000
#define X86_EFLAGS_NT   0x4000
#define X86_EFLAGS_VM   0x00020000
#define X86_EFLAGS_AC   0x00040000
#define X86_EFLAGS_VIF  0x00080000
#define X86_EFLAGS_VIP  0x00100000
#define X86_EFLAGS_ID   0x00200000

#define X86_CR0_PE      0x00000001

#define X86_CR4_VME     0x00000001      /* virtual-8086 mode extensions */
#define X86_CR4_PVI     0x00000002      /* protected-mode virtual interrupts */
#define X86_CPUID_EDX_VME 0x00000002    /* CPUID 1: EDX bit 1, CR4.VME exists */
#define X86_CPUID_EDX_SSE 0x02000000    /* CPUID 1: EDX bit 25, SSE (MXCSR) */

#define X86_VECTOR_UD   6       /* invalid opcode */
#define X86_VECTOR_DF   8       /* double fault */
#define X86_VECTOR_NP   11      /* segment (or gate) not present */
#define X86_VECTOR_GP   13
#define X86_ERROR_IDT   0x02    /* error code: the selector is an IDT vector */
#define X86_OPCODE_INT  0xCD

#define X86_OPCODE_HLT  0xF4
#define X86_OPCODE_CLI  0xFA
#define X86_OPCODE_STI  0xFB
#define X86_OPCODE_RETF 0xCB

/* What a real-mode program may change with POPF/IRET and what two runs of the same
 * BIOS call must agree on: CF PF AF ZF SF DF OF. */
#define X86_EFLAGS_PROGRAM 0x0CD5

#endif
