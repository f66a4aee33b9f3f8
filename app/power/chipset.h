/* method=chipset: power off through the south bridge's own soft-off, where the
 * firmware's APM and ACPI do not (survey/softoff.h says where each chip keeps its
 * power-management block). The block's base is the BIOS's: apmoff assigns no I/O
 * address, and a base left at 0 ends the method without a write. Its decode is
 * switched on only where the table says how and the BIOS left it off. Each write is
 * said before it is made; each soft-off type is given CHIPSET_OFF_GRACE_MS. */
#ifndef APMOFF_POWER_CHIPSET_H
#define APMOFF_POWER_CHIPSET_H

#include "../common/chain.h"
#include "../../survey/pci.h"
#include "../../survey/softoff.h"

#define CHIPSET_OFF_GRACE_MS 3000   /* as APM's and ACPI's */

struct chipset_off {
    struct softoff_plan plan;   /* softoff_find()'s, with a chip */
    enum pci_mech mech;         /* to reach its configuration space */
    /* Just before the first write or call: the time from entry, the record for
     * the next run (given ctx and the method's name) */
    void (*announce)(void *ctx, const char *method);
    void *ctx;
};

/* Returns WAY_ABSENT when the base is not set up (nothing written), else
 * WAY_STILL_ON after every soft-off type was written and waited for. */
enum way_result chipset_power_off(const struct chipset_off *c, char *why, unsigned size);

#endif
