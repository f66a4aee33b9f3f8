/* The survey screen: see surveyscreen.h.
 *
 * The whole line goes into one QR code when it can: compressed against a preset
 * dictionary of what survey lines say (survey/deflate.h, survey/survey3.zdict: the
 * keys and common values, then whole lines of a Pentium board, Bochs and QEMU),
 * written as Base45 text and encoded in alphanumeric mode, which a phone's scanner
 * reads as plain text:
 *
 *   APMOFF3:<Base45 of the zlib stream>
 *
 * tools/apmoff-collect inflates it against the same dictionary, so the photo gives
 * back the serial line's JSON byte for byte (zlib's Adler-32 checks it). When even
 * that does not fit the screen, the line goes out as numbered APMOFF1 pages of plain
 * JSON (survey/qrpages.h), as before.
 *
 * The mode is the BIOS's, set through INT 10h: 12h (640x480) on a VGA, 10h (640x350)
 * on an EGA. Both lay memory out as four planes at A0000h, 80 bytes a row, and with
 * the BIOS's default write mode (all planes enabled, bit mask FFh) a byte written
 * sets 8 pixels to colour 15 or 0 at once. Every module is at least 4 pixels with a
 * 4-module quiet zone: what a phone needs to read a CRT, so the largest symbol is
 * version 22 on a VGA and 14 on an EGA. An MDA or CGA has no mode a useful symbol
 * fits: the text report stays on the screen, and the screen says so. The mask is the
 * one the standard's penalty rules choose, of all eight, for every symbol: a fixed
 * mask reads back or not depending on the payload, and the payload carries the
 * commit's hash (mask 0 left Bochs 3.0's line of 2240fcd unreadable in a mild photo,
 * where the chosen one read). The search costs about six times the encoder's work:
 * 1.6 s on a 386DX-33 for the mode set, a version 10 symbol and its drawing. */
#include "surveyscreen.h"
#include "../../system/console.h"
#include "../../system/font.h"
#include "../../lib/format.h"
#include "../../system/keyboard.h"
#include "../common/options.h"
#include "../../lib/string.h"
#include "../../system/timer.h"
#include "../../system/vga.h"
#include "../../survey/base45.h"
#include "../../survey/deflate.h"
#include "../../survey/qr.h"
#include "../../survey/qrpages.h"
#include "../../survey/qrscreen.h"
#include "../../realmode/video.h"
#include "../../lib/pc.h"

#define ROW_BYTES               (QRSCREEN_W / 8)
#define VGA_GRAPHICS            ((volatile uint8_t *)0xA0000)
#define QUIET_ZONE              QRSCREEN_QUIET_ZONE
#define CAPTION_ROWS            QRSCREEN_CAPTION_ROWS
#define POLL_US                 10000
#define PAGE_TEXT_MAX           1024    /* above qr_capacity(22, M) */
#define PACKED_PREFIX           "APMOFF3:"
#define PACKED_ZLIB_MAX         2048
#define PACKED_TEXT_MAX         (sizeof(PACKED_PREFIX) + BASE45_LEN(PACKED_ZLIB_MAX))

extern const uint8_t survey_zdict[];
extern const size_t survey_zdict_len;

struct screen {
    uint8_t mode;               /* the BIOS video mode */
    int height;                 /* pixel rows */
    int max_version;            /* the largest symbol with QRSCREEN_MODULE_PX_MIN-pixel
                                   modules */
};

static int screen_h = 480;

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

/* Draws the symbol as large as it fits (survey/qrscreen.h); returns the pixels a
 * module. */
static int draw(int size)
{
    struct qrscreen_place p;
    qrscreen_place(size, screen_h, &p);
    int scale = p.scale, left = p.left, top = p.top;
    uint8_t row[ROW_BYTES];

    /* Light around the symbol; its own rows (quiet zone included) are written once. */
    fill_rows(CAPTION_ROWS, top + QUIET_ZONE * scale, 0xFF);
    fill_rows(top + (QUIET_ZONE + size) * scale, screen_h, 0xFF);
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

/* The graphics mode for this adapter, or false when it has none a symbol fits. */
static bool screen_for(const char *adapter, struct screen *sc)
{
    if (!strcmp(adapter, "VGA"))
        *sc = (struct screen){ VIDEO_MODE_640X480X16, 480, 0 };
    else if (!strcmp(adapter, "EGA"))
        *sc = (struct screen){ VIDEO_MODE_640X350X16, 350, 0 };
    else
        return false;
    sc->max_version = qrscreen_max_version(sc->height);
    return true;
}

/* APMOFF3:<Base45> of the line into out; its length, or 0 when it does not fit. */
static size_t pack(const char *json, size_t len, char *out, size_t size)
{
    static struct deflate_work w;
    static uint8_t z[PACKED_ZLIB_MAX];
    size_t n = zlib_compress_dict(survey_zdict, survey_zdict_len, (const uint8_t *)json,
                                  len, z, sizeof(z), &w);
    size_t prefix = sizeof(PACKED_PREFIX) - 1;
    if (!n || size <= prefix)
        return 0;
    memcpy(out, PACKED_PREFIX, prefix);
    size_t text = base45_encode(z, n, out + prefix, size - prefix);
    return text ? prefix + text : 0;
}

static void show(const char *text, size_t n, const char *caption_text, bool alnum,
                 bool first, uint64_t start, unsigned page, unsigned pages)
{
    int size = alnum ? qr_encode_alnum(text, n, QRPAGES_ECC, QR_VERSION_MIN, QR_MASK_AUTO,
                                       modules, work)
                     : qr_encode_ex((const uint8_t *)text, n, QRPAGES_ECC, QR_VERSION_MIN,
                                    QR_MASK_AUTO, modules, work);
    caption(caption_text);
    int scale = draw(size);
    if (first) {
        bool exact;
        uint32_t ms = timer_ms_since(start, &exact);
        say("survey screen: the first QR code took %s%u ms to set the mode, encode and draw",
            timer_bound(exact), (unsigned)ms);
    }
    say("survey screen: QR code %u/%u of %u %s, %dx%d modules of %d px, on screen", page,
        pages, (unsigned)n, alnum ? "characters (APMOFF3, compressed)" : "bytes", size,
        size, scale);
}

void survey_screen_show(const char *json, const char *adapter, int wait)
{
    static char text[PAGE_TEXT_MAX];
    static char packed[PACKED_TEXT_MAX];
    char line[80];
    struct qr_pages pages;
    struct screen sc;
    size_t len = strlen(json);

    if (wait == 0) {
        say("survey screen: skipped (wait=0)");
        return;
    }
    if (!screen_for(adapter, &sc)) {
        say("survey screen: no graphics mode for a QR code on this adapter (%s); "
            "photograph this text report, or read the survey line on serial", adapter);
        wait_for(wait);
        return;
    }
    size_t n = pack(json, len, packed, sizeof(packed));
    bool one = n && (size_t)qr_capacity_alnum(sc.max_version, QRPAGES_ECC) >= n;
    if (!one && !qr_pages_plan_for(json, len, sc.max_version, &pages)) {
        say("survey screen: the survey line (%u bytes) needs more than %u QR codes",
            (unsigned)len, QRPAGES_MAX);
        return;
    }
    uint64_t start = timer_us();
    if (!bios_set_video_mode(sc.mode)) {
        say("survey screen: the BIOS could not set video mode %02Xh", sc.mode);
        return;
    }
    screen_h = sc.height;
    if (one) {
        say("survey screen: the survey line, %u bytes, packed into %u characters",
            (unsigned)len, (unsigned)n);
        show(packed, n, "apmoff survey: scan this QR code, then press a key", true, true,
             start, 1, 1);
        __asm__ volatile("xchgw %bx, %bx");     /* Bochs' magic breakpoint: see below */
        wait_for(wait);
    }
    for (unsigned i = 0; !one && i < pages.count; i++) {
        size_t t = qr_page_text(json, len, &pages, i, text, sizeof(text));
        fmt_snprintf(line, sizeof(line), "apmoff survey %u/%u: scan this QR code, then "
                     "press a key", i + 1, pages.count);
        show(text, t, line, false, i == 0, start, i + 1, pages.count);
        /* Bochs' magic breakpoint (a no-op everywhere else): lets a test stop Bochs
         * here and dump the screen's memory, as QMP screendump does for QEMU. */
        __asm__ volatile("xchgw %bx, %bx");
        wait_for(wait);
    }
    bios_set_video_mode(VIDEO_MODE_TEXT_80X25);
    vga_init();
    say("survey screen: closed, back to text mode");
}
