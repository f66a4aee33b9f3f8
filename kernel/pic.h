/* The two 8259 interrupt controllers, only to mask every IRQ around protected-mode
 * BIOS calls: the BIOS may enable interrupts there, and with the PICs still at the
 * BIOS's vectors (08h-0Fh, 70h-77h) an IRQ would land on our exception gates. */
#ifndef APMOFF_PIC_H
#define APMOFF_PIC_H

#include <stdint.h>

struct pic_masks {
    uint8_t master, slave;
};

void pic_mask_all(struct pic_masks *saved);
void pic_restore(const struct pic_masks *saved);
/* With every IRQ masked: lets IRQ 0 (the timer) alone through. */
void pic_unmask_timer(void);

#endif
