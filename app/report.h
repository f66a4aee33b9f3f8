/* The human report of what the boot loader handed over. */
#ifndef APMOFF_REPORT_H
#define APMOFF_REPORT_H

#include "../system/bootinfo.h"

void report_boot(const struct bootinfo *bi);

#endif
