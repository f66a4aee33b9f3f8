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
