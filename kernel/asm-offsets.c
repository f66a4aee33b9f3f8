/* Constants for the assembly files, generated from the C headers so the two sides
 * cannot drift. The Makefile compiles this file to assembly and turns every
 * "->NAME value" marker line into "NAME equ value" in build/asm-offsets.inc.
 * Any struct or selector the assembly touches must be listed here. */
#include <stddef.h>

#include "../kernel/descriptors.h"
#include "../realmode/biosregs.h"
#include "../realmode/trampoline.h"

#define DEFINE(sym, val) __asm__ volatile("\n->" #sym " %c0" : : "i"(val))
#define OFFSET(sym, type, member) DEFINE(sym, offsetof(type, member))

void asm_offsets(void);
void asm_offsets(void)
{
    DEFINE(SEL_CODE32, SEL_CODE32);
    DEFINE(SEL_DATA32, SEL_DATA32);
    DEFINE(SEL_TRAMP_CODE16, SEL_TRAMP_CODE16);
    DEFINE(SEL_TRAMP_DATA16, SEL_TRAMP_DATA16);
    DEFINE(SEL_APM_CODE32, SEL_APM_CODE32);
    DEFINE(SEL_APM_CODE16, SEL_APM_CODE16);

    DEFINE(BIOSREGS_SIZE, sizeof(struct biosregs));
    OFFSET(BR_EDI, struct biosregs, edi);
    OFFSET(BR_ESI, struct biosregs, esi);
    OFFSET(BR_EBP, struct biosregs, ebp);
    OFFSET(BR_EBX, struct biosregs, ebx);
    OFFSET(BR_EDX, struct biosregs, edx);
    OFFSET(BR_ECX, struct biosregs, ecx);
    OFFSET(BR_EAX, struct biosregs, eax);
    OFFSET(BR_GS, struct biosregs, gs);
    OFFSET(BR_FS, struct biosregs, fs);
    OFFSET(BR_ES, struct biosregs, es);
    OFFSET(BR_DS, struct biosregs, ds);
    OFFSET(BR_EFLAGS, struct biosregs, eflags);

    DEFINE(TH_SIZE, sizeof(struct tramp_header));
    OFFSET(TH_KERNEL_RETURN, struct tramp_header, kernel_return);
    OFFSET(TH_RM_SEGMENT, struct tramp_header, rm_segment);
    OFFSET(TH_GDTR, struct tramp_header, gdtr_limit);
    OFFSET(TH_RM_IDTR, struct tramp_header, rm_idtr_limit);
    OFFSET(TH_MODE, struct tramp_header, mode);
    OFFSET(TH_TARGET, struct tramp_header, target_off);
    OFFSET(TH_REGS_OFF, struct tramp_header, regs_off);
    OFFSET(TH_REGS_END, struct tramp_header, regs_end);
    OFFSET(TH_A20_STATUS, struct tramp_header, a20_status);
    DEFINE(TRAMP_MODE_FARCALL16, TRAMP_MODE_FARCALL16);
    DEFINE(TRAMP_A20_WAS_OFF, TRAMP_A20_WAS_OFF);
}
