/* Our GDT and IDT.
 *
 * The GDT is laid out once, entry by entry, and some entries are rewritten at run
 * time (the trampoline's 16-bit segments once it is placed, the APM segments when a
 * protected-mode interface connects). Selectors are fixed; the assembly files get them
 * from build/asm-offsets.inc, generated from this header (realmode/asm-offsets.c). */
#ifndef APMOFF_DESCRIPTORS_H
#define APMOFF_DESCRIPTORS_H

#include <stdint.h>

#include "segdesc.h"

enum gdt_selector {
    SEL_NULL        = 0x00,
    SEL_CODE32      = 0x08,     /* kernel code, flat 4 GiB */
    SEL_DATA32      = 0x10,     /* kernel data and stack, flat 4 GiB */
    SEL_TRAMP_CODE16 = 0x18,    /* 16-bit code based at the trampoline, 64 KiB */
    SEL_TRAMP_DATA16 = 0x20,    /* 16-bit data based at the trampoline, 64 KiB */
    SEL_TSS         = 0x28,     /* the v86 monitor's task state segment */
    SEL_BIOS_DATA   = 0x40,     /* 0x400: BIOSes that load selector 40h mean the BDA */
    SEL_APM_CODE32  = 0x48,     /* APM 32-bit interface: code32, code16, data in this order */
    SEL_APM_CODE16  = 0x50,     /* (the 16-bit interface uses only code16 and data) */
    SEL_APM_DATA    = 0x58,
    GDT_ENTRIES     = 12,
};

#include "../lib/bda.h"         /* BDA_BASE: what selector 40h must map */

void descriptors_init(void);
void gdt_set(enum gdt_selector sel, uint32_t base, uint32_t limit, enum seg_kind kind);
uint32_t gdt_base_of(uint16_t selector);
int gdt_is_16bit(uint16_t selector);

/* Gates 08h-0Fh and 70h-77h, the BIOS's IRQ vectors: for the length of a protected-
 * mode BIOS call, handlers that tell an IRQ from an exception by the PIC's in-service
 * register (bios_irq.asm); otherwise the exception stubs and not-present gates. */
void idt_route_bios_irqs(int to_irq_handlers);

/* A 32-bit interrupt gate at a vector above the exceptions (the v86 monitor's IRQs). */
void idt_set_gate(int vector, void (*handler)(void));

/* Loads TR with SEL_TSS (the descriptor must be set first). */
void load_task_register(void);

#endif
