/* The RTC's CMOS RAM. apmoff's own code only reads it (the index port is written to
 * select a register, which changes no stored byte). cmos_write() exists for two
 * callers: the firmware's own AML, which a \_PTS may use to leave a note for its SMI
 * handler (the ASUS P3V4X does, through ports 72h/73h), as every OS lets it; and
 * wake='s alarm (system/rtc_alarm.h), the clock's alarm registers alone. */
#ifndef APMOFF_CMOS_H
#define APMOFF_CMOS_H

#include <stdint.h>

uint8_t cmos_read(uint8_t reg);

/* Byte addr of the 256-byte CMOS an AML SystemCMOS region sees: 00h-7Fh through
 * 70h/71h, 80h-FFh through the second bank's 72h/73h. */
uint8_t cmos_read_any(uint8_t addr);
void cmos_write(uint8_t addr, uint8_t v);

#endif
