/* mkqr: hostile QR pictures for tests/collect/test_hostile.py, made with the
 * kernel's own encoders (survey/qr.c, survey/deflate.c, survey/base45.c), so what the
 * collector is fed is what an apmoff screen could show.
 *
 *   mkqr qr OUT.pgm < TEXT        one symbol of TEXT (alphanumeric mode when TEXT is
 *                                 of that set, byte mode otherwise), level L, as a
 *                                 PGM picture, 4 pixels a module, 4-module quiet zone
 *   mkqr apmoff2 ZDICT < LINE     the APMOFF2 text of LINE, as app/surveyscreen.c
 *                                 makes it (zlib with the preset dictionary, Base45)
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

static int cmd_apmoff2(const char *zdict_path)
{
    static uint8_t dict[DEFLATE_WINDOW_MAX], line[DEFLATE_WINDOW_MAX],
        z[DEFLATE_WINDOW_MAX * 2];
    static char text[DEFLATE_WINDOW_MAX * 3 + 1];
    static struct deflate_work w;
    FILE *f = fopen(zdict_path, "rb");
    if (!f)
        return 1;
    size_t dn = fread(dict, 1, sizeof(dict), f);
    fclose(f);
    size_t n = slurp(stdin, line, sizeof(line));
    size_t zn = zlib_compress_dict(dict, dn, line, n, z, sizeof(z), &w);
    if (!zn || !base45_encode(z, zn, text, sizeof(text))) {
        fprintf(stderr, "mkqr: a line of %zu bytes does not fit the kernel's window\n", n);
        return 1;
    }
    printf("APMOFF2:%s\n", text);
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
    if (argc == 3 && !strcmp(argv[1], "apmoff2"))
        return cmd_apmoff2(argv[2]);
    fprintf(stderr, "usage: mkqr qr OUT.pgm < TEXT | mkqr apmoff2 ZDICT < LINE | "
            "mkqr pages VERSION < LINE\n");
    return 2;
}
