/* Where the survey screen puts a QR symbol (app/show/surveyscreen.c draws it there), as a
 * pure computation: the host tool that draws the same picture for the property test
 * (tests/collect/mkqr.c, tests/qr/) takes its places from here, so the test photographs
 * what a person would.
 *
 * A row of caption text at the top, CAPTION_ROWS pixels, then the symbol with its
 * 4-module quiet zone as large as the rest of the screen allows: every module at
 * least QRSCREEN_MODULE_PX_MIN pixels, what a phone needs to read a CRT. */
#ifndef APMOFF_SURVEY_QRSCREEN_H
#define APMOFF_SURVEY_QRSCREEN_H

#define QRSCREEN_W              640
#define QRSCREEN_QUIET_ZONE     4
#define QRSCREEN_MODULE_PX_MIN  4
/* The caption, one line of text at the top, takes 15 of the font's 16 rows: the last
 * is blank in every glyph (scripts/mkfont.py checks it), and the row it gives back
 * lets a version 17 symbol have 5-pixel modules on a VGA's 480 rows, quiet zone and
 * all: (85 + 8) x 5 + 15 = 480. */
#define QRSCREEN_CAPTION_ROWS   15

struct qrscreen_place {
    int scale;                  /* pixels a module */
    int left, top;              /* the quiet zone's top left corner, in pixels */
};

/* The largest version whose modules get QRSCREEN_MODULE_PX_MIN pixels on a screen
 * `height` rows high. */
int qrscreen_max_version(int height);

/* Where a symbol of `size` modules a side goes on a screen `height` rows high. */
void qrscreen_place(int size, int height, struct qrscreen_place *p);

#endif
