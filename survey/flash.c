/* The flash below 4 GiB: see flash.h. */
#include "flash.h"
#include "../lib/format.h"

int flash_window_blank(const uint8_t *p)
{
    for (uint32_t i = 1; i < FLASH_PROBE; i++)
        if (p[i] != p[0])
            return -1;
    return p[0];
}

unsigned flash_window_differing(const uint8_t *a, const uint8_t *b)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < FLASH_PROBE; i++)
        n += a[i] != b[i];
    return n;
}

enum flash_end flash_probe(const struct physmem *pm, struct flash_probe *out)
{
    *out = (struct flash_probe){ 0, 0, FLASH_UNKNOWN, 0 };
    if (!physmem_ok(pm, PHYSMEM_4G - FLASH_MAX - FLASH_PROBE, FLASH_MAX + FLASH_PROBE))
        return FLASH_UNKNOWN;
    const uint8_t *top = physmem_at(pm, PHYSMEM_4G - FLASH_PROBE);
    for (uint64_t size = FLASH_PROBE; size <= FLASH_MAX; size <<= 1) {
        const uint8_t *below = physmem_at(pm, PHYSMEM_4G - size - FLASH_PROBE);
        int blank = flash_window_blank(below);
        if (blank >= 0 || !flash_window_differing(below, top)) {
            out->size = (uint32_t)size;
            out->base = (uint32_t)(PHYSMEM_4G - size);
            out->end = blank >= 0 ? FLASH_BLANK : FLASH_ALIAS;
            out->blank = blank >= 0 ? (uint8_t)blank : 0;
            return out->end;
        }
    }
    return FLASH_UNKNOWN;
}

const char *flash_end_text(const struct flash_probe *f, char *buf, unsigned size)
{
    if (f->end == FLASH_BLANK)
        fmt_snprintf(buf, size, "below it the bus reads %02Xh", f->blank);
    else if (f->end == FLASH_ALIAS)
        fmt_snprintf(buf, size, "below it the part repeats");
    else
        fmt_snprintf(buf, size, "no end seen within %u MiB", (unsigned)(FLASH_MAX >> 20));
    return buf;
}
