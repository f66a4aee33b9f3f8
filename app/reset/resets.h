/* action=reboot's kind of chain (app/common/chain.h): reset=kbd,pci means "reset
 * through the 8042; if the machine still runs, through CF9h". A method the machine
 * lacks (app/reset/offer.h) is named with its reason and skipped; one it has is
 * announced before it is made ("resetting via kbd (8042 command FEh)"), and when the
 * machine still runs after RESET_GRACE_MS, timed by the PIT, that is said and the next
 * one follows. triple and bios never come back: the machine resets or hangs in the
 * firmware, and nothing after them in the list runs. Pure: the host tests run it
 * against fakes (tests/unit/test_resets.c), the kernel against app/reset/ways.h. */
#ifndef APMOFF_RESETS_H
#define APMOFF_RESETS_H

#include "offer.h"
#include "../common/chain.h"

#define RESET_GRACE_MS 1000     /* a reset takes microseconds (the 8042's pulse a few
                                   milliseconds): a second is a machine that stayed */

/* How action=reboot's chain speaks, with what is left before each method and the
 * wait after it. */
#define RESET_KIND(before_each, wait) {                                                \
        .skipped = "reset: %s skipped: %s", .announce = "resetting via %s (%s)",      \
        .still_on = "reset via %s: still running after %u ms",                        \
        .before = (before_each), .grace_ms = RESET_GRACE_MS, .wait_ms = (wait),        \
    }

/* The run's end after chain_run(): HALT_NO_RESET when every method was skipped,
 * HALT_RESET_FAILED otherwise, with why for the halted line ("reset failed: still
 * running after kbd, pci (1 skipped)"). */
enum halt_code resets_end(const struct way *ways, const struct chain_report *rep, char *why,
                          unsigned size);

/* One line of the summary panel for a try: "still running after 1000 ms (8042
 * command FEh)", "skipped: ...". */
void resets_outcome_text(const struct way *ways, void *ctx, const struct chain_try *t,
                         char *buf, unsigned size);

#endif
