/* The survey line as numbered QR symbols: see qrpages.h. */
#include "qrpages.h"
#include "../lib/crc32.h"
#include "../lib/format.h"
#include "../lib/string.h"

bool qr_pages_plan(const char *line, size_t len, struct qr_pages *p)
{
    return qr_pages_plan_for(line, len, QRPAGES_VERSION_MAX, p);
}

bool qr_pages_plan_for(const char *line, size_t len, int version, struct qr_pages *p)
{
    int capacity = qr_capacity(version, QRPAGES_ECC);
    if (capacity <= QRPAGES_HEADER_MAX)
        return false;
    size_t room = (size_t)capacity - QRPAGES_HEADER_MAX;
    p->count = len ? (unsigned)((len + room - 1) / room) : 1;
    if (p->count > QRPAGES_MAX)
        return false;
    /* As many bytes on each page, so every symbol has the same version and size. */
    p->chunk = len ? (len + p->count - 1) / p->count : 0;
    p->crc = crc32(0, (const uint8_t *)line, len);
    return true;
}

size_t qr_page_text(const char *line, size_t len, const struct qr_pages *p, unsigned i,
                    char *out, size_t size)
{
    size_t start = (size_t)i * p->chunk;
    size_t n = start < len ? len - start : 0;
    if (n > p->chunk)
        n = p->chunk;
    size_t head = (size_t)fmt_snprintf(out, size, "APMOFF1 %u/%u %08X ", i + 1, p->count,
                                       (unsigned)p->crc);
    if (head + n > size)
        n = size - head;
    memcpy(out + head, line + start, n);
    return head + n;
}
