/* The text console, 80x25 as the BIOS leaves it: at B8000h, or B0000h on a
 * monochrome adapter. */
#ifndef APMOFF_VGA_H
#define APMOFF_VGA_H

#include <stdbool.h>
#include <stdint.h>

void vga_init(void);
void vga_putc(char c);

#endif
