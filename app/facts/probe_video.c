/* The video adapter: see probes.h.
 *
 * The display combination code (INT 10h AX=1A00h) is the VGA and MCGA BIOS's own
 * answer. An EGA BIOS does not know 1A00h but answers AH=12h BL=10h (EGA
 * information) by changing BL; a CGA or MDA BIOS knows neither, and the equipment
 * word's initial video mode (bits 4-5: 11b monochrome) tells them apart. VBE is
 * asked only of VGA-class adapters: an older BIOS owes AH=4Fh nothing. */
#include "probes.h"
#include "../../lib/pc.h"
#include "../../lib/string.h"

#define VIDEO_DCC               0x1A00
#define VIDEO_DCC_SUPPORTED     0x1A    /* AL after 1A00h */
#define VIDEO_EGA_INFO_AH       0x12
#define VIDEO_EGA_INFO_BL       0x10
#define VBE_CONTROLLER_INFO     0x4F00
#define VBE_OK                  0x004F
#define EQUIPMENT_VIDEO_MONO    0x0030  /* initial video mode 80x25 monochrome */

/* Display combination codes (IBM PS/2 Technical Reference, INT 10h AH=1Ah). */
static const char *dcc_name(uint8_t code)
{
    switch (code) {
    case 0x00: return "none";
    case 0x01: return "MDA";
    case 0x02: return "CGA";
    case 0x04: return "EGA";
    case 0x05: return "EGA";            /* with a monochrome display */
    case 0x06: return "PGA";
    case 0x07: return "VGA";            /* with a monochrome display */
    case 0x08: return "VGA";
    case 0x0A: case 0x0B: case 0x0C: return "MCGA";
    default: return "unknown";
    }
}

static void probe_vbe(struct video_probe *v, const struct bios_access *b,
                      const struct physmem *pm)
{
    uint16_t seg, off;
    uint8_t *buf = b->buffer(&seg, &off);
    struct biosregs r;
    const char *why;

    memset(buf, 0, VBE_INFO_SIZE);
    memcpy(buf, "VBE2", 4);             /* ask a 2.0+ BIOS for its strings too */
    initregs(&r);
    r.ax = VBE_CONTROLLER_INFO;
    r.es = seg;
    r.di = off;
    if (!b->call(BIOS_INT_VIDEO, &r, &r, &why) || r.ax != VBE_OK)
        return;
    vbe_parse(&v->vbe, pm, (uint32_t)seg * 16u + off);
}

void probe_video(struct video_probe *v, const struct bios_access *b,
                 const struct physmem *pm)
{
    struct biosregs r;
    const char *why;

    memset(v, 0, sizeof(*v));
    initregs(&r);
    r.ax = VIDEO_DCC;
    if (b->call(BIOS_INT_VIDEO, &r, &r, &why) && r.al == VIDEO_DCC_SUPPORTED) {
        v->have_dcc = true;
        v->dcc_active = r.bl;
        v->dcc_alternate = r.bh;
        v->adapter = dcc_name(r.bl);
        if (!strcmp(v->adapter, "VGA"))
            probe_vbe(v, b, pm);
        return;
    }
    initregs(&r);
    r.ah = VIDEO_EGA_INFO_AH;
    r.bl = VIDEO_EGA_INFO_BL;
    if (b->call(BIOS_INT_VIDEO, &r, &r, &why) && r.bl != VIDEO_EGA_INFO_BL) {
        v->adapter = "EGA";
        v->ega_mono = r.bh != 0;
        v->ega_memory_64k = (uint8_t)((r.bl & 3) + 1);
        return;
    }
    initregs(&r);
    if (b->call(BIOS_INT_EQUIPMENT, &r, &r, &why))
        v->adapter = (r.ax & EQUIPMENT_VIDEO_MONO) == EQUIPMENT_VIDEO_MONO ? "MDA" : "CGA";
    else
        v->adapter = "unknown";
}
