/* CPU identification: see cpu.h. */
#include "cpu.h"
#include "io.h"
#include "../lib/string.h"
#include "../lib/x86.h"

#define CPUID_FEATURE_FPU       (1u << 0)
#define CPUID_FEATURE_TSC       (1u << 4)
#define CPUID_EXT_BRAND_LAST    0x80000004u
#define CR0_EM                  (1u << 2)
#define CR0_TS                  (1u << 3)
#define X87_STATUS_C3           (1u << 14)

/* Can software flip this EFLAGS bit? (A 386 keeps AC at 0; a 486 without CPUID
 * keeps ID at 0.) The flags are restored afterwards. */
static bool eflags_bit_toggles(uint32_t bit)
{
    uint32_t before = read_eflags();
    write_eflags(before ^ bit);
    uint32_t after = read_eflags();
    write_eflags(before);
    return (before ^ after) & bit;
}

void __attribute__((noinline)) cpu_cpuid(uint32_t leaf, uint32_t out[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
                     : "a"(leaf), "c"(0));
}

void __attribute__((noinline)) cpu_wbinvd(void)
{
    __asm__ volatile("wbinvd" ::: "memory");
}

void cpu_clear_cr4(uint32_t bits)
{
    uint32_t cr4;
    __asm__ volatile("movl %%cr4, %0" : "=r"(cr4));
    __asm__ volatile("movl %0, %%cr4" : : "r"(cr4 & ~bits) : "memory");
}

uint64_t __attribute__((noinline)) cpu_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

static bool fpu_present(void)
{
    uint32_t cr0, saved;
    uint16_t status = 0x5A5A;

    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    saved = cr0;
    cr0 &= ~(CR0_EM | CR0_TS);          /* let the x87 instructions run, or be ignored */
    __asm__ volatile("movl %0, %%cr0" : : "r"(cr0));
    __asm__ volatile("fninit; fnstsw %0" : "+m"(status));
    __asm__ volatile("movl %0, %%cr0" : : "r"(saved));
    return status == 0;
}

/* 287 or 387 beside a 386: the 287 closes the number line projectively, so its
 * +infinity compares equal to -infinity; the 387 and every later FPU keep them
 * apart (Intel's classic test, in the 387 manual's "identifying the coprocessor").
 * Opcodes as bytes: the AT&T spelling of the reversed x87 forms is a known trap. */
static bool fpu_is_287(void)
{
    uint32_t cr0, saved;
    uint16_t status;

    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    saved = cr0;
    cr0 &= ~(CR0_EM | CR0_TS);
    __asm__ volatile("movl %0, %%cr0" : : "r"(cr0));
    __asm__ volatile(".byte 0xDB, 0xE3\n\t"      /* FNINIT: every exception masked */
                     ".byte 0xD9, 0xE8\n\t"      /* FLD1 */
                     ".byte 0xD9, 0xEE\n\t"      /* FLDZ */
                     ".byte 0xDE, 0xF9\n\t"      /* FDIVP ST(1), ST: 1 / 0 = +inf */
                     ".byte 0xD9, 0xC0\n\t"      /* FLD ST(0) */
                     ".byte 0xD9, 0xE0\n\t"      /* FCHS: -inf */
                     ".byte 0xDE, 0xD9\n\t"      /* FCOMPP */
                     ".byte 0xDF, 0xE0\n\t"      /* FNSTSW AX */
                     ".byte 0xDB, 0xE3"            /* FNINIT: leave it clean */
                     : "=a"(status));
    __asm__ volatile("movl %0, %%cr0" : : "r"(saved));
    return status & X87_STATUS_C3;
}

static const char *fpu_kind(const struct cpu_info *c)
{
    if (!c->fpu)
        return "none";
    if (strcmp(c->class, "386"))
        return "integrated";    /* a 486DX and later; a 487SX is a whole 486DX */
    return fpu_is_287() ? "287" : "387";
}

static void copy_regs(char *dst, const uint32_t *regs, int n)
{
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            dst[i * 4 + b] = (char)(regs[i] >> (8 * b));
}

void cpu_detect(struct cpu_info *c)
{
    uint32_t r[4];

    memset(c, 0, sizeof(*c));
    c->fpu = fpu_present();
    if (!eflags_bit_toggles(X86_EFLAGS_AC)) {
        c->class = "386";
        c->fpu_kind = fpu_kind(c);
        return;
    }
    if (!eflags_bit_toggles(X86_EFLAGS_ID)) {
        c->class = "486";
        c->fpu_kind = fpu_kind(c);
        return;
    }
    c->class = "cpuid";
    c->has_cpuid = true;
    cpu_cpuid(0, r);
    uint32_t max_leaf = r[0];
    uint32_t vendor[3] = { r[1], r[3], r[2] };  /* EBX, EDX, ECX spell the name */
    copy_regs(c->vendor, vendor, 3);
    if (max_leaf >= 1) {
        cpu_cpuid(1, r);
        c->stepping = r[0] & 0xF;
        c->model = (r[0] >> 4) & 0xF;
        c->family = (r[0] >> 8) & 0xF;
        if (c->family == 0xF)
            c->family += (r[0] >> 20) & 0xFF;
        if (c->family == 0x6 || c->family >= 0xF)
            c->model |= ((r[0] >> 16) & 0xF) << 4;
        c->features_edx = r[3];
        c->fpu = c->fpu || (r[3] & CPUID_FEATURE_FPU);
        c->tsc = r[3] & CPUID_FEATURE_TSC;
    }
    c->fpu_kind = fpu_kind(c);
    cpu_cpuid(0x80000000u, r);
    if (r[0] >= CPUID_EXT_BRAND_LAST && r[0] < 0x8000FFFFu) {
        uint32_t brand[12];
        for (uint32_t i = 0; i < 3; i++)
            cpu_cpuid(0x80000002u + i, brand + i * 4);
        copy_regs(c->name, brand, 12);
        /* Printable ASCII only; brand strings are often padded with spaces. */
        int start = 0, end = 48;
        while (c->name[start] == ' ')
            start++;
        while (end > start && (c->name[end - 1] == ' ' || c->name[end - 1] == '\0'))
            end--;
        memmove(c->name, c->name + start, (size_t)(end - start));
        c->name[end - start] = '\0';
        for (char *p = c->name; *p; p++)
            if (*p < 0x20 || *p > 0x7E)
                *p = '?';
    }
}
