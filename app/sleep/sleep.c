/* action=standby and action=suspend: see sleep.h. */
#include "sleep.h"
#include "../common/record.h"
#include "wake.h"
#include "../../system/console.h"
#include "../../system/halt.h"
#include "../../system/reset.h"
#include "../../system/rtc.h"
#include "../../system/timer.h"
#include "../../apm/apm_spec.h"
#include "../../apm/apm_text.h"
#include "../../lib/format.h"

#define EVENTS_MAX 16

/* How long the machine was away: by the kernel's clock (system/timer.h: exact, or a
 * lower bound where a BIOS reprogrammed the PIT in the call), and by the RTC, read
 * before and after. */
static void say_away(const char *name, uint32_t ms, bool exact, bool clocked,
                     const struct rtc_time *before, const struct rtc_time *after,
                     uint32_t *away_s)
{
    char a[24], b[24];

    say("%s: the BIOS returned after %s%u ms", name, timer_bound(exact), (unsigned)ms);
    *away_s = 0;
    if (!clocked) {
        say("%s: the clock did not answer before and after: no time away by it", name);
        return;
    }
    uint32_t s0 = rtc_seconds(before), s1 = rtc_seconds(after);
    *away_s = s1 >= s0 ? s1 - s0 : 0;
    rtc_format(before, a, sizeof(a));
    rtc_format(after, b, sizeof(b));
    say("%s: away %u s by the clock (%s to %s)", name, (unsigned)*away_s, a + 11, b + 11);
}

void action_sleep(struct apm_state *s, const struct apm_ports *ports, int only,
                  uint16_t state, int wake)
{
    const char *name = state == APM_STATE_STANDBY ? "standby" : "suspend";
    char why[APM_WHY_MAX];
    uint32_t away;
    struct rtc_time clock_before, clock_after;
    struct wake w;
    const char *no_clock;

    if (!apm_install_check(s))
        halt(HALT_NO_APM, "no APM BIOS");
    enum apm_iface iface = only == APM_IFACE_AUTO ? APM_IFACE_RM : (enum apm_iface)only;
    if (!apm_iface_offered(s, iface))
        halt(HALT_STATE_FAILED, "the chosen interface is not offered by the BIOS");
    if (!apm_connect(s, iface, ports->iface[iface], why, sizeof(why)))
        halt(HALT_STATE_FAILED, why);

    wake_plan(s, state, wake, &w);
    record_leave(state == APM_STATE_STANDBY ? RECORD_STANDBY : RECORD_SUSPEND,
                  apm_iface_name(iface), 1, reset_flag_get());
    bool clocked = rtc_now(&clock_before, &no_clock);
    say("requesting %s via %s; %s", name, apm_iface_name(iface), w.how);
    uint64_t before = timer_us();
    int res = apm_set_power_state(s, state);
    bool exact;
    uint32_t ms = timer_ms_since(before, &exact);
    clocked = clocked && rtc_now(&clock_after, &no_clock);
    say_away(name, ms, exact, clocked, &clock_before, &clock_after, &away);

    for (int i = 0; i < EVENTS_MAX; i++) {
        uint16_t event, info;
        if (apm_get_event(s, &event, &info))
            break;              /* 80h: no more events (or the call failed: it said so) */
        say("%s: PM event %04Xh (%s), info %04Xh", name, event, apm_event_name(event), info);
    }
    wake_settle(s, &w, name);
    apm_disconnect(s);
    if (res) {
        fmt_snprintf(why, sizeof(why), "%s request refused", name);
        halt(HALT_STATE_FAILED, why);
    }
    record_came_back(away);
    fmt_snprintf(why, sizeof(why), "%s complete (action=%s)", name, name);
    halt(HALT_STATE_RETURNED, why);
}
