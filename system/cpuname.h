/* A name for the CPU in the survey: its brand string when it has one (CPUID
 * 80000002h-80000004h, Pentium 4, Athlon and later), otherwise one made from what
 * the kernel could tell (system/cpu.c), and no more than that:
 *
 *   no CPUID, EFLAGS.AC fixed     "386"      (a 386DX and a 386SX look the same)
 *   no CPUID, AC toggles          "486DX" with an FPU, "486SX" without (a 486SX
 *                                 with a 487 looks like a 486DX)
 *   CPUID, GenuineIntel           family 4 by model (Intel's table): "486DX", "486SX",
 *                                 "486DX2", "486SL", "486SX2", "486DX2WB", "486DX4",
 *                                 "486DX4WB", else "486"; family 5 "Pentium" ("Pentium
 *                                 MMX" when CPUID says MMX); family 6 model 1 "Pentium
 *                                 Pro", 3 and 5 "Pentium II", 6 "Celeron", 7, 8, 10, 11
 *                                 "Pentium III", else "P6 family"
 *   CPUID, AuthenticAMD           family 4 "Am486", models 14-15 "Am5x86"; family 5
 *                                 models 0-3 "K5", 6-7 "K6", 8 "K6-2", 9 and 13
 *                                 "K6-III", else "K5/K6 family"
 *   CPUID, CyrixInstead           family 4 "Cx5x86/MediaGX", 5 "6x86", 6 "6x86MX/MII"
 *   anything else                 "<vendor> family <n>" (or "family <n>")
 *
 * Pure: compiled for the kernel and the host (tests/unit/test_survey_json.c). */
#ifndef APMOFF_CPUNAME_H
#define APMOFF_CPUNAME_H

#include "cpu.h"

/* The name into buf (size bytes); returns buf. */
const char *cpu_name(const struct cpu_info *c, char *buf, unsigned size);

#endif
