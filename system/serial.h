/* COM1, the BIOS's first serial port, at 115200 baud 8N1: any PC UART, from the 8250
 * of a 1993 ISA board to a 16550A or an emulator's. */
#ifndef APMOFF_SERIAL_H
#define APMOFF_SERIAL_H

#include <stdbool.h>

void serial_init(void);
void serial_putc(char c);
/* Waits (bounded) until every byte written has left the UART: a line is on the wire
 * before whatever comes next (a power-off call) can cut it short. */
void serial_flush(void);
bool serial_getc(char *c);      /* non-blocking: false when no byte is waiting */
/* What answered at COM1: "8250", "16450", "16550" (FIFO unusable), "16550A", or
 * 0 when nothing did (then serial output is off). */
const char *serial_kind(void);
/* COM1's base (3F8h, or where the BIOS put its first serial port), 0 when none. */
unsigned serial_base(void);

#endif
