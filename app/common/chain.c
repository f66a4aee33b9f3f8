/* The power-off methods chain: see methods.h. Also compiled on the host. */
#include "methods.h"
#include "../system/console.h"
#include "../lib/format.h"

enum halt_code methods_power_off(const struct power_method *const table[METHOD_COUNT],
                                 int methods, char *why, unsigned why_size)
{
    enum halt_code code = HALT_OPTION_ERROR;    /* an empty list: options.c refuses it */
    char reason[160];
    unsigned len = 0;
    bool chain = method_at(methods, 1) != METHOD_NONE;

    if (why_size)
        why[0] = '\0';
    for (unsigned i = 0; method_at(methods, i) != METHOD_NONE; i++) {
        const struct power_method *m = table[method_at(methods, i)];
        if (i)
            say("falling back to method %s", m->name);
        reason[0] = '\0';
        code = m->off(reason, sizeof(reason)) == METHOD_ABSENT ? m->absent : m->still_on;
        if (!chain)
            fmt_snprintf(why, why_size, "%s", reason);
        else if (len < why_size)
            len += (unsigned)fmt_snprintf(why + len, why_size - len, "%s%s: %s",
                                          i ? "; " : "", m->name, reason);
    }
    return code;
}
