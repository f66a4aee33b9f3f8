/* The kernel's power-off methods: see methods.h. */
#include "methods.h"
#include "acpi.h"
#include "chipset.h"
#include "efi.h"
#include "../common/record.h"
#include "../../apm/ports.h"
#include "../../system/console.h"
#include "../../system/reset.h"
#include "../../system/timer.h"
#include "../../lib/format.h"
#include "../../lib/string.h"
#include "../../lib/x86.h"

static void say_timing(void)
{
    bool exact = timer_exact_since(0);
    uint64_t us = timer_us();

    say("timing: entry to power-off call %s%u us", timer_bound(exact),
        (unsigned)(us >> 32 ? 0xFFFFFFFFu : us));
}

static void before_first_off(const struct apm_state *s)
{
    (void)s;
    say_timing();
}

/* Before each APM off call: the record for the next run names the interface. */
static void before_off(const struct apm_state *s)
{
    static unsigned attempt;

    record_leave(RECORD_OFF, apm_iface_name(s->iface), ++attempt, reset_flag_get());
}

static bool tried_last(enum apm_iface iface)
{
    return record_stuck(apm_iface_name(iface));
}

const struct apm_ports power_apm_ports = {
    .iface = {
        [APM_IFACE_RM] = &apm_port_rm,
        [APM_IFACE_PM32] = &apm_port_pm32,
        [APM_IFACE_PM16] = &apm_port_pm16,
    },
    .before_first_off = before_first_off,
    .before_off = before_off,
    .last = tried_last,
};

/* Why a power-off the firmware accepted may leave the machine on: the board. */
static void say_chipset(struct survey *sv)
{
    facts_need(sv, FACTS_PCI);
    say("chipset: %s: %s", sv->chipset.name[0] ? sv->chipset.name : "unknown",
        sv->chipset.explain);
}

static const char *apm_missing(void *ctx, unsigned way)
{
    const struct power_context *c = ctx;
    (void)way;
    return c->bios_ok ? 0 : "no APM: no legacy BIOS";
}

static enum way_result apm_off(void *ctx, unsigned way, unsigned attempt, char *why,
                               unsigned size)
{
    struct power_context *c = ctx;
    (void)way;
    (void)attempt;
    apm_power_off_chain(c->apm, &power_apm_ports, c->only, why, size);
    if (apm_still_on_after_success(c->apm))
        say_chipset(c->sv);
    return c->apm->present ? WAY_STILL_ON : WAY_ABSENT;
}

/* Before the first port write of a method that is not APM: the time from entry, and
 * the record for the next run (40:72h only where a legacy BIOS keeps it). */
static void announce(void *ctx, const char *method)
{
    const struct power_context *c = ctx;

    say_timing();
    record_leave(RECORD_OFF, method, 1, c->bios_ok ? reset_flag_get() : 0);
}

static enum way_result acpi_off(void *ctx, unsigned way, unsigned attempt, char *why,
                                unsigned size)
{
    struct power_context *c = ctx;
    struct survey *sv = c->sv;
    (void)way;
    (void)attempt;
    facts_need(sv, FACTS_ACPI | FACTS_PCI);     /* the tables, \_S5_, the PCI mechanism */
    const struct acpi_off a = {
        .s5 = &sv->s5, .bi = sv->bi, .pci_mech = sv->pci.mech, .run_aml = c->opts->pts,
        .can_flush = strcmp(sv->cpu.class, "386") != 0,
        .announce = announce, .ctx = c,
    };
    enum way_result r = acpi_power_off(&a, why, size);
    if (r == WAY_STILL_ON)      /* S5 was written: whether the board can cut power */
        say_chipset(sv);
    return r;
}

static const char *efi_missing(void *ctx, unsigned way)
{
    static char why[CHAIN_WHY_MAX];
    struct power_context *c = ctx;
    (void)way;
    facts_need(c->sv, FACTS_EFI);       /* the system table and ResetSystem's place */
    if (!c->sv->efi_why)
        return 0;
    fmt_snprintf(why, sizeof(why), "no UEFI ResetSystem: %s", c->sv->efi_why);
    return why;
}

static enum way_result efi_off(void *ctx, unsigned way, unsigned attempt, char *why,
                               unsigned size)
{
    struct power_context *c = ctx;
    const struct cpu_info *cpu = &c->sv->cpu;
    (void)way;
    (void)attempt;
    const struct efi_off e = {
        .efi = &c->sv->efi, .sse = cpu->has_cpuid && (cpu->features_edx & X86_CPUID_EDX_SSE),
        .inject = c->opts->inject, .announce = announce, .ctx = c,
    };
    return efi_power_off(&e, why, size);
}

/* Which south bridge, from the PCI walk: one of the soft-off table, or why none. */
static const char *chipset_missing(void *ctx, unsigned way)
{
    static char why[CHAIN_WHY_MAX];
    struct power_context *c = ctx;
    struct survey *sv = c->sv;
    (void)way;
    facts_need(sv, FACTS_PCI);
    if (sv->pci.mech == PCI_MECH_NONE)
        return "no chipset soft-off: no PCI (an ISA board has no south bridge to ask)";
    softoff_find(&sv->pci, &c->softoff);
    if (c->softoff.chip)
        return 0;
    fmt_snprintf(why, sizeof(why), "no chipset soft-off: %s is not in apmoff's soft-off "
                 "table (%s)", sv->chipset.name[0] ? sv->chipset.name : "the chipset",
                 sv->chipset.explain);
    return why;
}

static enum way_result chipset_off(void *ctx, unsigned way, unsigned attempt, char *why,
                                   unsigned size)
{
    struct power_context *c = ctx;
    const struct chipset_off o = {
        .plan = c->softoff, .mech = c->sv->pci.mech, .announce = announce, .ctx = c,
    };
    (void)way;
    (void)attempt;
    return chipset_power_off(&o, why, size);
}

const struct way power_ways[METHOD_COUNT] = {
    [METHOD_APM] = { "apm", apm_missing, 0, apm_off, HALT_NO_APM, HALT_POWEROFF_FAILED },
    [METHOD_ACPI] = { "acpi", 0, 0, acpi_off, HALT_NO_ACPI, HALT_ACPI_STILL_ON },
    [METHOD_EFI] = { "efi", efi_missing, 0, efi_off, HALT_NO_EFI, HALT_EFI_STILL_ON },
    [METHOD_CHIPSET] = { "chipset", chipset_missing, 0, chipset_off, HALT_NO_CHIPSET,
                         HALT_CHIPSET_STILL_ON },
};

const struct chain_kind power_kind = POWER_KIND;
