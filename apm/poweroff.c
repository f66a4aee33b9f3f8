/* The power-off chain: see poweroff.h.
 *
 * The order is the sentence "try real mode, then the 32-bit protected-mode interface,
 * then the 16-bit one", each only if this build and the BIOS offer it. Between two
 * attempts the failed interface is disconnected, so the next connect starts clean. */
#include "poweroff.h"
#include "apm_spec.h"
#include "../kernel/console.h"
#include "../kernel/format.h"

static const enum apm_iface chain_order[] = { APM_IFACE_RM, APM_IFACE_PM32, APM_IFACE_PM16 };
#define CHAIN_LENGTH (sizeof(chain_order) / sizeof(chain_order[0]))

bool apm_survey(struct apm_state *s, const struct apm_ports *ports)
{
    char why[96];

    if (!apm_install_check(s))
        return false;
    if (apm_connect(s, APM_IFACE_RM, ports->iface[APM_IFACE_RM], why, sizeof(why))) {
        apm_query(s);
        apm_disconnect(s);
    } else {
        say("rm: %s", why);
    }
    return true;
}

void apm_power_off_chain(struct apm_state *s, const struct apm_ports *ports,
                         char *why, unsigned why_size)
{
    char reason[96];

    if (!apm_install_check(s)) {
        fmt_snprintf(why, why_size, "no APM BIOS");
        return;
    }
    for (unsigned i = 0; i < CHAIN_LENGTH; i++) {
        enum apm_iface iface = chain_order[i];
        const struct apm_port *port = ports->iface[iface];

        if (!port)
            continue;
        if (!apm_connect(s, iface, port, reason, sizeof(reason))) {
            say("power-off via %s failed: %s", apm_iface_name(iface), reason);
            fmt_snprintf(why, why_size, "power-off via %s failed: %s",
                         apm_iface_name(iface), reason);
            continue;
        }
        apm_query(s);
        apm_power_off(s, reason, sizeof(reason));
        fmt_snprintf(why, why_size, "power-off via %s failed: %s", apm_iface_name(iface),
                     reason);
        apm_disconnect(s);
    }
}
