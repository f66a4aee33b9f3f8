/* wake=: how a standby or suspend ends by itself. In this order: the APM BIOS's
 * resume timer (5311h), where 5310h says it wakes the machine from that state; else
 * the clock's alarm, which wakes the machine where the BIOS resumes on it (its setup's
 * resume by alarm or RTC wake-up), the one CMOS write apmoff makes (system/
 * rtc_alarm.h), put back afterwards; else nothing, which the run says, and the resume
 * key ends it as without wake=. */
#ifndef APMOFF_WAKE_H
#define APMOFF_WAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../apm/apm.h"
#include "../../lib/rtctime.h"
#include "../../system/rtc_alarm.h"

enum wake_way {
    WAKE_BY_KEY,                /* no wake= (or wake=0): the resume key or button */
    WAKE_BY_TIMER,              /* the APM resume timer is set */
    WAKE_BY_ALARM,              /* the clock's alarm is set */
    WAKE_BY_NOTHING,            /* wake= asked, and neither can be set */
};

struct wake {
    enum wake_way way;
    struct rtc_time at;         /* TIMER, ALARM: when */
    struct rtc_alarm_saved saved;   /* ALARM: the registers to put back */
    char how[200];              /* the end of the "requesting standby" line */
};

/* Sets what will end the state `state` (APM_STATE_STANDBY or _SUSPEND) seconds from
 * now (seconds <= 0: the key), saying how, on the connected interface. */
void wake_plan(struct apm_state *s, uint16_t state, int seconds, struct wake *w);

/* After the BIOS returned: what the timer or alarm says now, said; then the timer
 * disabled, or the alarm's registers put back. */
void wake_settle(struct apm_state *s, struct wake *w, const char *name);

#endif
