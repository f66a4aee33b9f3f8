/* The APM protected-mode descriptors: see pm_segs.h. */
#include "pm_segs.h"

#define REAL_MODE_BASE(seg) ((uint32_t)(seg) * 16)

unsigned apm_pm_segments(enum apm_iface iface, const struct apm_pm_info *pm,
                         struct apm_seg out[APM_PM_SEGS_MAX])
{
    unsigned n = 0;

    if (iface == APM_IFACE_PM32)
        out[n++] = (struct apm_seg){ SEL_APM_CODE32, REAL_MODE_BASE(pm->code32_seg),
                                     pm->code32_len - 1, SEG_CODE32 };
    out[n++] = (struct apm_seg){ SEL_APM_CODE16, REAL_MODE_BASE(pm->code16_seg),
                                 pm->code16_len - 1, SEG_CODE16 };
    /* The data segment's D bit does not matter to a BIOS that uses 16-bit offsets,
     * but the 32-bit interface may address it with 32-bit ones: match the caller. */
    out[n++] = (struct apm_seg){ SEL_APM_DATA, REAL_MODE_BASE(pm->data_seg),
                                 pm->data_len - 1,
                                 iface == APM_IFACE_PM32 ? SEG_DATA32 : SEG_DATA16 };
    out[n++] = (struct apm_seg){ SEL_BIOS_DATA, BDA_BASE, 0xFFFF, SEG_DATA16 };
    return n;
}
