/* VGA text console: writes characters at the cursor, scrolls, and moves the hardware
 * cursor so the last line stays visible on a machine that hangs in the BIOS. */
#include "vga.h"
#include "io.h"
#include "../lib/pc.h"

#include <stdint.h>

#define VGA_TEXT        ((volatile uint16_t *)0xB8000)
#define VGA_COLS        80
#define VGA_ROWS        25
#define VGA_ATTR        0x0700  /* light grey on black */
#define CRTC_CURSOR_HI  0x0E
#define CRTC_CURSOR_LO  0x0F

static int row, col;

static void move_cursor(void)
{
    uint16_t pos = (uint16_t)(row * VGA_COLS + col);
    outb(VGA_CRTC_INDEX, CRTC_CURSOR_HI);
    outb(VGA_CRTC_DATA, pos >> 8);
    outb(VGA_CRTC_INDEX, CRTC_CURSOR_LO);
    outb(VGA_CRTC_DATA, pos & 0xFF);
}

static void scroll(void)
{
    for (int i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
        VGA_TEXT[i] = VGA_TEXT[i + VGA_COLS];
    for (int i = 0; i < VGA_COLS; i++)
        VGA_TEXT[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
    row = VGA_ROWS - 1;
}

void vga_init(void)
{
    for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
        VGA_TEXT[i] = VGA_ATTR | ' ';
    row = col = 0;
    move_cursor();
}

void vga_putc(char c)
{
    if (c == '\n') {
        col = 0;
        row++;
    } else {
        VGA_TEXT[row * VGA_COLS + col] = VGA_ATTR | (uint8_t)c;
        if (++col == VGA_COLS) {
            col = 0;
            row++;
        }
    }
    if (row == VGA_ROWS)
        scroll();
    if (c == '\n')
        move_cursor();
}
