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
    /* 16-bit data for both interfaces, as RBIL's 5303h asks: a BIOS that loads its
     * data selector into SS and sets SP alone would, with the B bit set, address its
     * stack with ESP, whose high half is still ours (case realbios-ss16-pm32). A
     * 64 KiB segment needs no 32-bit offsets. */
    out[n++] = (struct apm_seg){ SEL_APM_DATA, REAL_MODE_BASE(pm->data_seg),
                                 pm->data_len - 1, SEG_DATA16 };
    out[n++] = (struct apm_seg){ SEL_BIOS_DATA, BDA_BASE, 0xFFFF, SEG_DATA16 };
    return n;
}
