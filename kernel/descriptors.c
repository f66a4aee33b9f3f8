/* GDT and IDT setup. See descriptors.h for the selector layout.
 *
 * GRUB's GDT is not ours to keep (the multiboot specifications say the loader's
 * segments may be gone), so this runs first, before any other code relies on the
 * segment registers. Exceptions 0-31 go to the stubs in isr.asm; vectors above 31 are
 * left not present, so a stray interrupt becomes a #NP that is reported. */
#include "descriptors.h"

#include <stddef.h>

struct gdt_entry {
    uint16_t limit_lo;
    uint16_t base_lo;
    uint8_t base_mid;
    uint8_t access;
    uint8_t limit_hi_flags;     /* limit 19:16 in the low nibble, G/D/L/AVL above */
    uint8_t base_hi;
} __attribute__((packed));

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

_Static_assert(sizeof(struct gdt_entry) == 8, "GDT entry is 8 bytes");
_Static_assert(sizeof(struct idt_gate) == 8, "IDT gate is 8 bytes");

#define ACCESS_PRESENT  0x80
#define ACCESS_SEGMENT  0x10    /* code/data rather than system */
#define ACCESS_CODE_RX  0x0A    /* execute/read */
#define ACCESS_DATA_RW  0x02    /* read/write */
#define ACCESS_TSS32    0x09    /* available 32-bit TSS */
#define FLAG_GRAN_4K    0x80
#define FLAG_32BIT      0x40

#define GATE_INTR32     0x8E    /* present, DPL 0, 32-bit interrupt gate */
#define EXCEPTIONS      32
#define IDT_ENTRIES     256

static struct gdt_entry gdt[GDT_ENTRIES] __attribute__((aligned(8)));
static struct idt_gate idt[IDT_ENTRIES] __attribute__((aligned(8)));

extern void (*const isr_stubs[EXCEPTIONS])(void);
void load_gdt_and_segments(const struct table_register *gdtr);     /* isr.asm */

void gdt_set(enum gdt_selector sel, uint32_t base, uint32_t limit, enum seg_kind kind)
{
    static const uint8_t access[] = {
        [SEG_CODE32] = ACCESS_PRESENT | ACCESS_SEGMENT | ACCESS_CODE_RX,
        [SEG_DATA32] = ACCESS_PRESENT | ACCESS_SEGMENT | ACCESS_DATA_RW,
        [SEG_CODE16] = ACCESS_PRESENT | ACCESS_SEGMENT | ACCESS_CODE_RX,
        [SEG_DATA16] = ACCESS_PRESENT | ACCESS_SEGMENT | ACCESS_DATA_RW,
        [SEG_TSS32]  = ACCESS_PRESENT | ACCESS_TSS32,
    };
    uint8_t flags = (kind == SEG_CODE32 || kind == SEG_DATA32) ? FLAG_32BIT : 0;
    struct gdt_entry *e = &gdt[sel >> 3];

    if (limit > 0xFFFFF) {      /* only byte-granular limits fit in 20 bits */
        limit >>= 12;
        flags |= FLAG_GRAN_4K;
    }
    e->limit_lo = limit & 0xFFFF;
    e->limit_hi_flags = (uint8_t)(((limit >> 16) & 0x0F) | flags);
    e->base_lo = base & 0xFFFF;
    e->base_mid = (base >> 16) & 0xFF;
    e->base_hi = (uint8_t)(base >> 24);
    e->access = access[kind];
}

uint32_t gdt_base_of(uint16_t selector)
{
    const struct gdt_entry *e = &gdt[(selector >> 3) % GDT_ENTRIES];
    return e->base_lo | (uint32_t)e->base_mid << 16 | (uint32_t)e->base_hi << 24;
}

int gdt_is_16bit(uint16_t selector)
{
    return !(gdt[(selector >> 3) % GDT_ENTRIES].limit_hi_flags & FLAG_32BIT);
}

void descriptors_init(void)
{
    static struct table_register gdtr, idtr;

    gdt_set(SEL_CODE32, 0, 0xFFFFFFFF, SEG_CODE32);
    gdt_set(SEL_DATA32, 0, 0xFFFFFFFF, SEG_DATA32);
    gdt_set(SEL_BIOS_DATA, 0x400, 0xFFFF, SEG_DATA16);
    gdtr.limit = sizeof(gdt) - 1;
    gdtr.base = (uint32_t)(uintptr_t)gdt;
    load_gdt_and_segments(&gdtr);

    for (int v = 0; v < EXCEPTIONS; v++) {
        uint32_t addr = (uint32_t)(uintptr_t)isr_stubs[v];
        idt[v].offset_lo = addr & 0xFFFF;
        idt[v].offset_hi = addr >> 16;
        idt[v].selector = SEL_CODE32;
        idt[v].type = GATE_INTR32;
    }
    idtr.limit = sizeof(idt) - 1;
    idtr.base = (uint32_t)(uintptr_t)idt;
    __asm__ volatile("lidt %0" : : "m"(idtr));
}

void load_task_register(void)
{
    __asm__ volatile("ltr %w0" : : "r"((uint16_t)SEL_TSS));
}
