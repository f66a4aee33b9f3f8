/* The runner of a list of ways: see chain.h. Also compiled on the host. */
#include "chain.h"
#include "../../system/console.h"
#include "../../lib/format.h"

void chain_run(const struct chain_kind *k, const struct way *ways, int list, void *ctx,
               struct chain_report *rep)
{
    char what[96];

    *rep = (struct chain_report){ 0 };
    for (unsigned i = 0; list_at(list, i); i++) {
        const struct way *w = &ways[list_at(list, i)];
        struct chain_try *t = &rep->tries[rep->count++];
        *t = (struct chain_try){ .way = list_at(list, i), .outcome = CHAIN_NOT_REACHED };
        if (i && k->next)
            say(k->next, w->name);
        const char *missing = w->missing ? w->missing(ctx, t->way) : 0;
        if (missing) {
            t->outcome = CHAIN_SKIPPED;
            fmt_snprintf(t->why, sizeof(t->why), "%s", missing);
            if (k->skipped)
                say(k->skipped, w->name, missing);
            continue;
        }
        if (k->before)
            k->before(ctx, t->way, rep->made + 1);
        if (w->describe && k->announce) {
            w->describe(ctx, t->way, what, sizeof(what));
            say(k->announce, w->name, what);
        }
        if (w->make(ctx, t->way, rep->made + 1, t->why, sizeof(t->why)) == WAY_ABSENT) {
            t->outcome = CHAIN_SKIPPED;
            continue;
        }
        rep->made++;
        if (k->grace_ms && k->wait_ms)
            k->wait_ms(k->grace_ms);
        t->outcome = CHAIN_STILL_ON;
        if (k->still_on)
            say(k->still_on, w->name, k->grace_ms);
    }
}

enum halt_code chain_end(const struct way *ways, const struct chain_report *rep,
                         char *why, unsigned size)
{
    unsigned len = 0;

    if (size)
        why[0] = '\0';
    if (!rep->count)
        return HALT_OPTION_ERROR;       /* an empty list: options.c refuses it */
    for (unsigned i = 0; i < rep->count && len < size; i++) {
        const struct chain_try *t = &rep->tries[i];
        if (rep->count == 1)
            fmt_snprintf(why, size, "%s", t->why);
        else
            len += (unsigned)fmt_snprintf(why + len, size - len, "%s%s: %s", i ? "; " : "",
                                          ways[t->way].name, t->why);
    }
    const struct chain_try *last = &rep->tries[rep->count - 1];
    const struct way *w = &ways[last->way];
    return last->outcome == CHAIN_STILL_ON ? w->still_on : w->absent;
}
