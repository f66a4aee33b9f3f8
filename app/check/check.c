/* action=check: see actions.h. */
#include "check.h"
#include "../../system/console.h"
#include "../../lib/format.h"
#include "../../system/halt.h"
#include "../../lib/json.h"
#include "../dump/dump.h"
#include "../power/acpi.h"
#include "../show/summary.h"
#include "../../apm/apm_spec.h"
#include "../../apm/check.h"
#include "../../apm/checklist.h"
#include "../../apm/apm_text.h"

/* method=efi's prospects: whether the runtime services' ResetSystem is there. */
static const char *check_efi(const struct survey *sv)
{
    const char *why = sv->efi_why;
    if (why)
        say("check: efi: method=efi would find no ResetSystem: %s", why);
    else
        say("check: efi: ResetSystem at %08Xh (%s firmware)", (unsigned)sv->efi.reset_system,
            sv->efi.efi64 ? "x64" : "ia32");
    return why;
}

/* action=reboot's prospects: each reset method, there with what it would write, or
 * why not. Nothing is written to learn them. */
static void check_resets(struct reset_context *c)
{
    char what[96];

    for (unsigned m = RESET_NONE + 1; m < RESET_COUNT; m++) {
        const struct way *w = &reset_ways[m];
        const char *missing = w->missing(c, m);
        if (missing) {
            say("check: reset: %s: %s", w->name, missing);
            continue;
        }
        w->describe(c, m, what, sizeof(what));
        say("check: reset: %s: here (%s)", w->name, what);
    }
}

/* What wakes the machine by itself from standby or suspend (wake=), as 5310h said. */
static void check_wake(const struct apm_state *s)
{
    char text[200];

    if (!s->have_caps) {
        say("check: apm: no 5310h capabilities (APM %X.%X): no resume timer to wake the "
            "machine (wake= would set the clock's alarm)", s->version >> 8,
            s->version & 0xFF);
        return;
    }
    apm_capabilities_text(s->capabilities, text, sizeof(text));
    say("check: apm: 5310h capabilities %04Xh: %s", s->capabilities,
        s->capabilities ? text : "none: no resume timer or ring to wake the machine");
}

void action_check_no_bios(const struct survey *sv, struct reset_context *resets,
                          const char *why)
{
    struct acpi_check_facts acpi;
    acpi_check(&sv->s5, &sv->aml, &acpi);
    check_efi(sv);
    check_resets(resets);
    dump_prospect(sv);
    say("check: apm: not checked: %s", why);
    halt(HALT_NO_BIOS, why);
}

void action_check(struct apm_state *s, const struct apm_ports *ports, bool strict,
                  const struct survey *sv, struct reset_context *resets)
{
    const struct smbios_info *sm = &sv->smbios;
    const struct chipset_verdict *cs = &sv->chipset;
    static struct check_report rep;
    char line[2048];                /* the stack's 64 KiB, not BSS */
    char reason[160];
    struct json j;
    struct acpi_check_facts acpi;

    acpi_check(&sv->s5, &sv->aml, &acpi);
    const char *efi_why = check_efi(sv);
    check_resets(resets);
    dump_prospect(sv);
    if (!apm_check(s, ports, strict, &rep))
        halt(HALT_NO_APM, "no APM BIOS");
    check_wake(s);
    const struct check_list *list = 0;
    if (sm->have_bios)
        list = check_list_find(check_lists, check_list_count, sm->bios_vendor,
                               sm->bios_version);
    if (!list) {
        /* No SMBIOS, or one no list knows: the ROM's own banners may still name it. */
        const char *banners[ROMID_STRINGS_MAX];
        for (unsigned i = 0; i < sv->rom.count; i++)
            banners[i] = sv->rom.strings[i];
        list = check_list_find_rom(check_lists, check_list_count, banners, sv->rom.count);
    }
    unsigned differences = list ? check_list_compare(list, &rep) : 0;

    json_init(&j, line, sizeof(line));
    json_object(&j, 0);
    json_uint(&j, "schema", 1);
    json_uint(&j, "passed", rep.passed);
    json_uint(&j, "failed", rep.failed);
    json_uint(&j, "skipped", rep.skipped);
    if (list) {
        json_string(&j, "expected_list", list->bios);
        json_uint(&j, "differences", differences);
    }
    /* Whether the board can switch itself off at all: what 5307h's checks cannot
     * tell, since check never asks for off. */
    json_string(&j, "chipset_soft_off", chipset_soft_off_name(cs->soft_off));
    /* method=acpi's prospects: no power state was changed to learn them. */
    json_object(&j, "acpi");
    json_string(&j, "s5", acpi.unusable ? acpi.unusable : "usable");
    if (!acpi.unusable) {
        json_uint(&j, "slp_typa", sv->s5.aml.slp_typa);
        json_uint(&j, "slp_typb", sv->s5.aml.slp_typb);
        json_uint(&j, "pm1a_cnt", sv->s5.tables.fadt.pm1a_cnt);
        json_bool(&j, "sci_en", acpi.sci_en);
        json_bool(&j, "smi_can_enable", acpi.smi_can_enable);
    }
    if (sv->aml.loaded)
        json_string(&j, "pts", !sv->aml.pts ? "absent" : sv->aml.pts_ok ? "ok"
                                                        : sv->aml.pts_why);
    json_end(&j);
    json_string(&j, "efi_reset_system", efi_why ? efi_why : "usable");
    reset_offer_json(&j, reset_offer_all(resets));
    if (s->have_caps)
        json_hex(&j, "apm_capabilities", s->capabilities, 4);
    json_object(&j, "checks");
    for (unsigned i = 0; i < rep.count; i++)
        json_string(&j, rep.results[i].name, check_verdict_name(rep.results[i].verdict));
    json_end(&j);
    json_end(&j);
    if (json_ok(&j))
        say_json("check", line);
    summary_set_checks(&rep);
    say("check: chipset %s: soft-off %s: %s", cs->name[0] ? cs->name : "unknown",
        chipset_soft_off_name(cs->soft_off), cs->explain);
    int n = fmt_snprintf(reason, sizeof(reason),
                         "check complete: %u passed, %u failed, %u skipped", rep.passed,
                         rep.failed, rep.skipped);
    if (!list) {
        if (rep.failed)
            say("check: no expected list for this BIOS (SMBIOS \"%s\" \"%s\"): "
                "every FAIL counts", sm->have_bios ? sm->bios_vendor : "",
                sm->have_bios ? sm->bios_version : "");
        halt(rep.failed ? HALT_CHECK_FAILED : HALT_CHECK_PASSED, reason);
    }
    if (differences) {
        say("check: %u difference%s from the expected list for %s", differences,
            differences == 1 ? "" : "s", list->bios);
        fmt_snprintf(reason + n, sizeof(reason) - (unsigned)n,
                     "; %u difference%s from the expected list for %s", differences,
                     differences == 1 ? "" : "s", list->bios);
        halt(HALT_CHECK_FAILED, reason);
    }
    say("check: matches the expected list for %s", list->bios);
    fmt_snprintf(reason + n, sizeof(reason) - (unsigned)n,
                 "; matches the expected list for %s", list->bios);
    halt(rep.failed ? HALT_CHECK_AS_EXPECTED : HALT_CHECK_PASSED, reason);
}
