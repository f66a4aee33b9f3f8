/* Known BIOSes' expected check verdicts: see checklist.h. */
#include "checklist.h"
#include "../system/console.h"
#include "../lib/string.h"

/* A version ending in '*' names a family: every version that starts with what comes
 * before it (SeaBIOS 1.16.*: the APM code of every 1.16 release is the same). */
static bool version_matches(const char *pattern, const char *version)
{
    size_t n = strlen(pattern);
    if (n && pattern[n - 1] == '*')
        return !strncmp(pattern, version, n - 1);
    return !strcmp(pattern, version);
}

const struct check_list *check_list_find(const struct check_list *lists, unsigned count,
                                         const char *smbios_vendor,
                                         const char *smbios_version)
{
    if (!smbios_vendor || !smbios_version)
        return 0;
    for (unsigned i = 0; i < count; i++)
        for (unsigned k = 0; k < lists[i].id_count; k++) {
            const struct check_identity *id = &lists[i].ids[k];
            if (id->smbios_vendor && !strcmp(id->smbios_vendor, smbios_vendor) &&
                version_matches(id->smbios_version, smbios_version))
                return &lists[i];
        }
    return 0;
}

const struct check_list *check_list_find_rom(const struct check_list *lists, unsigned count,
                                             const char *const *banners, unsigned n)
{
    for (unsigned i = 0; i < count; i++)
        for (unsigned k = 0; k < lists[i].id_count; k++) {
            const char *want = lists[i].ids[k].rom_banner;
            for (unsigned b = 0; want && b < n; b++)
                if (banners[b] && !strcmp(want, banners[b]))
                    return &lists[i];
        }
    return 0;
}

static const struct check_result *ran(const struct check_report *rep, const char *name)
{
    for (unsigned i = 0; i < rep->count; i++)
        if (!strcmp(rep->results[i].name, name))
            return &rep->results[i];
    return 0;
}

static const struct check_expected *listed(const struct check_list *list, const char *name)
{
    for (unsigned i = 0; i < list->count; i++)
        if (!strcmp(list->checks[i].name, name))
            return &list->checks[i];
    return 0;
}

unsigned check_list_compare(const struct check_list *list, const struct check_report *rep)
{
    unsigned differences = 0;

    for (unsigned i = 0; i < list->count; i++) {
        const struct check_expected *e = &list->checks[i];
        const struct check_result *r = ran(rep, e->name);
        if (!r) {
            say("check: differs: %s: expected %s, did not run", e->name,
                check_verdict_name(e->verdict));
            differences++;
        } else if (r->verdict != e->verdict) {
            say("check: differs: %s: expected %s, got %s", e->name,
                check_verdict_name(e->verdict), check_verdict_name(r->verdict));
            differences++;
        } else if (e->verdict == CHECK_FAIL && e->why) {
            say("check: known FAIL %s (%s's): %s", e->name, list->bios, e->why);
        }
    }
    for (unsigned i = 0; i < rep->count; i++)
        if (!listed(list, rep->results[i].name)) {
            say("check: differs: %s: not in the list, got %s", rep->results[i].name,
                check_verdict_name(rep->results[i].verdict));
            differences++;
        }
    return differences;
}
