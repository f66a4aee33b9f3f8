/* action=dump (#52, work in progress): the firmware itself over COM1, block by block,
 * in the checked text format of docs/dump-wire.md, for archives: the system BIOS, the
 * option ROMs, every ACPI table and the SMBIOS entry point and table. The screen shows
 * what is coming, how long it takes at 115200 baud, a privacy note, and the progress;
 * COM1 carries the bytes. Reads memory only: nothing is written, no BIOS is called. */
#ifndef APMOFF_DUMP_H
#define APMOFF_DUMP_H

#include "../facts/survey.h"

/* Dumps every block the facts name; reads the groups it needs first. */
void action_dump(struct survey *sv);

#endif
