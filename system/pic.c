/* 8259 masking: see pic.h. Only the interrupt mask registers are touched; the PICs
 * keep the BIOS's programming, which real-mode calls rely on. */
#include "pic.h"
#include "io.h"
#include "../lib/pic_init.h"

#define PIC_MASTER_IMR  PIC_MASTER_DATA
#define PIC_SLAVE_IMR   PIC_SLAVE_DATA

void pic_mask_all(struct pic_masks *saved)
{
    saved->master = inb(PIC_MASTER_IMR);
    saved->slave = inb(PIC_SLAVE_IMR);
    outb(PIC_MASTER_IMR, 0xFF);
    outb(PIC_SLAVE_IMR, 0xFF);
}

void pic_restore(const struct pic_masks *saved)
{
    outb(PIC_SLAVE_IMR, saved->slave);
    outb(PIC_MASTER_IMR, saved->master);
}

void pic_unmask_timer(void)
{
    outb(PIC_MASTER_IMR, 0xFE);
}

static bool level_triggered;

void pic_set_level_triggered(bool level)
{
    level_triggered = level;
}

/* ICW1-ICW4 as the BIOS programs them, with new vector bases (lib/pic_init.c), and
 * an I/O delay after every byte: an 8259A needs time between accesses, which Linux
 * gives it (outb_pic) and a fast CPU does not. ICW1 clears the masks and the
 * in-service bits: the caller sets the masks afterwards. */
void pic_set_bases(uint8_t master_base, uint8_t slave_base)
{
    struct port_byte writes[PIC_INIT_WRITES];

    pic_init_sequence(master_base, slave_base, level_triggered, writes);
    for (unsigned i = 0; i < PIC_INIT_WRITES; i++) {
        outb(writes[i].port, writes[i].value);
        io_delay();
    }
}

void pic_set_masks(const struct pic_masks *m)
{
    pic_restore(m);
}

void pic_eoi(unsigned irq)
{
    if (irq >= 8) {
        outb(PIC_SLAVE_CMD, (uint8_t)(PIC_OCW2_SPECIFIC_EOI | (irq - 8)));
        irq = PIC_CASCADE_IRQ;
    }
    outb(PIC_MASTER_CMD, (uint8_t)(PIC_OCW2_SPECIFIC_EOI | irq));
}

bool pic_in_service(unsigned irq)
{
    uint16_t port = irq >= 8 ? PIC_SLAVE_CMD : PIC_MASTER_CMD;
    outb(port, PIC_OCW3_READ_ISR);
    bool in_service = inb(port) & (1u << (irq & 7));
    outb(port, PIC_OCW3_READ_IRR);      /* back to the IRR, as Linux leaves it */
    return in_service;
}

void pic_mask_irq(unsigned irq, bool masked)
{
    uint16_t port = irq >= 8 ? PIC_SLAVE_IMR : PIC_MASTER_IMR;
    uint8_t bit = (uint8_t)(1u << (irq & 7));
    uint8_t m = inb(port);
    outb(port, masked ? m | bit : m & (uint8_t)~bit);
}
