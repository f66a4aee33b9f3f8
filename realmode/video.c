/* INT 10h AH=00h: see video.h. */
#include "video.h"
#include "bios.h"
#include "../lib/pc.h"

bool bios_set_video_mode(uint8_t mode)
{
    struct biosregs r;
    const char *why;
    initregs(&r);
    r.ah = 0x00;                        /* set video mode */
    r.al = mode;
    return bios_int(BIOS_INT_VIDEO, &r, &r, &why);
}
