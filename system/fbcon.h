/* A text console drawn on a linear framebuffer, for UEFI machines (no VGA text
 * mode). Same interface as vga.h; 8x16 characters from system/font.h. */
#ifndef APMOFF_FBCON_H
#define APMOFF_FBCON_H

#include <stdbool.h>

#include "bootinfo.h"

bool fbcon_init(const struct framebuffer *fb);
void fbcon_putc(char c);
void fbcon_clear(void);

#endif
