/* The survey screen: see surveyscreen.h.
 *
 * Mode 12h (640x480, 16 colours) is set by the BIOS, so it works on any VGA; its
 * memory is four planes at A0000h, and with the BIOS's default write mode (all planes
 * enabled, bit mask FFh) a byte written sets 8 pixels to colour 15 or 0 at once. A QR
 * code of up to version 40 (177 modules) plus its 4-module quiet zone fits 480 lines at
 * 2 pixels a module; smaller codes get bigger modules, which cameras like. */
#include "surveyscreen.h"
#include "console.h"
#include "keyboard.h"
#include "options.h"
#include "string.h"
#include "timer.h"
#include "vga.h"
#include "../realmode/bios.h"
#include "../survey/qr.h"

#define VGA_MODE_640X480X16     0x12
#define VGA_MODE_TEXT_80X25     0x03
#define SCREEN_W                640
#define SCREEN_H                480
#define ROW_BYTES               (SCREEN_W / 8)
#define VGA_GRAPHICS            ((volatile uint8_t *)0xA0000)
#define QUIET_ZONE              4
#define CAPTION_ROWS            16      /* one line of BIOS text at the top */
#define POLL_US                 10000

static uint8_t modules[QR_BUFFER_LEN];
static uint8_t work[QR_BUFFER_LEN];

static bool set_mode(uint8_t mode)
{
    struct biosregs r;
    const char *why;
    initregs(&r);
    r.ax = mode;                        /* INT 10h AH=00h: set video mode */
    return bios_int(0x10, &r, &r, &why);
}

static void caption(const char *text)
{
    for (; *text; text++) {
        struct biosregs r;
        const char *why;
        initregs(&r);
        r.ah = 0x0E;                    /* INT 10h AH=0Eh: teletype output */
        r.al = (uint8_t)*text;
        r.bx = 0x000F;                  /* page 0, colour 15 */
        bios_int(0x10, &r, &r, &why);
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

static void draw(int size)
{
    int total = size + 2 * QUIET_ZONE;
    int scale = (SCREEN_H - CAPTION_ROWS) / total;
    int left = (SCREEN_W - total * scale) / 2;
    int top = CAPTION_ROWS + (SCREEN_H - CAPTION_ROWS - total * scale) / 2;
    uint8_t row[ROW_BYTES];

    fill_rows(CAPTION_ROWS, SCREEN_H, 0xFF);
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
    if (wait == 0) {
        say("survey screen: skipped (wait=0)");
        return;
    }
    int size = qr_encode((const uint8_t *)json, strlen(json), QR_ECC_MEDIUM, modules, work);
    if (!size)
        size = qr_encode((const uint8_t *)json, strlen(json), QR_ECC_LOW, modules, work);
    if (!size) {
        say("survey screen: the survey line (%u bytes) does not fit a QR code",
            (unsigned)strlen(json));
        return;
    }
    if (!set_mode(VGA_MODE_640X480X16)) {
        say("survey screen: the BIOS could not set VGA mode 12h");
        return;
    }
    caption("apmoff survey: scan this QR code; then press a key");
    draw(size);
    say("survey screen: QR code of %u bytes, %dx%d modules, on screen",
        (unsigned)strlen(json), size, size);
    /* Bochs' magic breakpoint (a no-op everywhere else): lets a test stop Bochs here
     * and dump the screen's memory, as QMP screendump does for QEMU. */
    __asm__ volatile("xchgw %bx, %bx");
    wait_for(wait);
    set_mode(VGA_MODE_TEXT_80X25);
    vga_init();
    say("survey screen: closed, back to text mode");
}
