/* The one runner of every list of ways to act on the machine: method=apm,acpi means
 * "power off through APM; if the machine is still on, through ACPI S5", and
 * reset=kbd,pci "reset through the 8042; if the machine still runs, through CF9h".
 *
 * Each kind of act is one table of ways (app/power/methods.h, app/reset/ways.h), each
 * way a name, why the machine does not have it (from the facts, read as needed), what
 * it will do here, and how it is made, all given the kind's context and the way's
 * number (one function may serve every way of a table), and its own halt codes. The runner takes
 * the user's list in order: a way the machine lacks is named with its reason and
 * skipped, never replaced by one the user did not name; one it has is announced, made,
 * given the kind's grace time, and when the machine is still on that is said and the
 * next follows. What each did is kept for the summary panel and the halted line. The
 * tables are reached only through these callbacks, so the runner runs on the host
 * against fakes (tests/unit/test_chain.c) as in the kernel. */
#ifndef APMOFF_CHAIN_H
#define APMOFF_CHAIN_H

#include <stdbool.h>

#include "options.h"
#include "../../system/halt.h"

#define CHAIN_MAX       LIST_ITEMS_MAX
#define CHAIN_WHY_MAX   160

enum way_result {
    WAY_ABSENT,                 /* the machine does not have it: nothing was written */
    WAY_STILL_ON,               /* it was made, and the machine is still on */
};

struct way {
    const char *name;           /* as method= or reset= spells it */
    /* Why the machine does not have it, from the facts; NULL when it may (some ways
     * learn it only by trying: make() returns WAY_ABSENT then). May be NULL. */
    const char *(*missing)(void *ctx, unsigned way);
    /* What it does here, for the line before it and the panel ("8042 command FEh").
     * May be NULL: the way says its own lines. */
    void (*describe)(void *ctx, unsigned way, char *buf, unsigned size);
    /* Makes it; returns only when the machine is still on, with why. attempt counts the
     * ways made so far, this one included. */
    enum way_result (*make)(void *ctx, unsigned way, unsigned attempt, char *why,
                            unsigned size);
    enum halt_code absent;      /* the run's end when it is the last and absent */
    enum halt_code still_on;    /* ... when it is the last and was made */
};

/* How a kind of act speaks and waits. Every line is a format with the way's name
 * first; NULL leaves that line out. */
struct chain_kind {
    const char *skipped;        /* name, why: "reset: %s skipped: %s" */
    const char *next;           /* name, before each way but the first: "falling back to
                                   method %s" */
    const char *announce;       /* name, what describe() said: "resetting via %s (%s)" */
    const char *still_on;       /* name, grace ms: "reset via %s: still running after ..." */
    /* Before each way is announced and made (attempt counts them from 1), what must
     * be left for the next boot (reset's warm-boot flag and record). May be NULL. */
    void (*before)(void *ctx, unsigned way, unsigned attempt);
    unsigned grace_ms;          /* after each way made, before the next */
    void (*wait_ms)(unsigned ms);
};

enum chain_outcome {
    CHAIN_NOT_REACHED,          /* the list ended before it (a way never came back) */
    CHAIN_SKIPPED,              /* the machine lacks it: nothing was written */
    CHAIN_STILL_ON,             /* made, and the machine ran on */
};

struct chain_try {
    unsigned way;               /* the list's number */
    enum chain_outcome outcome;
    char why[CHAIN_WHY_MAX];    /* skipped: the reason; still on: what the way said */
};

struct chain_report {
    unsigned count;             /* tries in the list's order */
    unsigned made;              /* of them, made */
    struct chain_try tries[CHAIN_MAX];
};

/* Runs the list (options.h's numbers, indexing ways) in order, as above; returns when
 * the machine is still on after the last, with what each did in rep. */
void chain_run(const struct chain_kind *k, const struct way *ways, int list, void *ctx,
               struct chain_report *rep);

/* The run's end after chain_run(): the last way's halt code (absent or still on), and
 * why: its reason alone for a list of one, else "apm: ...; acpi: ..." (cut, never
 * overrun). */
enum halt_code chain_end(const struct way *ways, const struct chain_report *rep,
                         char *why, unsigned size);

#endif
