/* The two 8259 interrupt controllers: masking every IRQ around protected-mode BIOS
 * calls (the BIOS may enable interrupts there, and with the PICs still at the BIOS's
 * vectors, 08h-0Fh and 70h-77h, an IRQ would land on our exception gates), and moving
 * the vectors clear of the exceptions for the length of a v86 call. */
#ifndef APMOFF_PIC_H
#define APMOFF_PIC_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/pc.h"

struct pic_masks {
    uint8_t master, slave;
};

void pic_mask_all(struct pic_masks *saved);
void pic_restore(const struct pic_masks *saved);
/* With every IRQ masked: lets IRQ 0 (the timer) alone through. */
void pic_unmask_timer(void);

/* Level-triggered ICW1 (a Micro Channel machine) for pic_set_bases() from now on. */
void pic_set_level_triggered(bool level);
/* Reprograms both PICs with these vector bases (masks and in-service bits cleared). */
void pic_set_bases(uint8_t master_base, uint8_t slave_base);
void pic_set_masks(const struct pic_masks *m);
/* Specific EOI for one IRQ (and the cascade for 8-15). */
void pic_eoi(unsigned irq);
bool pic_in_service(unsigned irq);
void pic_mask_irq(unsigned irq, bool masked);

#endif
