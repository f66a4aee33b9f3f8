/* COM1, a 16550-compatible UART, at 115200 baud 8N1. */
#ifndef APMOFF_SERIAL_H
#define APMOFF_SERIAL_H

#include <stdbool.h>

void serial_init(void);
void serial_putc(char c);
bool serial_getc(char *c);      /* non-blocking: false when no byte is waiting */

#endif
