/* mkqr: hostile QR pictures for tests/collect/test_hostile.py, made with the
 * kernel's own encoders (survey/qr.c, survey/deflate.c, survey/base45.c), so what the
 * collector is fed is what an apmoff screen could show.
 *
 *   mkqr qr OUT.pgm < TEXT        one symbol of TEXT (alphanumeric mode when TEXT is
 *                                 of that set, byte mode otherwise), level L, as a
 *                                 PGM picture, 4 pixels a module, 4-module quiet zone
 *   mkqr packed PREFIX ZDICT < LINE   the one-symbol text of LINE, as
 *                                 app/show/surveyscreen.c makes it: PREFIX ("APMOFF3:" or
 *                                 0.3's "APMOFF2:"), then zlib with the preset
 *                                 dictionary ZDICT, in Base45
 *   mkqr screen OUT.pgm MASK PREFIX ZDICT < LINE
 *                                 the survey screen as a VGA shows it (640x480, the
 *                                 symbol where survey/qrscreen.c puts it, the caption's
 *                                 rows left blank): the one-symbol text of LINE at
 *                                 level M with MASK (0-7, or -1 for the penalty rules'
 *                                 choice, as the kernel draws); says "version V, N
 *                                 characters, P px" on standard output
 *   mkqr screen-text OUT.pgm MASK < TEXT
 *                                 the same screen for a symbol's text as it is (a
 *                                 payload read off an older screen, drawn again)
 *   mkqr pages VERSION < LINE     the APMOFF1 pages of LINE for symbols of at most
 *                                 VERSION (a screen smaller than VGA's), one text a
 *                                 line: what a phone's scanner reads off each page
 *
 * Host only; built by the test with the system compiler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/base45.h"
#include "../../survey/deflate.h"
#include "../../survey/qr.h"
#include "../../survey/qrpages.h"
#include "../../survey/qrscreen.h"

#define SCALE 4
#define QUIET 4

static size_t slurp(FILE *f, uint8_t *buf, size_t size)
{
    size_t n = fread(buf, 1, size, f);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    return n;
}

static int write_pgm(const char *path, const uint8_t *modules, int size)
{
    int side = (size + 2 * QUIET) * SCALE;
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    fprintf(f, "P5\n%d %d\n255\n", side, side);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            fputc(qr_get_module(modules, size, x / SCALE - QUIET, y / SCALE - QUIET)
                  ? 0 : 255, f);
    return fclose(f) != 0;
}

static int cmd_qr(const char *out)
{
    static uint8_t text[8192], modules[QR_BUFFER_LEN], work[QR_BUFFER_LEN];
    size_t n = slurp(stdin, text, sizeof(text));
    int alnum = 1;
    for (size_t i = 0; i < n; i++)
        if (!memchr(QR_ALNUM_SET, text[i], sizeof(QR_ALNUM_SET) - 1))
            alnum = 0;
    int size = alnum ? qr_encode_alnum((const char *)text, n, QR_ECC_LOW, 1, QR_MASK_AUTO,
                                       modules, work)
                     : qr_encode(text, n, QR_ECC_LOW, modules, work);
    if (!size) {
        fprintf(stderr, "mkqr: %zu bytes do not fit one symbol\n", n);
        return 1;
    }
    return write_pgm(out, modules, size);
}

/* The one-symbol text of the line on standard input, as the kernel packs it. */
static size_t packed_text(const char *prefix, const char *zdict_path, char *text,
                          size_t size)
{
    static uint8_t dict[DEFLATE_WINDOW_MAX], line[DEFLATE_WINDOW_MAX],
        z[DEFLATE_WINDOW_MAX * 2];
    static struct deflate_work w;
    FILE *f = fopen(zdict_path, "rb");
    if (!f)
        return 0;
    size_t dn = fread(dict, 1, sizeof(dict), f);
    fclose(f);
    size_t n = slurp(stdin, line, sizeof(line));
    size_t zn = zlib_compress_dict(dict, dn, line, n, z, sizeof(z), &w);
    size_t p = strlen(prefix);
    if (!zn || size <= p)
        return 0;
    memcpy(text, prefix, p);
    size_t t = base45_encode(z, zn, text + p, size - p);
    return t ? p + t : 0;
}

/* The survey screen with the symbol of text[0..n) on it, as OUT.pgm. */
static int draw_screen(const char *out, const char *text, size_t n, int mask)
{
    enum { HEIGHT = 480 };
    static uint8_t modules[QR_BUFFER_LEN], work[QR_BUFFER_LEN], screen[HEIGHT][QRSCREEN_W];
    int size = n ? qr_encode_alnum(text, n, QRPAGES_ECC, 1, mask, modules, work) : 0;
    int version = (size - 17) / 4;
    if (!size || version > qrscreen_max_version(HEIGHT)) {
        fprintf(stderr, "mkqr: the text does not fit one symbol on the screen\n");
        return 1;
    }
    struct qrscreen_place p;
    qrscreen_place(size, HEIGHT, &p);
    memset(screen, 255, sizeof(screen));
    for (int y = 0; y < size * p.scale; y++)
        for (int x = 0; x < size * p.scale; x++)
            if (qr_get_module(modules, size, x / p.scale, y / p.scale))
                screen[p.top + QRSCREEN_QUIET_ZONE * p.scale + y]
                      [p.left + QRSCREEN_QUIET_ZONE * p.scale + x] = 0;
    FILE *f = fopen(out, "wb");
    if (!f)
        return 1;
    fprintf(f, "P5\n%d %d\n255\n", QRSCREEN_W, HEIGHT);
    fwrite(screen, 1, sizeof(screen), f);
    if (fclose(f))
        return 1;
    printf("version %d, %zu characters, %d px\n", version, n, p.scale);
    return 0;
}

static int cmd_screen(const char *out, const char *mask, const char *prefix,
                      const char *zdict_path)
{
    static char text[DEFLATE_WINDOW_MAX * 3 + 1];
    size_t n = packed_text(prefix, zdict_path, text, sizeof(text));
    return draw_screen(out, text, n, atoi(mask));
}

static int cmd_screen_text(const char *out, const char *mask)
{
    static char text[8192];
    size_t n = slurp(stdin, (uint8_t *)text, sizeof(text));
    return draw_screen(out, text, n, atoi(mask));
}

static int cmd_packed(const char *prefix, const char *zdict_path)
{
    static char text[DEFLATE_WINDOW_MAX * 3 + 1];
    size_t n = packed_text(prefix, zdict_path, text, sizeof(text));
    if (!n) {
        fprintf(stderr, "mkqr: the line does not fit the kernel's window\n");
        return 1;
    }
    printf("%.*s\n", (int)n, text);
    return 0;
}

static int cmd_pages(const char *version)
{
    static char line[8192], text[4096];
    struct qr_pages p;
    size_t n = slurp(stdin, (uint8_t *)line, sizeof(line) - 1);
    line[n] = '\0';
    if (!qr_pages_plan_for(line, n, atoi(version), &p)) {
        fprintf(stderr, "mkqr: a line of %zu bytes needs more than %d pages\n", n,
                QRPAGES_MAX);
        return 1;
    }
    for (unsigned i = 0; i < p.count; i++) {
        size_t t = qr_page_text(line, n, &p, i, text, sizeof(text));
        printf("%.*s\n", (int)t, text);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "pages"))
        return cmd_pages(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "qr"))
        return cmd_qr(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "screen-text"))
        return cmd_screen_text(argv[2], argv[3]);
    if (argc == 6 && !strcmp(argv[1], "screen"))
        return cmd_screen(argv[2], argv[3], argv[4], argv[5]);
    if (argc == 4 && !strcmp(argv[1], "packed"))
        return cmd_packed(argv[2], argv[3]);
    fprintf(stderr, "usage: mkqr qr OUT.pgm < TEXT | mkqr packed PREFIX ZDICT < LINE | "
            "mkqr screen OUT.pgm MASK PREFIX ZDICT < LINE | mkqr screen-text OUT.pgm MASK < TEXT | "
            "mkqr pages VERSION < LINE\n");
    return 2;
}
