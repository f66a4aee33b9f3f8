/* Constants for the platform's assembly (isr.asm, bios_irq.asm, frame.inc, and every
 * layer above that includes build/system-offsets.inc), generated from the C headers
 * so the two sides cannot drift. The Makefile compiles this file to assembly and
 * turns every "->NAME value" marker line into "NAME equ value". */
#include "descriptors.h"
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
}
