/* The power-off chain and the survey, on top of the APM protocol (apm.h). */
#ifndef APMOFF_POWEROFF_H
#define APMOFF_POWEROFF_H

#include "apm.h"

/* The ports for each interface; NULL where an interface is not available. */
struct apm_ports {
    const struct apm_port *iface[APM_IFACE_COUNT];
    /* Called once, before the first power-off call, with what is known by then (the
     * kernel prints its survey line and timing there). May be NULL. */
    void (*before_first_off)(const struct apm_state *s);
    /* Called before each power-off call, s->iface the interface it goes through (the
     * kernel leaves its record for the next run there). May be NULL. */
    void (*before_off)(const struct apm_state *s);
    /* Whether interface= auto tries iface after the others: its off call ended an
     * earlier run with the power on (an SMI handler that never finished, a BIOS
     * halted with interrupts off), which no watchdog of ours can end. May be NULL. */
    bool (*last)(enum apm_iface iface);
};

#define APM_IFACE_AUTO (-1)

/* Whether the installation-check flags offer an interface (real mode always). */
bool apm_iface_offered(const struct apm_state *s, enum apm_iface iface);

/* Installation check, then each interface in turn (or only `only`, unless it is
 * APM_IFACE_AUTO) until one powers the machine off. Returns only when none did;
 * why receives the reason for the halted line. */
void apm_power_off_chain(struct apm_state *s, const struct apm_ports *ports, int only,
                         char *why, unsigned why_size);

/* Everything but the power-off call: install check, then connect and query each
 * offered interface (or only `only`), disconnecting after each. Returns false when
 * there is no APM BIOS. */
bool apm_survey(struct apm_state *s, const struct apm_ports *ports, int only);

#endif
