/* The survey screen: see surveyscreen.h.
 *
 * Mode 12h (640x480, 16 colours) is set by the BIOS, so it works on any VGA; its
 * memory is four planes at A0000h, and with the BIOS's default write mode (all planes
 * enabled, bit mask FFh) a byte written sets 8 pixels to colour 15 or 0 at once. The
 * line is shown as numbered symbols of at most version 22 (survey/qrpages.h), so every
 * module is at least 4 pixels with a 4-module quiet zone: what a phone needs to read a
 * CRT. One fixed mask instead of the eight-mask search: the search multiplies the
 * encoding time by eight, seconds on a 386, for a score no reader needs. */
#include "surveyscreen.h"
#include "../system/console.h"
#include "../system/font.h"
#include "../lib/format.h"
#include "../system/keyboard.h"
#include "options.h"
#include "../lib/string.h"
#include "../system/timer.h"
#include "../system/vga.h"
#include "../survey/qr.h"
#include "../survey/qrpages.h"
#include "../realmode/video.h"
#include "../lib/pc.h"

#define SCREEN_W                640
#define SCREEN_H                480
#define ROW_BYTES               (SCREEN_W / 8)
#define VGA_GRAPHICS            ((volatile uint8_t *)0xA0000)
#define QUIET_ZONE              4
#define CAPTION_ROWS            16      /* one line of BIOS text at the top */
#define POLL_US                 10000
#define FIXED_MASK              0
#define PAGE_TEXT_MAX           1024    /* above qr_capacity(22, M) */

static uint8_t modules[QR_BUFFER_LEN];
static uint8_t work[QR_BUFFER_LEN];

/* The caption line, drawn from the console font straight into the planes: a glyph
 * row is one byte of eight pixels, as mode 12h lays them out (the BIOS's teletype
 * would cost a mode switch a character). */
static void caption(const char *text)
{
    int len = (int)strlen(text);
    for (int y = 0; y < CAPTION_ROWS; y++)
        for (int col = 0; col < ROW_BYTES; col++) {
            unsigned c = col < len ? (unsigned char)text[col] : ' ';
            if (c < FONT_FIRST || c > FONT_LAST)
                c = ' ';
            VGA_GRAPHICS[y * ROW_BYTES + col] = font8x16[c - FONT_FIRST][y];
        }
}

static void fill_rows(int y0, int y1, uint8_t value)
{
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < ROW_BYTES; x++)
            VGA_GRAPHICS[y * ROW_BYTES + x] = value;
}

static void set_pixel_span(uint8_t *row, int x0, int x1)
{
    for (int x = x0; x < x1; x++)
        row[x >> 3] &= (uint8_t)~(0x80 >> (x & 7));   /* dark module: colour 0 */
}

/* Draws the symbol as large as it fits; returns the pixels a module. */
static int draw(int size)
{
    int total = size + 2 * QUIET_ZONE;
    int scale = (SCREEN_H - CAPTION_ROWS) / total;
    int left = (SCREEN_W - total * scale) / 2;
    int top = CAPTION_ROWS + (SCREEN_H - CAPTION_ROWS - total * scale) / 2;
    uint8_t row[ROW_BYTES];

    /* Light around the symbol; its own rows (quiet zone included) are written once. */
    fill_rows(CAPTION_ROWS, top + QUIET_ZONE * scale, 0xFF);
    fill_rows(top + (QUIET_ZONE + size) * scale, SCREEN_H, 0xFF);
    for (int my = 0; my < size; my++) {
        memset(row, 0xFF, sizeof(row));
        for (int mx = 0; mx < size; mx++)
            if (qr_get_module(modules, size, mx, my))
                set_pixel_span(row, left + (QUIET_ZONE + mx) * scale,
                               left + (QUIET_ZONE + mx + 1) * scale);
        int y = top + (QUIET_ZONE + my) * scale;
        for (int dy = 0; dy < scale; dy++)
            memcpy((void *)(uintptr_t)(VGA_GRAPHICS + (y + dy) * ROW_BYTES), row,
                   sizeof(row));
    }
    return scale;
}

static void wait_for(int wait)
{
    input_flush();
    if (wait == WAIT_KEY) {
        say("survey screen: waiting for a key (keyboard or serial)");
        while (!input_poll())
            pit_delay_us(POLL_US);
        return;
    }
    say("survey screen: showing for %d s (or until a key)", wait);
    for (long ticks = (long)wait * (1000000 / POLL_US); ticks > 0; ticks--) {
        if (input_poll())
            return;
        pit_delay_us(POLL_US);
    }
}

void survey_screen_show(const char *json, int wait)
{
    static char text[PAGE_TEXT_MAX];
    char line[80];
    struct qr_pages pages;
    size_t len = strlen(json);

    if (wait == 0) {
        say("survey screen: skipped (wait=0)");
        return;
    }
    if (!qr_pages_plan(json, len, &pages)) {
        say("survey screen: the survey line (%u bytes) needs more than %u QR codes",
            (unsigned)len, QRPAGES_MAX);
        return;
    }
    uint32_t start = 0, drawn;
    bool timed = timer_elapsed_us(&start);
    if (!bios_set_video_mode(VIDEO_MODE_640X480X16)) {
        say("survey screen: the BIOS could not set VGA mode 12h");
        return;
    }
    for (unsigned i = 0; i < pages.count; i++) {
        size_t n = qr_page_text(json, len, &pages, i, text, sizeof(text));
        int size = qr_encode_ex((const uint8_t *)text, n, QRPAGES_ECC, QR_VERSION_MIN,
                                FIXED_MASK, modules, work);
        fmt_snprintf(line, sizeof(line), "apmoff survey %u/%u: scan this QR code, then "
                     "press a key", i + 1, pages.count);
        caption(line);
        int scale = draw(size);
        if (i == 0 && timed && timer_elapsed_us(&drawn))
            say("survey screen: the first QR code took %u ms to encode and draw",
                (unsigned)((drawn - start) / 1000));
        say("survey screen: QR code %u/%u of %u bytes, %dx%d modules of %d px, on screen",
            i + 1, pages.count, (unsigned)n, size, size, scale);
        /* Bochs' magic breakpoint (a no-op everywhere else): lets a test stop Bochs
         * here and dump the screen's memory, as QMP screendump does for QEMU. */
        __asm__ volatile("xchgw %bx, %bx");
        wait_for(wait);
    }
    bios_set_video_mode(VIDEO_MODE_TEXT_80X25);
    vga_init();
    say("survey screen: closed, back to text mode");
}
