/* The summary panel: how every run that leaves the machine on ends on the screen.
 *
 * A failed power-off prints about a hundred lines and the screen has no scroll-back,
 * so the reasons scroll away. The panel redraws the screen with what a person needs:
 * the machine and BIOS, the APM version and flags, one line per interface with its
 * result and reason, the failed checks, the verdict and what to try next. The same
 * lines go to serial as "apmoff: summary: ..." (serial keeps the whole log anyway).
 * Option errors and CPU exceptions keep their own screen: the errors or the register
 * dump are what must stay visible there.
 *
 * summary_lines() is pure (host unit tests); summary_show() draws. */
#ifndef APMOFF_SUMMARY_H
#define APMOFF_SUMMARY_H

#include "../../system/halt.h"
#include "../reset/resets.h"
#include "../facts/survey.h"
#include "../../apm/check.h"

#define SUMMARY_COLS    78      /* one short of the screen: no line wraps */
#define SUMMARY_LINES   20      /* the panel, leaving the halted line below it */

struct summary_input {
    const char *version;
    const struct survey *sv;            /* NULL: nothing known yet */
    const struct apm_state *apm;        /* NULL: APM never asked */
    const struct check_report *checks;  /* NULL: no action=check */
    const char *serial_kind;            /* NULL: no UART */
    unsigned serial_base;               /* COM1's port, when serial_kind is set */
    const char *label;                  /* label=, or "" */
    enum halt_code code;
    const char *reason;
    const struct chain_report *resets;  /* NULL: no action=reboot; else what each did */
    const struct way *reset_ways;       /* ... its table (app/reset/ways.h) */
    void *reset_ctx;                    /* ... and its context */
};

/* Fills lines[] (each at most SUMMARY_COLS characters); returns how many. */
unsigned summary_lines(const struct summary_input *in, char lines[][SUMMARY_COLS + 1],
                       unsigned max);

/* What summary_show() reports from; set once each is known. */
void summary_set_sources(const char *version, const char *label, const struct survey *sv,
                         const struct apm_state *apm);
void summary_set_checks(const struct check_report *checks);
void summary_set_resets(const struct way *ways, void *ctx, const struct chain_report *resets);

/* Clears the screen and draws the panel (a halt epilogue: see halt.h). */
void summary_show(enum halt_code code, const char *reason);

#endif
