/* The kernel's reset methods, as one table of ways (app/common/chain.h) indexed by
 * enum reset_method: why a method is not here (app/reset/offer.h, from the facts the
 * method needs, read then), what it writes, and how it is made through the platform
 * (system/reset.h's ports and CPU trick, the FADT's register through system/acpi_pm.h,
 * ResetSystem through system/efi_rt.h, the BIOS's reset entry through
 * realmode/bios.h). Before each: the warm-boot flag at 40:72h (with a legacy BIOS,
 * whose POST reads it) and the record for the next run (app/common/record.h).
 * action=reboot runs it; the survey, check and the summary panel read it. */
#ifndef APMOFF_RESET_WAYS_H
#define APMOFF_RESET_WAYS_H

#include "resets.h"
#include "../facts/survey.h"

struct reset_context {
    struct survey *sv;          /* the facts, read as a method needs them */
    bool cold;                  /* boot=cold */
    bool legacy_bios;           /* 40:72h is the BIOS's: written before each method */
    bool sse;                   /* the CPU has SSE (ResetSystem's MXCSR) */
    struct reset_offer offer;   /* decided from the facts read so far */
};

extern const struct way reset_ways[RESET_COUNT];
extern const struct chain_kind reset_kind;

/* The offer with every method decided (every fact it rests on read): for the survey,
 * check and the JSON. */
const struct reset_offer *reset_offer_all(struct reset_context *c);

/* The survey's lines: "reset: here: kbd, pci, ..." and one "reset: X is not: why"
 * for each method that is not. */
void reset_say_offer(struct reset_context *c);

#endif
