/* The summary panel's text: see summary.h. Pure, so the host unit tests build it
 * from filled states; app/show/summaryscreen.c draws it. */
#include "summary.h"
#include "../../lib/format.h"
#include "../../lib/string.h"
#include "../../apm/apm_spec.h"
#include "../../apm/poweroff.h"
#include "../../apm/apm_text.h"

#define LABEL_COLS      11      /* " Machine : " */

struct panel {
    char (*lines)[SUMMARY_COLS + 1];
    unsigned max, count;
};

static void add(struct panel *p, const char *label, const char *text)
{
    if (p->count >= p->max)
        return;
    char *l = p->lines[p->count++];
    unsigned n = (unsigned)fmt_snprintf(l, SUMMARY_COLS + 1, " %s", label);
    while (n < LABEL_COLS - 2)
        l[n++] = ' ';
    fmt_snprintf(l + n, SUMMARY_COLS + 1 - n, "%s %s", *label ? ":" : " ", text);
}

/* Where a line may end: at a space, but not between a number and the word after it
 * ("639 KiB", "APM 1.2" stay whole). */
static bool breakable(const char *text, unsigned i)
{
    bool digit_before = text[i - 1] >= '0' && text[i - 1] <= '9';
    bool word_after = (text[i + 1] | 0x20) >= 'a' && (text[i + 1] | 0x20) <= 'z';

    return text[i] == ' ' && !(digit_before && word_after);
}

/* A long text over several lines under one label, cut at spaces. */
static void add_wrapped(struct panel *p, const char *label, const char *text)
{
    const unsigned width = SUMMARY_COLS - LABEL_COLS;
    char piece[SUMMARY_COLS + 1];

    while (*text) {
        unsigned n = strlen(text);
        if (n > width) {
            n = width;
            while (n > width / 2 && !breakable(text, n))
                n--;
            if (!breakable(text, n))
                n = width;
        }
        memcpy(piece, text, n);
        piece[n] = '\0';
        add(p, label, piece);
        label = "";
        text += n;
        while (*text == ' ')
            text++;
    }
}

static void rule(struct panel *p, const char *title)
{
    if (p->count >= p->max)
        return;
    char *l = p->lines[p->count++];
    unsigned n = (unsigned)fmt_snprintf(l, SUMMARY_COLS + 1, "==== %s ", title);
    while (n < SUMMARY_COLS)
        l[n++] = '=';
    l[n] = '\0';
}

static void machine(struct panel *p, const struct survey *sv)
{
    char text[160];
    const struct smbios_info *sm = &sv->smbios;

    if (sm->have_system && (sm->sys_vendor[0] || sm->sys_product[0]))
        add_wrapped(p, "Machine", (fmt_snprintf(text, sizeof(text), "%s %s", sm->sys_vendor,
                                                sm->sys_product), text));
    if (sm->have_bios)
        fmt_snprintf(text, sizeof(text), "%s %s, %s", sm->bios_vendor, sm->bios_version,
                     sm->bios_date);
    else if (sv->bios_date[0])
        fmt_snprintf(text, sizeof(text), "date %s, model byte %02Xh (no SMBIOS)",
                     sv->bios_date, sv->model_byte);
    else
        fmt_snprintf(text, sizeof(text), "%s firmware", sv->firmware);
    add_wrapped(p, "BIOS", text);

    const struct cpu_info *c = &sv->cpu;
    unsigned n;
    if (c->has_cpuid)
        n = (unsigned)fmt_snprintf(text, sizeof(text), "%s family %u model %u%s%s",
                                   c->vendor, c->family, c->model, c->name[0] ? ", " : "",
                                   c->name);
    else
        n = (unsigned)fmt_snprintf(text, sizeof(text), "%s class (no CPUID), %s", c->class,
                                   c->fpu ? "FPU" : "no FPU");
    if (sv->have_int12 && n < sizeof(text))
        fmt_snprintf(text + n, sizeof(text) - n, "; %u KiB + %u KiB", sv->int12_kb,
                     (unsigned)(sv->map_available_kb > sv->int12_kb
                                    ? sv->map_available_kb - sv->int12_kb : 0));
    add_wrapped(p, "CPU", text);
}

/* action=check connects each interface itself (connect.rm, ...): its verdict, or
 * NULL when the check did not run. */
static const char *check_connect(const struct check_report *rep, enum apm_iface i)
{
    char name[24];

    if (!rep)
        return 0;
    fmt_snprintf(name, sizeof(name), "connect.%s", apm_iface_name(i));
    for (unsigned k = 0; k < rep->count; k++)
        if (!strcmp(rep->results[k].name, name))
            return rep->results[k].verdict == CHECK_PASS ? "connect passed (action=check)"
                 : rep->results[k].verdict == CHECK_FAIL ? "connect failed (action=check)"
                 : "connect skipped (action=check)";
    return 0;
}

static void iface_line(struct panel *p, const struct apm_state *s, enum apm_iface i,
                       const struct check_report *checks)
{
    const struct apm_iface_result *r = &s->ifaces[i];
    char text[200], res[96];
    const char *checked = check_connect(checks, i);

    if (!r->tried && checked)
        fmt_snprintf(text, sizeof(text), "%s", checked);
    else if (!r->tried)
        fmt_snprintf(text, sizeof(text), "%s", apm_iface_offered(s, i)
                                                   ? "not tried" : "not offered by the BIOS");
    else if (!r->connected && r->connect_result == APM_RESULT_INJECTED)
        fmt_snprintf(text, sizeof(text), "connect failure injected (inject=%s-connect), "
                     "BIOS not called", apm_iface_name(i));
    else if (!r->connected)
        fmt_snprintf(text, sizeof(text), "connect %s",
                     apm_result_text(r->connect_result, res, sizeof(res)));
    else
        fmt_snprintf(text, sizeof(text), "connected, APM %X.%X%s%s", r->conn_version >> 8,
                     r->conn_version & 0xFF, r->off_tried ? "; off: " : "",
                     r->off_tried ? r->off_result : "");
    add_wrapped(p, apm_iface_name(i), text);
}

static void apm(struct panel *p, const struct apm_state *s, const struct check_report *checks)
{
    char text[200], flags[160];

    if (!s || !s->reached) {
        add(p, "APM", "not asked");
        return;
    }
    if (!s->present) {
        add(p, "APM", "none: INT 15h AX=5300h says APM is not present");
        return;
    }
    apm_flags_text(s->flags, flags, sizeof(flags));
    fmt_snprintf(text, sizeof(text), "%X.%X, flags %04Xh: %s", s->version >> 8,
                 s->version & 0xFF, s->flags, flags);
    add_wrapped(p, "APM", text);
    for (int i = 0; i < APM_IFACE_COUNT; i++)
        iface_line(p, s, (enum apm_iface)i, checks);
}

/* action=reboot: a line for each method of the list, named as reset= names it. */
static void resets(struct panel *p, const struct summary_input *in)
{
    const struct chain_report *rep = in->resets;
    char text[200];

    for (unsigned i = 0; i < rep->count; i++) {
        resets_outcome_text(in->reset_ways, in->reset_ctx, &rep->tries[i], text,
                            sizeof(text));
        add_wrapped(p, in->reset_ways[rep->tries[i].way].name, text);
    }
}

static void checks(struct panel *p, const struct check_report *rep)
{
    char text[600];
    unsigned n = (unsigned)fmt_snprintf(text, sizeof(text), "%u passed, %u failed, "
                                        "%u skipped", rep->passed, rep->failed,
                                        rep->skipped);
    const char *sep = "; failed: ";
    for (unsigned i = 0; i < rep->count && n < sizeof(text); i++) {
        if (rep->results[i].verdict != CHECK_FAIL)
            continue;
        n += (unsigned)fmt_snprintf(text + n, sizeof(text) - n, "%s%s", sep,
                                    rep->results[i].name);
        sep = ", ";
    }
    add_wrapped(p, "Checks", text);
}

/* A BIOS's APM code runs in System Management Mode, which only some 386s and 486s
 * have: the note names the parts that do for the class the kernel found. Every
 * Pentium has SMM: there, setup is the only thing to check. */
static const char *no_apm_advice(const struct cpu_info *c)
{
    if (!c || !c->class)
        return "enable APM or power management in BIOS setup; a 386 or 486 has APM only "
               "with SMM (386SL, SL-enhanced 486)";
    if (!strcmp(c->class, "386"))
        return "enable APM or power management in BIOS setup; on a 386, APM needs a "
               "386SL or a 386SX with SMM";
    if (!strcmp(c->class, "486") || (c->has_cpuid && c->family == 4))
        return "enable APM or power management in BIOS setup; on a 486, APM needs an "
               "SL-enhanced CPU (SMM)";
    return "enable APM or power management in BIOS setup";
}

static const char *advice(enum halt_code code, const struct survey *sv)
{
    switch (code) {
    case HALT_POWEROFF_FAILED:
        return "check that power management (APM) is enabled in BIOS setup; try irq=on "
               "or bioscall=trampoline; keep the serial log or the survey's QR code "
               "(tools/apmoff-collect reads both)";
    case HALT_NO_APM:
        return no_apm_advice(sv ? &sv->cpu : NULL);
    case HALT_NO_BIOS:
        if (sv && sv->firmware && !strcmp(sv->firmware, "none"))
            return "no firmware to call (no legacy BIOS, no UEFI: QEMU's qboot or "
                   "microvm); only ACPI (method=acpi) or the chipset (method=chipset) "
                   "can power off here";
        return "UEFI firmware has no APM: try method=acpi or method=efi, or boot in "
               "legacy (CSM) mode if it offers one";
    case HALT_NO_ACPI:
        return "no ACPI S5 here (a BIOS from before ACPI, or ACPI off in BIOS setup): "
               "try method=apm";
    case HALT_ACPI_STILL_ON:
        return "S5 was written and the board stayed on: try method=apm; keep the serial "
               "log or the survey's QR code (tools/apmoff-collect reads both)";
    case HALT_NO_EFI:
        return "method=efi needs a UEFI boot (GRUB's multiboot 2): try method=acpi";
    case HALT_EFI_STILL_ON:
        return "the firmware came back from ResetSystem: try method=acpi";
    case HALT_DUMP_DONE:
        return "keep the COM1 log: tools/apmoff-collect dump turns it into files";
    case HALT_SURVEY_DONE:
        return "keep the survey: the serial line 'apmoff: survey', or the QR code "
               "(wait=key shows it until a key)";
    case HALT_CHECK_PASSED:
    case HALT_CHECK_FAILED:
    case HALT_CHECK_AS_EXPECTED:
        return "compare with docs/check.md's conformance table; check=strict adds the "
               "reserved-state probe";
    case HALT_STATE_RETURNED:
        return "the BIOS came back; the events it queued are in the log";
    case HALT_STATE_FAILED:
        return "try the other interfaces: interface=pm32 or interface=pm16";
    case HALT_RESET_FAILED:
        return "the machine ran on through each method tried: name others (reset=bios, "
               "reset=triple), try boot=cold; send the serial log";
    case HALT_NO_RESET:
        return "none of reset='s methods is here: name others (reset=kbd,triple)";
    case HALT_NO_CHIPSET:
        return "no soft-off chipset apmoff knows is set up here: try method=apm or "
               "method=acpi; send the survey (its PCI list names the chips)";
    case HALT_CHIPSET_STILL_ON:
        return "the south bridge's soft-off was written and the board stayed on (an AT "
               "supply cannot be cut): try method=apm or method=acpi";
    default:
        return "see the log above (serial has every line)";
    }
}

/* Whether method=acpi has what it writes, as method=acpi itself judges it. */
static bool s5_usable(const struct acpi_s5 *s5)
{
    return s5->found && !acpi_unusable(s5);
}

/* What to do next: the chipset's word when it explains a power-off that did not
 * happen, the halt code's advice otherwise; after APM failed on a machine whose ACPI
 * S5 the survey found, method=acpi first. */
static const char *next_step(const struct summary_input *in, char *buf, size_t size)
{
    const char *text = advice(in->code, in->sv);
    char chip[224];

    /* After check=strict the probe it would suggest has already run. */
    bool check_halt = in->code == HALT_CHECK_PASSED || in->code == HALT_CHECK_FAILED ||
                      in->code == HALT_CHECK_AS_EXPECTED;
    if (check_halt && in->checks && in->checks->strict)
        text = "compare with docs/check.md's conformance table";

    if (in->code == HALT_POWEROFF_FAILED && in->sv && in->apm && apm_still_on_after_success(in->apm)) {
        const struct chipset_verdict *cs = &in->sv->chipset;
        if (cs->soft_off == SOFT_OFF_NO) {
            fmt_snprintf(chip, sizeof(chip), "%s; switch it off by hand", cs->explain);
            text = chip;
        } else if (cs->soft_off == SOFT_OFF_YES) {
            fmt_snprintf(chip, sizeof(chip), "%s: check BIOS setup's soft-off option and "
                         "that the supply is ATX", cs->explain);
            text = chip;
        }
    }
    bool apm_failed = in->code == HALT_POWEROFF_FAILED || in->code == HALT_NO_APM ||
                      in->code == HALT_NO_BIOS;
    if (apm_failed && in->sv && s5_usable(&in->sv->s5)) {
        fmt_snprintf(buf, size, "ACPI S5 is there: try method=acpi; %s", text);
        return buf;
    }
    if (text == chip) {
        fmt_snprintf(buf, size, "%s", chip);
        return buf;
    }
    return text;
}

unsigned summary_lines(const struct summary_input *in, char lines[][SUMMARY_COLS + 1],
                       unsigned max)
{
    struct panel p = { lines, max, 0 };
    char title[48], text[160], next[288];

    fmt_snprintf(title, sizeof(title), "apmoff %s summary", in->version);
    rule(&p, title);
    if (in->label && in->label[0])
        add(&p, "Label", in->label);
    if (in->sv)
        machine(&p, in->sv);
    if (in->resets)
        resets(&p, in);
    else
        apm(&p, in->apm, in->checks);
    if (in->checks)
        checks(&p, in->checks);
    add_wrapped(&p, "Result", in->reason);
    add_wrapped(&p, "Next", next_step(in, next, sizeof(next)));
    if (in->serial_kind)
        fmt_snprintf(text, sizeof(text), "every line is on COM1 (%Xh, %s), 115200 8N1",
                     in->serial_base, in->serial_kind);
    else
        fmt_snprintf(text, sizeof(text), "no serial port answered: this screen is all");
    add(&p, "Log", text);
    rule(&p, "halted");
    return p.count;
}
