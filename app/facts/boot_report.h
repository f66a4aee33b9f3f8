/* The human report of what the boot loader handed over: at the start, the loader, the
 * command line and the memory it found; in the survey, its memory map, a line a
 * range (the power-off path prints no more lines than it needs). */
#ifndef APMOFF_REPORT_H
#define APMOFF_REPORT_H

#include "../../system/bootinfo.h"

void report_boot(const struct bootinfo *bi);
void report_boot_map(const struct bootinfo *bi);

#endif
