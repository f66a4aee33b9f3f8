/* action=dump: the firmware itself over COM1, block by block, in the checked text
 * format of docs/dump.md, for archives: the system BIOS as mapped and the whole
 * flash below 4 GiB, the option ROMs, every ACPI table, the SMBIOS entry point and
 * table, the BIOS32 directory. The screen shows what is coming, how long it takes at
 * 115200 baud, a privacy note, and the progress; COM1 carries the bytes. Reads memory
 * and writes nothing; the only BIOS calls are the PCI facts' (INT 1Ah B101h) before
 * the blocks, and the entry points' after them (entries.h). */
#ifndef APMOFF_DUMP_H
#define APMOFF_DUMP_H

#include "../../apm/apm.h"
#include "../facts/survey.h"

/* Dumps every block the facts name, reading the groups it needs first, then the entry
 * points (entries.h) through apm. */
void action_dump(struct survey *sv, struct apm_state *apm);

/* action=check's line for it: the blocks action=dump would send and how long that
 * takes, from facts already read; sends nothing. */
void dump_prospect(const struct survey *sv);

#endif
