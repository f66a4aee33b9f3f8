/* action=check, the APM conformance checks (standby and suspend: app/sleep.h, reboot:
 * app/resets.h). */
#ifndef APMOFF_ACTIONS_H
#define APMOFF_ACTIONS_H

#include "../apm/poweroff.h"
#include "survey.h"

/* action=check: runs the checks, prints the summary and the JSON line (with the
 * chipset's soft-off verdict from sv), compares the verdicts with the list shipped
 * for this BIOS (apm/checklist.h; chosen by sv's SMBIOS identity) when there is one,
 * and halts: HALT_CHECK_PASSED when
 * nothing failed, HALT_CHECK_AS_EXPECTED when every verdict is the list's,
 * HALT_CHECK_FAILED otherwise. */
/* action=check without a legacy BIOS (UEFI): what can be checked without one (ACPI
 * S5), then the halt that says why APM could not be. */
void action_check_no_bios(const struct survey *sv, const char *why)
    __attribute__((noreturn));

void action_check(struct apm_state *s, const struct apm_ports *ports, bool strict,
                  const struct survey *sv) __attribute__((noreturn));

#endif
