/* The text console: writes characters at the cursor, scrolls, and moves the hardware
 * cursor so the last line stays visible on a machine that hangs in the BIOS.
 *
 * A monochrome adapter (MDA, Hercules) keeps its text at B0000h and its CRT
 * controller at 3B4h, a colour one (CGA, EGA, VGA) at B8000h and 3D4h; the BIOS
 * records which in the BDA (40:63h). Writing to B8000h on an MDA shows nothing at
 * all (seen in 86Box: a 386 with an IBM MDA showed GRUB's lines and no more). */
#include "vga.h"
#include "io.h"
#include "../lib/bda.h"
#include "../lib/pc.h"

#include <stdbool.h>
#include <stdint.h>

#define VGA_COLS        80
#define VGA_ROWS        25
#define VGA_ATTR        0x0700  /* light grey on black */
#define CRTC_CURSOR_HI  0x0E
#define CRTC_CURSOR_LO  0x0F

static int row, col;
static bool wrapped;            /* the last character filled its row */
static volatile uint16_t *text = (volatile uint16_t *)TEXT_COLOUR_BASE;
static uint16_t crtc = CRTC_COLOUR_INDEX;

static void find_adapter(void)
{
    bool mono = (uint16_t)peek32(BDA_CRTC_PORT) == CRTC_MONO_INDEX;
    text = (volatile uint16_t *)(mono ? TEXT_MONO_BASE : TEXT_COLOUR_BASE);
    crtc = mono ? CRTC_MONO_INDEX : CRTC_COLOUR_INDEX;
}

static void move_cursor(void)
{
    uint16_t pos = (uint16_t)(row * VGA_COLS + col);
    outb(crtc, CRTC_CURSOR_HI);
    outb(crtc + 1, pos >> 8);
    outb(crtc, CRTC_CURSOR_LO);
    outb(crtc + 1, pos & 0xFF);
}

static void scroll(void)
{
    for (int i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
        text[i] = text[i + VGA_COLS];
    for (int i = 0; i < VGA_COLS; i++)
        text[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
    row = VGA_ROWS - 1;
}

void vga_init(void)
{
    find_adapter();
    for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
        text[i] = VGA_ATTR | ' ';
    row = col = 0;
    wrapped = false;
    move_cursor();
}

void vga_putc(char c)
{
    if (c == '\n') {
        /* a line of exactly 80 characters has moved to the next row already: a
           second step would leave a blank row (and cost a scroll) */
        if (!wrapped) {
            col = 0;
            row++;
        }
        wrapped = false;
    } else {
        text[row * VGA_COLS + col] = VGA_ATTR | (uint8_t)c;
        wrapped = ++col == VGA_COLS;
        if (wrapped) {
            col = 0;
            row++;
        }
    }
    if (row == VGA_ROWS)
        scroll();
    if (c == '\n')
        move_cursor();
}
