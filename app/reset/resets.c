/* action=reboot's chain: see resets.h. Also compiled on the host. */
#include "resets.h"
#include "../system/console.h"
#include "../lib/format.h"

/* Each method of the list in turn: one the machine lacks is named with its reason and
 * skipped; one it has is announced, made, and given RESET_GRACE_MS; a machine still
 * running says so and goes on to the next. */
enum halt_code resets_try(const struct reset_chain *c, int list, struct reset_report *rep,
                          char *why, unsigned size)
{
    char what[96];
    unsigned made = 0;

    *rep = (struct reset_report){ 0 };
    for (unsigned i = 0; reset_at(list, i) != RESET_NONE; i++) {
        enum reset_method m = reset_at(list, i);
        struct reset_try *t = &rep->tries[rep->count++];
        *t = (struct reset_try){ .method = m, .outcome = RESET_NOT_REACHED };
        if (!reset_offered(c->offer, m)) {
            t->outcome = RESET_SKIPPED;
            t->why = c->offer->why[m];
            say("reset: %s skipped: %s", reset_method_name(m), t->why);
            continue;
        }
        if (c->before)
            c->before(m, ++made);
        else
            made++;
        reset_offer_describe(c->offer, m, c->cold, what, sizeof(what));
        say("resetting via %s (%s)", reset_method_name(m), what);
        c->attempt(m);
        c->wait_ms(RESET_GRACE_MS);
        t->outcome = RESET_STILL_RUNNING;
        say("reset via %s: still running after %u ms", reset_method_name(m), RESET_GRACE_MS);
    }

    unsigned n = (unsigned)fmt_snprintf(why, size, made ? "reset failed: still running "
                                        "after" : "no reset method of the list is here:");
    const char *sep = " ";
    for (unsigned i = 0; i < rep->count && n < size; i++) {
        const struct reset_try *t = &rep->tries[i];
        if (made && t->outcome == RESET_STILL_RUNNING)
            n += (unsigned)fmt_snprintf(why + n, size - n, "%s%s", sep,
                                        reset_method_name(t->method));
        else if (!made)
            n += (unsigned)fmt_snprintf(why + n, size - n, "%s%s: %s", sep,
                                        reset_method_name(t->method), t->why);
        else
            continue;
        sep = made ? ", " : "; ";
    }
    if (made && made < rep->count && n < size)
        fmt_snprintf(why + n, size - n, " (%u skipped)", rep->count - made);
    return made ? HALT_RESET_FAILED : HALT_NO_RESET;
}

void resets_outcome_text(const struct reset_chain *c, const struct reset_try *t, char *buf,
                         unsigned size)
{
    char what[96];

    switch (t->outcome) {
    case RESET_SKIPPED:
        fmt_snprintf(buf, size, "skipped: %s", t->why);
        break;
    case RESET_STILL_RUNNING:
        reset_offer_describe(c->offer, t->method, c->cold, what, sizeof(what));
        fmt_snprintf(buf, size, "still running after %u ms (%s)", RESET_GRACE_MS, what);
        break;
    default:
        fmt_snprintf(buf, size, "not reached");
        break;
    }
}
