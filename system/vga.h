/* VGA text mode, 80x25 at 0xB8000, as the BIOS leaves it. */
#ifndef APMOFF_VGA_H
#define APMOFF_VGA_H

#include <stdbool.h>
#include <stdint.h>

void vga_init(void);
void vga_putc(char c);

#endif
