/* The summary panel on the screen and on serial: see summary.h. */
#include "summary.h"
#include "../../system/console.h"
#include "../../system/serial.h"

static struct summary_input in;

void summary_set_sources(const char *version, const char *label, const struct survey *sv,
                         const struct apm_state *apm)
{
    in.version = version;
    in.label = label;
    in.sv = sv;
    in.apm = apm;
}

void summary_set_checks(const struct check_report *checks)
{
    in.checks = checks;
}

void summary_set_resets(const struct way *ways, void *ctx, const struct chain_report *resets)
{
    in.reset_ways = ways;
    in.reset_ctx = ctx;
    in.resets = resets;
}

void summary_show(enum halt_code code, const char *reason)
{
    static char lines[SUMMARY_LINES][SUMMARY_COLS + 1];

    /* The errors, or the register dump, are what must stay on those screens. */
    if (code == HALT_OPTION_ERROR || code == HALT_EXCEPTION)
        return;
    in.code = code;
    in.reason = reason;
    in.serial_kind = serial_kind();
    in.serial_base = serial_base();
    unsigned n = summary_lines(&in, lines, SUMMARY_LINES);
    console_screen_clear();
    for (unsigned i = 0; i < n; i++) {
        console_screen_write(lines[i]);
        console_screen_write("\n");
    }
    for (unsigned i = 0; i < n; i++)
        say_log("summary: %s", lines[i]);
}
