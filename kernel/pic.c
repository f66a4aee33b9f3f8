/* 8259 masking: see pic.h. Only the interrupt mask registers are touched; the PICs
 * keep the BIOS's programming, which real-mode calls rely on. */
#include "pic.h"
#include "io.h"

#define PIC_MASTER_IMR  0x21
#define PIC_SLAVE_IMR   0xA1

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
