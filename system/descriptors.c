/* GDT and IDT setup. See descriptors.h for the selector layout.
 *
 * GRUB's GDT is not ours to keep (the multiboot specifications say the loader's
 * segments may be gone), so this runs first, before any other code relies on the
 * segment registers. Exceptions 0-31 go to the stubs in isr.asm; vectors above 31 are
 * left not present, so a stray interrupt becomes a #NP that is reported. */
#include "descriptors.h"
#include "../lib/pc.h"

#include <stddef.h>

struct idt_gate {
    uint16_t offset_lo;
    uint16_t selector;
    uint8_t zero;
    uint8_t type;
    uint16_t offset_hi;
} __attribute__((packed));

struct table_register {
    uint16_t limit;
    uint32_t base;
} __attribute__((packed));

_Static_assert(sizeof(struct idt_gate) == 8, "IDT gate is 8 bytes");

#define GATE_INTR32     0x8E    /* present, DPL 0, 32-bit interrupt gate */
#define EXCEPTIONS      32
#define IDT_ENTRIES     256

static struct seg_desc gdt[GDT_ENTRIES] __attribute__((aligned(16)));   /* Intel: 16 */
static struct idt_gate idt[IDT_ENTRIES] __attribute__((aligned(8)));

extern void (*const isr_stubs[EXCEPTIONS])(void);
void load_gdt_and_segments(const struct table_register *gdtr);     /* isr.asm */
extern void (*const bios_irq_stubs[16])(void);                      /* bios_irq.asm */

static void set_gate(int v, void (*handler)(void))
{
    uint32_t addr = (uint32_t)(uintptr_t)handler;
    idt[v].offset_lo = addr & 0xFFFF;
    idt[v].offset_hi = addr >> 16;
    idt[v].selector = SEL_CODE32;
    idt[v].type = GATE_INTR32;
}

void idt_route_bios_irqs(int to_irq_handlers)
{
    for (int irq = 0; irq < 8; irq++) {
        int v = PIC_BIOS_MASTER_BASE + irq;
        set_gate(v, to_irq_handlers ? bios_irq_stubs[irq] : isr_stubs[v]);
    }
    for (int irq = 8; irq < 16; irq++) {
        int v = PIC_BIOS_SLAVE_BASE + irq - 8;
        if (to_irq_handlers)
            set_gate(v, bios_irq_stubs[irq]);
        else
            idt[v] = (struct idt_gate){ 0 };    /* not present again: a stray one is #NP */
    }
}

void idt_set_gate(int vector, void (*handler)(void))
{
    set_gate(vector, handler);
}

void gdt_set(enum gdt_selector sel, uint32_t base, uint32_t limit, enum seg_kind kind)
{
    gdt[sel >> 3] = seg_desc_make(base, limit, kind);
}

uint32_t gdt_base_of(uint16_t selector)
{
    return seg_desc_base(&gdt[(selector >> 3) % GDT_ENTRIES]);
}

int gdt_is_16bit(uint16_t selector)
{
    return !seg_desc_is_32bit(&gdt[(selector >> 3) % GDT_ENTRIES]);
}

void descriptors_init(void)
{
    static struct table_register gdtr, idtr;

    gdt_set(SEL_CODE32, 0, 0xFFFFFFFF, SEG_CODE32);
    gdt_set(SEL_DATA32, 0, 0xFFFFFFFF, SEG_DATA32);
    gdt_set(SEL_BIOS_DATA, BDA_BASE, 0xFFFF, SEG_DATA16);
    gdtr.limit = sizeof(gdt) - 1;
    gdtr.base = (uint32_t)(uintptr_t)gdt;
    load_gdt_and_segments(&gdtr);

    for (int v = 0; v < EXCEPTIONS; v++)
        set_gate(v, isr_stubs[v]);
    idtr.limit = sizeof(idt) - 1;
    idtr.base = (uint32_t)(uintptr_t)idt;
    __asm__ volatile("lidt %0" : : "m"(idtr));
}

void load_task_register(void)
{
    __asm__ volatile("ltr %w0" : : "r"((uint16_t)SEL_TSS));
}
