/* A CPU's name without a brand string: see cpuname.h. */
#include "cpuname.h"
#include "../lib/format.h"
#include "../lib/string.h"

#define CPUID_FEATURE_MMX (1u << 23)

static const char *intel_486[16] = {
    [0] = "486DX", [1] = "486DX", [2] = "486SX", [3] = "486DX2", [4] = "486SL",
    [5] = "486SX2", [7] = "486DX2WB", [8] = "486DX4", [9] = "486DX4WB",
};

static const char *intel(const struct cpu_info *c)
{
    switch (c->family) {
    case 4:
        return c->model < 16 && intel_486[c->model] ? intel_486[c->model] : "486";
    case 5:
        return c->features_edx & CPUID_FEATURE_MMX ? "Pentium MMX" : "Pentium";
    case 6:
        switch (c->model) {
        case 1: return "Pentium Pro";
        case 3: case 5: return "Pentium II";
        case 6: return "Celeron";
        case 7: case 8: case 10: case 11: return "Pentium III";
        default: return "P6 family";
        }
    }
    return 0;
}

static const char *amd(const struct cpu_info *c)
{
    if (c->family == 4)
        return c->model >= 14 ? "Am5x86" : "Am486";
    if (c->family == 5) {
        if (c->model <= 3)
            return "K5";
        if (c->model <= 7)
            return "K6";
        if (c->model == 8)
            return "K6-2";
        if (c->model == 9 || c->model == 13)
            return "K6-III";
        return "K5/K6 family";
    }
    return 0;
}

static const char *cyrix(const struct cpu_info *c)
{
    static const char *names[] = { [4] = "Cx5x86/MediaGX", [5] = "6x86", [6] = "6x86MX/MII" };
    return c->family >= 4 && c->family <= 6 ? names[c->family] : 0;
}

const char *cpu_name(const struct cpu_info *c, char *buf, unsigned size)
{
    const char *name = 0;

    if (c->name[0])
        name = c->name;
    else if (!c->has_cpuid)
        name = !strcmp(c->class, "386") ? "386" : c->fpu ? "486DX" : "486SX";
    else if (!strcmp(c->vendor, "GenuineIntel"))
        name = intel(c);
    else if (!strcmp(c->vendor, "AuthenticAMD"))
        name = amd(c);
    else if (!strcmp(c->vendor, "CyrixInstead"))
        name = cyrix(c);
    if (name)
        fmt_snprintf(buf, size, "%s", name);
    else if (c->vendor[0])
        fmt_snprintf(buf, size, "%s family %u", c->vendor, c->family);
    else
        fmt_snprintf(buf, size, "family %u", c->family);
    return buf;
}
