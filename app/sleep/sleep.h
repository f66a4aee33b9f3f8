/* action=standby and action=suspend: the state asked of the APM BIOS on one interface
 * (rm unless interface= names another), ended by the resume key or, with wake=, by
 * itself where the machine can do that (app/sleep/wake.h); then how long the machine was
 * away by the clock, what the BIOS queued (530Bh events) and how it came back. The
 * record for the next run says what was asked and, once back, that it came back. */
#ifndef APMOFF_SLEEP_H
#define APMOFF_SLEEP_H

#include <stdint.h>

#include "../../apm/poweroff.h"

/* state: APM_STATE_STANDBY or APM_STATE_SUSPEND; wake: seconds, or <= 0 for the key. */
void action_sleep(struct apm_state *s, const struct apm_ports *ports, int only,
                  uint16_t state, int wake) __attribute__((noreturn));

#endif
