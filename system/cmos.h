/* Reading the RTC's CMOS RAM. Only ever read: apmoff writes nothing to CMOS (the
 * index port is written to select a register, which changes no stored byte). */
#ifndef APMOFF_CMOS_H
#define APMOFF_CMOS_H

#include <stdint.h>

uint8_t cmos_read(uint8_t reg);

#endif
