/* Waking by time, as APM 1.2 offers it: 5310h's capability flags say whether the
 * BIOS's resume timer wakes the machine from standby and from suspend; 5311h sets,
 * reads and disables that timer (FreeBSD's `apm -r` is the one driver seen using it).
 * The calls go to the connected interface (s->port), like every call after the
 * connect, and are announced and decoded by apm_call(). */
#ifndef APMOFF_APM_RESUME_H
#define APMOFF_APM_RESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "apm.h"
#include "../lib/rtctime.h"

/* 5310h: the capability flags into s (have_caps, capabilities, battery_units);
 * apm_call()'s result. A connection older than 1.2 has no 5310h: APM_ERR_UNSUPPORTED,
 * no call made. */
int apm_get_capabilities(struct apm_state *s);

/* Whether the flags 5310h gave say the resume timer wakes the machine from this
 * state (APM_STATE_STANDBY or APM_STATE_SUSPEND). */
bool apm_timer_wakes(const struct apm_state *s, uint16_t state);

/* 5311h CL=02h: the resume timer set to at (BCD, whatever the clock's own mode). */
int apm_resume_timer_set(struct apm_state *s, const struct rtc_time *at);
/* 5311h CL=01h: when it is set for; APM_ERR_TIMER_DISABLED when it is not (any more:
 * a timer that went off is disabled). */
int apm_resume_timer_get(struct apm_state *s, struct rtc_time *at);
/* 5311h CL=00h. */
int apm_resume_timer_disable(struct apm_state *s);

#endif
