/* action=reboot's chain: reset=kbd,pci means "reset through the 8042; if the machine
 * still runs, through CF9h". Each method is tried once, in the list's order; one the
 * machine lacks (app/reset_offer.h) is named with its reason and skipped; one it has
 * is announced before it is made ("resetting via kbd (8042 command FEh)"), and when
 * the machine still runs after RESET_GRACE_MS, timed by the PIT, that is said and the
 * next one follows. What each did is kept for the summary panel. The hardware is
 * reached through the chain's callbacks, so the chain runs on the host against fakes
 * (tests/unit/test_resets.c) as in the kernel (app/reset_ways.h). triple and bios
 * never come back: the machine resets or hangs in the firmware, and nothing after
 * them in the list runs. */
#ifndef APMOFF_RESETS_H
#define APMOFF_RESETS_H

#include "options.h"
#include "reset_offer.h"
#include "../system/halt.h"

#define RESET_GRACE_MS 1000     /* a reset takes microseconds (the 8042's pulse a few
                                   milliseconds): a second is a machine that stayed */

enum reset_outcome {
    RESET_NOT_REACHED,          /* the list ended before it (a method never came back) */
    RESET_SKIPPED,              /* the machine lacks it: nothing was written */
    RESET_STILL_RUNNING,        /* made, and the machine ran on */
};

struct reset_try {
    enum reset_method method;
    enum reset_outcome outcome;
    const char *why;            /* RESET_SKIPPED: the offer's reason */
};

struct reset_report {
    unsigned count;
    struct reset_try tries[RESETS_MAX];
};

struct reset_chain {
    const struct reset_offer *offer;
    bool cold;                  /* boot=cold */
    /* Before each attempt (1 for the first made): the warm-boot flag, the record for
     * the next run. May be NULL. */
    void (*before)(enum reset_method m, unsigned attempt);
    void (*attempt)(enum reset_method m);   /* returns when the machine still runs */
    void (*wait_ms)(unsigned ms);
};

/* Tries each method of the list in turn (see above). Returns only when the machine
 * still runs after the last: HALT_NO_RESET when every one was skipped,
 * HALT_RESET_FAILED otherwise, with why for the halted line. */
enum halt_code resets_try(const struct reset_chain *c, int list, struct reset_report *rep,
                          char *why, unsigned size);

/* One line of the summary panel for a try: "still running after 1000 ms (8042
 * command FEh)", "skipped: ...". */
void resets_outcome_text(const struct reset_chain *c, const struct reset_try *t, char *buf,
                         unsigned size);

#endif
