/* Option ROMs: see optionrom.h. */
#include "optionrom.h"

unsigned optionrom_scan(const struct physmem *pm, struct option_rom *out, unsigned max)
{
    unsigned n = 0;
    uint32_t addr = OPTIONROM_START;

    if (!physmem_ok(pm, OPTIONROM_START, OPTIONROM_END - OPTIONROM_START))
        return 0;
    while (addr < OPTIONROM_END && n < max) {
        const uint8_t *p = physmem_at(pm, addr);
        if (p[0] != 0x55 || p[1] != 0xAA || p[2] == 0) {
            addr += OPTIONROM_STEP;
            continue;
        }
        struct option_rom rom = { addr, (uint32_t)p[2] * 512u, false, false };
        rom.cut = rom.length > OPTIONROM_END - addr;
        if (rom.cut)
            rom.length = OPTIONROM_END - addr;
        rom.sum_ok = !rom.cut && fw_sum(p, rom.length) == 0;
        if (addr >= OPTIONROM_STRICT && !rom.sum_ok) {
            addr += OPTIONROM_STEP;
            continue;
        }
        struct option_rom *r = &out[n++];
        *r = rom;
        /* On past its bytes, to the next 2 KiB boundary. */
        addr += (r->length + OPTIONROM_STEP - 1) & ~(OPTIONROM_STEP - 1);
    }
    return n;
}
