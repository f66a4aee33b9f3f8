/* The BIOS's video mode set (INT 10h AH=00h), for the screens that need another
 * mode than the one the loader left: the QR code's mode 12h and the way back to
 * 80x25 text. The modes are named in lib/pc.h. */
#ifndef APMOFF_VIDEO_H
#define APMOFF_VIDEO_H

#include <stdbool.h>
#include <stdint.h>

/* False when the call could not be made (no BIOS path). */
bool bios_set_video_mode(uint8_t mode);

#endif
