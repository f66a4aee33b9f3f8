/* The 8x16 font for framebuffer consoles (UEFI has no text mode), printable ASCII
 * only; generated at build time by scripts/mkfont.py into build/font8x16.c. Each
 * glyph is 16 rows, one byte a row, bit 7 the leftmost pixel. */
#ifndef APMOFF_FONT_H
#define APMOFF_FONT_H

#include <stdint.h>

#define FONT_FIRST  0x20
#define FONT_LAST   0x7E
#define FONT_W      8
#define FONT_H      16

extern const uint8_t font8x16[FONT_LAST - FONT_FIRST + 1][16];

#endif
