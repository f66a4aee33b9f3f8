/* The power-off chain: see poweroff.h.
 *
 * The order is the sentence "try real mode, then the 32-bit protected-mode interface,
 * then the 16-bit one, each only if the BIOS offers it"; a forced interface= is a
 * chain of one. Between two attempts the failed interface is disconnected, so the
 * next connect starts clean. */
#include "poweroff.h"
#include "apm_spec.h"
#include "../system/console.h"
#include "../lib/format.h"

static const enum apm_iface chain_order[] = { APM_IFACE_RM, APM_IFACE_PM32, APM_IFACE_PM16 };
#define CHAIN_LENGTH (sizeof(chain_order) / sizeof(chain_order[0]))

static const uint16_t offer_flag[APM_IFACE_COUNT] = {
    [APM_IFACE_RM] = 0,         /* every APM BIOS has the real-mode interface */
    [APM_IFACE_PM32] = APM_FLAG_PM32,
    [APM_IFACE_PM16] = APM_FLAG_PM16,
};

bool apm_iface_offered(const struct apm_state *s, enum apm_iface iface)
{
    return !offer_flag[iface] || (s->flags & offer_flag[iface]);
}

/* Why an interface cannot be tried at all, or NULL when it can. */
static const char *unusable(const struct apm_state *s, const struct apm_ports *ports,
                            enum apm_iface iface, char *buf, unsigned size)
{
    if (!ports->iface[iface])
        return "not available in this build";
    if (!apm_iface_offered(s, iface)) {
        fmt_snprintf(buf, size, "not offered by the BIOS (install-check flags %04Xh)",
                     s->flags);
        return buf;
    }
    return 0;
}

/* The interfaces to try, in order; returns how many. For a power-off, those an earlier
 * run never came back from go last (two passes over the order). */
static unsigned plan(const struct apm_state *s, const struct apm_ports *ports, int only,
                     bool off, enum apm_iface *out, char *why, unsigned why_size)
{
    char text[80];
    unsigned n = 0;

    for (unsigned i = 0; i < 2 * CHAIN_LENGTH; i++) {
        enum apm_iface iface = chain_order[i % CHAIN_LENGTH];
        bool last = off && only == APM_IFACE_AUTO && ports->last && ports->last(iface);
        if (only != APM_IFACE_AUTO && (int)iface != only)
            continue;
        if (last != (i >= CHAIN_LENGTH))
            continue;
        if (last)
            say("%s goes last: an earlier run never came back from its power-off call "
                "there", apm_iface_name(iface));
        const char *reason = unusable(s, ports, iface, text, sizeof(text));
        if (reason) {
            say("skipping %s: %s", apm_iface_name(iface), reason);
            fmt_snprintf(why, why_size, "%s interface %s", apm_iface_name(iface), reason);
            continue;
        }
        out[n++] = iface;
    }
    return n;
}

bool apm_survey(struct apm_state *s, const struct apm_ports *ports, int only)
{
    enum apm_iface order[APM_IFACE_COUNT];
    char why[APM_WHY_MAX];

    if (!apm_install_check(s))
        return false;
    unsigned n = plan(s, ports, only, false, order, why, sizeof(why));
    for (unsigned i = 0; i < n; i++) {
        if (!apm_connect(s, order[i], ports->iface[order[i]], why, sizeof(why))) {
            say("%s: %s", apm_iface_name(order[i]), why);
            continue;
        }
        apm_query(s);
        apm_disconnect(s);
    }
    return true;
}

void apm_power_off_chain(struct apm_state *s, const struct apm_ports *ports, int only,
                         char *why, unsigned why_size)
{
    enum apm_iface order[APM_IFACE_COUNT];
    char reason[APM_WHY_MAX];
    bool announced = false;

    if (!apm_install_check(s)) {
        fmt_snprintf(why, why_size, "%s", s->reached ? "no APM BIOS"
                                                     : "INT 15h could not be called");
        return;
    }
    unsigned n = plan(s, ports, only, true, order, why, why_size);
    for (unsigned i = 0; i < n; i++) {
        enum apm_iface iface = order[i];

        /* Only the calls power-off needs: GRUB and Syslinux make no others, and
         * Linux's broken_psr quirk shows 530Ah can misbehave (the survey asks). */
        if (apm_connect(s, iface, ports->iface[iface], reason, sizeof(reason))) {
            if (!announced && ports->before_first_off)
                ports->before_first_off(s);
            announced = true;
            if (ports->before_off)
                ports->before_off(s);
            apm_power_off(s, reason, sizeof(reason));   /* returns: it failed */
            apm_disconnect(s);
        } else {
            say("power-off via %s failed: %s", apm_iface_name(iface), reason);
        }
        if (i + 1 < n)
            say("falling back to %s", apm_iface_name(order[i + 1]));
    }
    if (n == 1)
        fmt_snprintf(why, why_size, "power-off via %s failed: %s",
                     apm_iface_name(order[0]), reason);
    else if (n > 1) {
        unsigned len = (unsigned)fmt_snprintf(why, why_size, "power-off failed via");
        for (unsigned i = 0; i < n && len < why_size; i++)
            len += (unsigned)fmt_snprintf(why + len, why_size - len, "%s %s",
                                          i ? (i + 1 == n ? " and" : ",") : "",
                                          apm_iface_name(order[i]));
    }
}
