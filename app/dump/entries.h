/* action=dump's last lines: the firmware's protected-mode entry points, which no block
 * of memory holds (the BIOS hands them out in registers): the APM BIOS's 16-bit and
 * 32-bit interfaces from 5302h and 5303h, and the PCI BIOS's 32-bit service from the
 * BIOS32 Service Directory. Each is a line "apmoff: dump: entry: ..." that
 * apmoff-collect copies into the manifest; the code they point into is in the rom
 * blocks already sent. Sent last, since these are the dump's only BIOS calls: one
 * that never returns has lost nothing. */
#ifndef APMOFF_DUMP_ENTRIES_H
#define APMOFF_DUMP_ENTRIES_H

#include "../../apm/apm.h"
#include "../facts/survey.h"

/* Connects and disconnects each APM protected-mode interface the flags offer, and
 * asks the BIOS32 directory for "$PCI"; says what each answered. */
void dump_entries(const struct survey *sv, struct apm_state *apm);

#endif
