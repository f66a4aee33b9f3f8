/* Framebuffer text console: see fbcon.h. Light grey on black like the VGA console;
 * scrolling moves the whole picture up one text line. */
#include "fbcon.h"
#include "font.h"

static struct framebuffer fb;
static bool active;
static unsigned cols, rows, col, row;
static bool wrapped;            /* the last character filled its row */
static uint32_t fg, bg;

static uint32_t colour(uint8_t r, uint8_t g, uint8_t b)
{
    return (uint32_t)(r >> (8 - fb.red_size)) << fb.red_pos |
           (uint32_t)(g >> (8 - fb.green_size)) << fb.green_pos |
           (uint32_t)(b >> (8 - fb.blue_size)) << fb.blue_pos;
}

static void put_pixel(uint8_t *line, unsigned x, uint32_t c)
{
    switch (fb.bpp) {
    case 32:
        ((uint32_t *)line)[x] = c;
        break;
    case 24:
        line[x * 3] = (uint8_t)c;
        line[x * 3 + 1] = (uint8_t)(c >> 8);
        line[x * 3 + 2] = (uint8_t)(c >> 16);
        break;
    default:
        ((uint16_t *)line)[x] = (uint16_t)c;
        break;
    }
}

static uint8_t *line_at(unsigned y)
{
    return (uint8_t *)(uintptr_t)fb.addr + y * fb.pitch;
}

static void draw_char(unsigned cx, unsigned cy, char ch)
{
    unsigned c = (unsigned char)ch;
    const uint8_t *glyph = font8x16[(c >= FONT_FIRST && c <= FONT_LAST ? c : '?') - FONT_FIRST];
    for (unsigned y = 0; y < FONT_H; y++) {
        uint8_t *line = line_at(cy * FONT_H + y);
        for (unsigned x = 0; x < FONT_W; x++)
            put_pixel(line, cx * FONT_W + x, glyph[y] & (0x80 >> x) ? fg : bg);
    }
}

static void clear_rows(unsigned from, unsigned to)
{
    for (unsigned y = from * FONT_H; y < to * FONT_H; y++)
        for (unsigned x = 0; x < fb.width; x++)
            put_pixel(line_at(y), x, bg);
}

bool fbcon_init(const struct framebuffer *f)
{
    fb = *f;
    if (!fb.red_size || fb.red_size > 8 || fb.green_size > 8 || fb.blue_size > 8)
        return false;
    cols = fb.width / FONT_W;
    rows = fb.height / FONT_H;
    if (!cols || !rows)
        return false;
    fg = colour(0xAA, 0xAA, 0xAA);
    bg = colour(0, 0, 0);
    clear_rows(0, rows);
    col = row = 0;
    wrapped = false;
    active = true;
    return true;
}

void fbcon_clear(void)
{
    if (!active)
        return;
    clear_rows(0, rows);
    col = row = 0;
    wrapped = false;
}

void fbcon_putc(char c)
{
    if (!active)
        return;
    if (c == '\n') {
        if (!wrapped) {         /* as vga_putc: a full row has moved on already */
            col = 0;
            row++;
        }
        wrapped = false;
    } else {
        draw_char(col, row, c);
        wrapped = ++col == cols;
        if (wrapped) {
            col = 0;
            row++;
        }
    }
    if (row == rows) {
        /* Framebuffer memory is slow to touch a byte at a time: move dwords. */
        uint32_t dwords = fb.pitch * (rows - 1) * FONT_H / 4;
        void *dst = line_at(0), *src = line_at(FONT_H);
        __asm__ volatile("cld; rep movsl" : "+D"(dst), "+S"(src), "+c"(dwords) : : "memory");
        clear_rows(rows - 1, rows);
        row = rows - 1;
    }
}
