/* The 8259 initialisation sequence (ICW1-ICW4 for both PICs), as data: no I/O here.
 * system/pic.c writes it byte by byte with an I/O delay after each, as Linux's
 * i8259.c does (outb_pic); the host unit tests check it. */
#ifndef APMOFF_PIC_INIT_H
#define APMOFF_PIC_INIT_H

#include <stdbool.h>
#include <stdint.h>

struct port_byte {
    uint16_t port;
    uint8_t value;
};

#define PIC_INIT_WRITES 8

/* The writes that give the master PIC vectors master_base.. and the slave
 * slave_base.., cascaded on IRQ 2, 8086 mode; level-triggered (ICW1's LTIM) on a
 * machine whose interrupts are level-triggered (Micro Channel), edge otherwise. */
void pic_init_sequence(uint8_t master_base, uint8_t slave_base, bool level,
                       struct port_byte out[PIC_INIT_WRITES]);

#endif
