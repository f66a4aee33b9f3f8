/* wake=: see wake.h. */
#include "wake.h"
#include "../../apm/apm_spec.h"
#include "../../apm/apm_text.h"
#include "../../apm/resume.h"
#include "../../system/console.h"
#include "../../system/rtc.h"
#include "../../lib/format.h"

static const char *state_name(uint16_t state)
{
    return state == APM_STATE_STANDBY ? "standby" : "suspend";
}

/* The clock's alarm, when the BIOS has no resume timer for this state. */
static void plan_alarm(struct wake *w, const char *no_timer)
{
    char at[24];

    rtc_alarm_set(&w->at, &w->saved);
    w->way = WAKE_BY_ALARM;
    rtc_format(&w->at, at, sizeof(at));
    say("wake: %s", no_timer);
    say("wake: the clock's alarm is set for %s (CMOS registers 1, 3, 5 and B's AIE: the "
        "one CMOS write apmoff makes, for wake=, put back afterwards)", at + 11);
    fmt_snprintf(w->how, sizeof(w->how), "the clock's alarm at %s ends it where the BIOS "
                 "resumes on the alarm (its setup's resume by alarm); else press the "
                 "resume key or button", at + 11);
}

void wake_plan(struct apm_state *s, uint16_t state, int seconds, struct wake *w)
{
    struct rtc_time now;
    const char *why;
    char no_timer[240], at[24], caps[160];

    *w = (struct wake){ .way = WAKE_BY_KEY };
    fmt_snprintf(w->how, sizeof(w->how), "press the resume key or button to come back");
    if (seconds <= 0)
        return;
    if (!rtc_now(&now, &why)) {
        w->way = WAKE_BY_NOTHING;
        say("wake: nothing can wake the machine by itself: %s; press the resume key or "
            "button", why);
        return;
    }
    rtc_from_seconds(rtc_seconds(&now) + (uint32_t)seconds, &w->at);
    rtc_format(&w->at, at, sizeof(at));

    int res = apm_get_capabilities(s);
    if (apm_timer_wakes(s, state)) {
        say("wake: the APM resume timer wakes the machine from %s (5310h); setting it "
            "for %s, %d s from now", state_name(state), at, seconds);
        if (!apm_resume_timer_set(s, &w->at)) {
            w->way = WAKE_BY_TIMER;
            fmt_snprintf(w->how, sizeof(w->how), "the APM resume timer ends it at %s, "
                         "%d s from now (or the resume key)", at + 11, seconds);
            return;
        }
        fmt_snprintf(no_timer, sizeof(no_timer), "5311h refused the resume timer");
    } else if (s->conn_version < APM_V1_2) {
        fmt_snprintf(no_timer, sizeof(no_timer), "no APM resume timer on an APM %X.%X "
                     "connection (it came with 1.2)", s->conn_version >> 8,
                     s->conn_version & 0xFF);
    } else if (res) {
        fmt_snprintf(no_timer, sizeof(no_timer), "no APM resume timer (5310h: %s)",
                     apm_result_text(res, caps, sizeof(caps)));
    } else {
        apm_capabilities_text(s->capabilities, caps, sizeof(caps));
        fmt_snprintf(no_timer, sizeof(no_timer), "the APM BIOS's resume timer does not "
                     "wake it from %s (5310h: %04Xh, %s)", state_name(state),
                     s->capabilities, s->capabilities ? caps : "nothing");
    }
    plan_alarm(w, no_timer);
}

void wake_settle(struct apm_state *s, struct wake *w, const char *name)
{
    struct rtc_time now, set;
    const char *why;
    char at[24];

    if (w->way == WAKE_BY_TIMER) {
        int res = apm_resume_timer_get(s, &set);
        if (res == APM_ERR_TIMER_DISABLED)
            say("%s: the resume timer is disabled now: it went off (a BIOS disables it "
                "when it fires)", name);
        if (!res) {
            rtc_format(&set, at, sizeof(at));
            say("%s: the resume timer is still set for %s: something else ended the %s",
                name, at, name);
        }
        apm_resume_timer_disable(s);
    } else if (w->way == WAKE_BY_ALARM) {
        bool came = rtc_now(&now, &why) && rtc_seconds(&now) >= rtc_seconds(&w->at);
        say("%s: the alarm time %s come; the alarm registers and AIE are put back", name,
            came ? "had" : "had not yet");
        rtc_alarm_restore(&w->saved);
    }
}
