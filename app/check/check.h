/* action=check: the APM conformance checks, and what each other way to act would
 * find here (method=acpi's S5, method=efi's ResetSystem, each reset= method), learned
 * without changing any power state. */
#ifndef APMOFF_ACTION_CHECK_H
#define APMOFF_ACTION_CHECK_H

#include "../../apm/poweroff.h"
#include "../facts/survey.h"
#include "../reset/ways.h"

/* action=check without a legacy BIOS (UEFI): what can be checked without one (ACPI
 * S5, EFI, the resets), then the halt that says why APM could not be. */
void action_check_no_bios(const struct survey *sv, struct reset_context *resets,
                          const char *why) __attribute__((noreturn));

/* action=check: runs the checks, prints the summary and the JSON line (with the
 * chipset's soft-off verdict from sv), compares the verdicts with the list shipped
 * for this BIOS (apm/checklist.h; chosen by sv's SMBIOS identity) when there is one,
 * and halts: HALT_CHECK_PASSED when nothing failed, HALT_CHECK_AS_EXPECTED when every
 * verdict is the list's, HALT_CHECK_FAILED otherwise. */
void action_check(struct apm_state *s, const struct apm_ports *ports, bool strict,
                  const struct survey *sv, struct reset_context *resets)
    __attribute__((noreturn));

#endif
