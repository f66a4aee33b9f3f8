/* action=reboot's end and its panel lines: see resets.h. Also compiled on the host. */
#include "resets.h"
#include "../../lib/format.h"

enum halt_code resets_end(const struct way *ways, const struct chain_report *rep, char *why,
                          unsigned size)
{
    unsigned made = rep->made;
    unsigned n = (unsigned)fmt_snprintf(why, size, made ? "reset failed: still running "
                                        "after" : "no reset method of the list is here:");
    const char *sep = " ";

    for (unsigned i = 0; i < rep->count && n < size; i++) {
        const struct chain_try *t = &rep->tries[i];
        if (made && t->outcome == CHAIN_STILL_ON)
            n += (unsigned)fmt_snprintf(why + n, size - n, "%s%s", sep, ways[t->way].name);
        else if (!made)
            n += (unsigned)fmt_snprintf(why + n, size - n, "%s%s: %s", sep,
                                        ways[t->way].name, t->why);
        else
            continue;
        sep = made ? ", " : "; ";
    }
    if (made && made < rep->count && n < size)
        fmt_snprintf(why + n, size - n, " (%u skipped)", rep->count - made);
    return made ? HALT_RESET_FAILED : HALT_NO_RESET;
}

void resets_outcome_text(const struct way *ways, void *ctx, const struct chain_try *t,
                         char *buf, unsigned size)
{
    char what[96];

    switch (t->outcome) {
    case CHAIN_SKIPPED:
        fmt_snprintf(buf, size, "skipped: %s", t->why);
        break;
    case CHAIN_STILL_ON:
        ways[t->way].describe(ctx, t->way, what, sizeof(what));
        fmt_snprintf(buf, size, "still running after %u ms (%s)", RESET_GRACE_MS, what);
        break;
    default:
        fmt_snprintf(buf, size, "not reached");
        break;
    }
}
