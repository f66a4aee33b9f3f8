/* What CPU this is, found without instructions it may lack: EFLAGS.AC tells a 386
 * from a 486, EFLAGS.ID tells whether CPUID exists, and only then is CPUID used.
 * The FPU is probed with FNINIT/FNSTSW, which a CPU without one ignores. */
#ifndef APMOFF_CPU_H
#define APMOFF_CPU_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_info {
    const char *class;          /* "386", "486" or "cpuid" */
    bool has_cpuid;
    char vendor[13];
    char name[49];              /* brand string, when the CPU has one */
    unsigned family, model, stepping;
    uint32_t features_edx;
    bool fpu;
    const char *fpu_kind;       /* "none", "287", "387" (beside a 386) or "integrated" */
    bool tsc;
};

void cpu_detect(struct cpu_info *c);

/* The only functions that execute CPUID and RDTSC; callers check has_cpuid / tsc
 * first (tests/check_insns.py allows these two and nothing else). */
void cpu_cpuid(uint32_t leaf, uint32_t out[4]);
uint64_t cpu_rdtsc(void);
/* WBINVD, for the v86 monitor when the BIOS's own trapped as privileged (#GP): a
 * CPU without it raises #UD instead, so it is there (tests/check_insns.py). */
void cpu_wbinvd(void);
/* Clears bits of CR4; only on a CPU whose CPUID says it has them. */
void cpu_clear_cr4(uint32_t bits);

#endif
