/* The kernel's power-off methods, as one table of ways (app/common/chain.h) indexed
 * by enum method: APM's 5307h on each interface (apm/poweroff.h), ACPI S5
 * (app/power/acpi.h) and UEFI ResetSystem (app/power/efi.h), each given the facts it
 * needs (read then: S5 the FADT and PCI, efi the system table) and leaving the record
 * for the next run before its first write. */
#ifndef APMOFF_POWER_METHODS_H
#define APMOFF_POWER_METHODS_H

#include "kind.h"
#include "../facts/survey.h"
#include "../../survey/softoff.h"
#include "../../apm/poweroff.h"

struct power_context {
    struct survey *sv;          /* the facts, read as a method needs them */
    const struct options *opts;
    struct apm_state *apm;
    int only;                   /* interface=, as the APM layer counts interfaces */
    bool bios_ok;               /* a legacy BIOS answers: APM can be asked */
    struct softoff_plan softoff;/* method=chipset's south bridge, once found */
};

extern const struct way power_ways[METHOD_COUNT];
extern const struct chain_kind power_kind;

/* The APM interfaces, with the hooks before the first off call (the timing line) and
 * before each (the record names the interface). */
extern const struct apm_ports power_apm_ports;

#endif
