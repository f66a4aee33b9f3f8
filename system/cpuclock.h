/* The CPU's clock, measured against the PIT: from the TSC where the CPU has one,
 * otherwise from a loop of DIV instructions whose cycle count the 386 and 486
 * manuals give (38 and 40 clocks for DIV r32), so the figure is as good as the
 * CPU's timing is Intel's. */
#ifndef APMOFF_CPUCLOCK_H
#define APMOFF_CPUCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

struct cpu_clock {
    uint32_t khz;               /* 0 when it could not be measured */
    const char *method;         /* "tsc", "div-loop", or "none" */
};

void cpu_clock_measure(const struct cpu_info *c, struct cpu_clock *out);

#endif
