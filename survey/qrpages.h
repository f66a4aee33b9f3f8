/* The survey line as numbered QR symbols a phone can read off a CRT.
 *
 * A phone photographing a 640x480 screen wants modules of at least 4 pixels and a
 * quiet zone of 4 modules: at most 116 modules across the 464 rows below the caption,
 * so version 22 (105 modules) at level M, about 660 bytes. The survey line is longer
 * (about 1.9 KB), so it is cut into pages, each a symbol of its own:
 *
 *   APMOFF1 <page>/<pages> <CRC-32 of the whole line, 8 hex digits> <bytes of the line>
 *
 * Joining the pages' bytes in page order gives the serial line's JSON exactly, which
 * the CRC confirms; several machines' pages are told apart by it. tools/apmoff-collect
 * reads them back. Pure, for the kernel and the host. */
#ifndef APMOFF_SURVEY_QRPAGES_H
#define APMOFF_SURVEY_QRPAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qr.h"

#define QRPAGES_VERSION_MAX 22          /* 105 modules: 4 px each with the quiet zone */
#define QRPAGES_ECC         QR_ECC_MEDIUM
#define QRPAGES_HEADER_MAX  24          /* "APMOFF1 99/99 01234567 " */
#define QRPAGES_MAX         16

struct qr_pages {
    unsigned count;             /* symbols */
    size_t chunk;               /* bytes of the line in each (the last may hold fewer) */
    uint32_t crc;               /* of the whole line */
};

/* Plans the pages for a line of len bytes; false when it needs more than
 * QRPAGES_MAX pages. */
bool qr_pages_plan(const char *line, size_t len, struct qr_pages *p);
/* The same for symbols of at most this version (a smaller screen). */
bool qr_pages_plan_for(const char *line, size_t len, int version, struct qr_pages *p);

/* Page i (0-based) as the bytes to encode: header, then its part of the line.
 * Returns their length (at most qr_capacity(QRPAGES_VERSION_MAX, QRPAGES_ECC)). */
size_t qr_page_text(const char *line, size_t len, const struct qr_pages *p, unsigned i,
                    char *out, size_t size);

#endif
