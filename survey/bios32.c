/* The BIOS32 Service Directory: see bios32.h. */
#include "bios32.h"
#include "../lib/le.h"

bool bios32_find(const struct physmem *pm, struct bios32 *out)
{
    if (!physmem_ok(pm, BIOS32_START, BIOS32_END - BIOS32_START))
        return false;
    for (uint32_t addr = BIOS32_START; addr < BIOS32_END; addr += BIOS32_ALIGN) {
        const uint8_t *p = physmem_at(pm, addr);
        uint32_t length = (uint32_t)p[9] * 16u;
        if (le32(p) != BIOS32_SIGNATURE || !length || length > BIOS32_END - addr ||
            fw_sum(p, length) != 0)
            continue;
        *out = (struct bios32){ addr, length, le32(p + 4), p[8] };
        return true;
    }
    return false;
}
