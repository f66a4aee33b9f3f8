/* CMOS RAM reads: see cmos.h. NMI is masked while the index points at the register
 * (an NMI handler that reads CMOS itself would move it), and the index is parked on
 * read-only register D afterwards, as the trampoline leaves it. */
#include "cmos.h"
#include "io.h"
#include "../lib/pc.h"

uint8_t cmos_read(uint8_t reg)
{
    outb(CMOS_INDEX, (uint8_t)(CMOS_NMI_MASK | reg));
    io_delay();
    uint8_t v = inb(CMOS_DATA);
    outb(CMOS_INDEX, CMOS_PARK);
    return v;
}

uint8_t cmos_read_any(uint8_t addr)
{
    if (addr < 0x80)
        return cmos_read(addr);
    outb(CMOS2_INDEX, addr & 0x7F);
    io_delay();
    return inb(CMOS2_DATA);
}

void cmos_write(uint8_t addr, uint8_t v)
{
    if (addr < 0x80) {
        outb(CMOS_INDEX, (uint8_t)(CMOS_NMI_MASK | addr));
        io_delay();
        outb(CMOS_DATA, v);
        outb(CMOS_INDEX, CMOS_PARK);
        return;
    }
    outb(CMOS2_INDEX, addr & 0x7F);
    io_delay();
    outb(CMOS2_DATA, v);
}
