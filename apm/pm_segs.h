/* The GDT entries an APM protected-mode connect needs, worked out from the 5303h or
 * 5302h answer: pure, so the host unit tests build exactly what the BIOS will see
 * (tests/unit/apm_cases_desc.c); apm/port_pm.c writes them into the GDT.
 *
 * APM 1.2, 4.7 and 4.8: the 32-bit interface wants three consecutive descriptors,
 * 32-bit code, 16-bit code, data (the BIOS derives the others from its CS: SeaBIOS
 * sets GS = CS + 16); the 16-bit interface wants 16-bit code then data. Selector 40h
 * maps the BIOS data area for BIOSes that load it expecting real-mode segment 40h. */
#ifndef APMOFF_PM_SEGS_H
#define APMOFF_PM_SEGS_H

#include "apm.h"
#include "../system/descriptors.h"

#define APM_PM_SEGS_MAX 4

struct apm_seg {
    enum gdt_selector selector;
    uint32_t base;
    uint32_t limit;             /* last valid offset */
    enum seg_kind kind;
};

/* Fills out[] in GDT order, the BIOS data entry last; returns how many. */
unsigned apm_pm_segments(enum apm_iface iface, const struct apm_pm_info *pm,
                         struct apm_seg out[APM_PM_SEGS_MAX]);

#endif
