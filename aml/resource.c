/* Resource templates (ACPI 6.x, 6.4): just enough of them for ConcatenateResTemplate
 * (where the End Tag is) and for the Embedded Controller (its two I/O ports from
 * _CRS: the data port first, then the command/status port, as Linux reads them). */
#include "ops.h"
#include "../lib/le.h"

#define SMALL_IO        0x08    /* small item names (bits 6-3) */
#define SMALL_FIXED_IO  0x09
#define SMALL_END_TAG   0x0F

/* Calls each descriptor of p[0..len) until the End Tag; returns where it starts, or
 * -1 when a descriptor runs past the buffer or there is no End Tag. A template of
 * no bytes at all counts as ending at once (ACPICA allows it). */
static long walk(const uint8_t *p, uint32_t len,
                 void (*each)(const uint8_t *d, unsigned item, uint32_t body, void *arg),
                 void *arg)
{
    uint32_t at = 0;

    if (!len)
        return 0;
    while (at < len) {
        uint8_t b = p[at];
        uint32_t head, body;
        unsigned item;
        if (b & 0x80) {             /* large item: a 16-bit length */
            if (len - at < 3)
                return -1;
            head = 3;
            body = (uint32_t)p[at + 1] | (uint32_t)p[at + 2] << 8;
            item = b;
        } else {
            head = 1;
            body = b & 7u;
            item = (b >> 3) & 0x0Fu;
            if (item == SMALL_END_TAG)
                return len - at >= 2 ? (long)at : -1;
        }
        if (body > len - at - head)
            return -1;
        if (each)
            each(p + at + head, item, body, arg);
        at += head + body;
    }
    return -1;
}

int resource_end_tag(const uint8_t *p, uint32_t len, uint32_t *before_end)
{
    long end = walk(p, len, NULL, NULL);

    if (end < 0)
        return AML_E_OPERAND_VALUE;
    *before_end = (uint32_t)end;
    return AML_OK;
}

struct io_ports {
    uint16_t *ports;
    unsigned max, count;
};

static void take_io(const uint8_t *d, unsigned item, uint32_t body, void *arg)
{
    struct io_ports *io = arg;

    if (io->count >= io->max)
        return;
    if (item == SMALL_IO && body >= 7)
        io->ports[io->count++] = le16(d + 1);      /* _MIN */
    else if (item == SMALL_FIXED_IO && body >= 3)
        io->ports[io->count++] = le16(d) & 0x3FF;
}

unsigned aml_resource_io_ports(const uint8_t *crs, uint32_t len, uint16_t *ports, unsigned max)
{
    struct io_ports io = { ports, max, 0 };

    walk(crs, len, take_io, &io);
    return io.count;
}
