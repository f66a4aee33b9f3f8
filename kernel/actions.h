/* The actions besides power-off and the survey: the conformance check and the
 * standby/suspend requests. */
#ifndef APMOFF_ACTIONS_H
#define APMOFF_ACTIONS_H

#include "../apm/poweroff.h"

/* action=check: runs the checks, prints the summary and the JSON line, halts. */
void action_check(struct apm_state *s, const struct apm_ports *ports, bool strict)
    __attribute__((noreturn));

/* action=standby / action=suspend (state APM_STATE_STANDBY / _SUSPEND). */
void action_sleep(struct apm_state *s, const struct apm_ports *ports, int only,
                  uint16_t state) __attribute__((noreturn));

#endif
