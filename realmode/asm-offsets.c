/* Constants for the real-mode assembly (the trampoline, the mode switch, the v86
 * entry and stubs, the APM far calls), generated from the C headers so the two sides
 * cannot drift: build/realmode-offsets.inc. Any struct the assembly touches must be
 * listed here; the selectors come from build/system-offsets.inc. */
#include <stddef.h>

#include "../lib/biosregs.h"
#include "trampoline.h"
#include "v86.h"
#include "../lib/bda.h"
#include "../lib/pc.h"
#include "../lib/x86.h"

#define DEFINE(sym, val) __asm__ volatile("\n->" #sym " %c0" : : "i"(val))
#define OFFSET(sym, type, member) DEFINE(sym, offsetof(type, member))

void realmode_asm_constants(void);
void realmode_asm_constants(void)
{
    DEFINE(X86_CR0_PE, X86_CR0_PE);
    DEFINE(KBC_DATA, KBC_DATA);
    DEFINE(KBC_CTRL, KBC_CTRL);
    DEFINE(KBC_STATUS_OUT_FULL, KBC_STATUS_OUT_FULL);
    DEFINE(KBC_STATUS_IN_FULL, KBC_STATUS_IN_FULL);
    DEFINE(KBC_CMD_WRITE_OUTPUT, KBC_CMD_WRITE_OUTPUT);
    DEFINE(KBC_OUTPUT_A20, KBC_OUTPUT_A20);
    DEFINE(KBC_CMD_NULL, KBC_CMD_NULL);
    DEFINE(PORT_A, PORT_A);
    DEFINE(PORT_A_A20, PORT_A_A20);
    DEFINE(PORT_A_RESET, PORT_A_RESET);
    DEFINE(CMOS_INDEX, CMOS_INDEX);
    DEFINE(CMOS_PARK, CMOS_PARK);
    DEFINE(CMOS_NMI_MASK, CMOS_NMI_MASK);
    DEFINE(BIOS_INT_SYSTEM, BIOS_INT_SYSTEM);
    DEFINE(BIOS_INT_VIDEO, BIOS_INT_VIDEO);
    DEFINE(PORT_POST, PORT_POST);
    DEFINE(IVT_LIMIT, IVT_LIMIT);

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

    OFFSET(V86C_EAX, struct v86_context, eax);
    OFFSET(V86C_EBX, struct v86_context, ebx);
    OFFSET(V86C_ECX, struct v86_context, ecx);
    OFFSET(V86C_EDX, struct v86_context, edx);
    OFFSET(V86C_ESI, struct v86_context, esi);
    OFFSET(V86C_EDI, struct v86_context, edi);
    OFFSET(V86C_EBP, struct v86_context, ebp);
    OFFSET(V86C_EIP, struct v86_context, eip);
    OFFSET(V86C_CS, struct v86_context, cs);
    OFFSET(V86C_EFLAGS, struct v86_context, eflags);
    OFFSET(V86C_ESP, struct v86_context, esp);
    OFFSET(V86C_SS, struct v86_context, ss);
    OFFSET(V86C_ES, struct v86_context, es);
    OFFSET(V86C_DS, struct v86_context, ds);
    OFFSET(V86C_FS, struct v86_context, fs);
    OFFSET(V86C_GS, struct v86_context, gs);
}
