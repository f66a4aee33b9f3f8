/* The kernel's side of action=reboot's chain (app/resets.h): each reset method made
 * through the platform (system/reset.h's ports and CPU trick, the FADT's register
 * through system/acpi_pm.h, ResetSystem through system/efi_rt.h, the BIOS's reset
 * entry through realmode/bios.h), and what is done before each: the warm-boot flag
 * at 40:72h (with a legacy BIOS, whose POST reads it) and the record for the next
 * run (app/lastrun.h). */
#ifndef APMOFF_RESET_WAYS_H
#define APMOFF_RESET_WAYS_H

#include "resets.h"
#include "../survey/efi.h"

struct reset_context {
    const struct reset_offer *offer;
    bool cold;                  /* boot=cold */
    bool legacy_bios;           /* 40:72h is the BIOS's: written before each method */
    const struct efi_info *efi; /* reset=efi's ResetSystem */
    bool efi64, sse;
};

/* The chain with the kernel's callbacks, for this context (kept by reference). */
void reset_ways_chain(const struct reset_context *ctx, struct reset_chain *out);

#endif
