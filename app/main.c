/* kmain: the whole run, top to bottom, as a list of named steps.
 *
 * Called from boot/entry.asm with the multiboot magic and information address, in
 * 32-bit protected mode with interrupts off (they stay off in protected mode: only
 * the BIOS, in real mode, may enable them). Every action ends in halt(), in the power
 * going off or in a reset: nothing returns to the caller. The first thing said after
 * the boot report is what the previous run's record (app/lastrun.h) tells.
 *
 * A power-off does only what its call needs first: the survey (the ROM's CRC-32, the
 * memory interfaces, video, disks, SMBIOS, PCI, the firmware's AML) is made when a
 * step needs it (action=survey and check, ACPI S5, the chipset's verdict) and at the
 * end of a run that stays on, where its line and the summary panel come before the
 * halted line. A power-off that works has printed no survey line: action=survey,off
 * is the run that prints both. */
#include "actions.h"
#include "lastrun.h"
#include "method_acpi.h"
#include "method_efi.h"
#include "methods.h"
#include "options.h"
#include "report.h"
#include "reset_ways.h"
#include "selftest.h"
#include "sleep.h"
#include "summary.h"
#include "survey.h"
#include "surveyscreen.h"
#include "version.h"
#include "../system/bootinfo.h"
#include "../system/cmos.h"
#include "../system/console.h"
#include "../system/cpu.h"
#include "../system/descriptors.h"
#include "../system/halt.h"
#include "../system/reset.h"
#include "../system/serial.h"
#include "../system/keyboard.h"
#include "../system/timer.h"
#include "../realmode/bios.h"
#include "../realmode/v86test.h"
#include "../realmode/video.h"
#include "../apm/apm_spec.h"
#include "../apm/ports.h"
#include "../apm/poweroff.h"
#include "../lib/bda.h"
#include "../lib/format.h"
#include "../lib/string.h"
#include "../lib/pc.h"
#include "../lib/x86.h"

void kmain(uint32_t magic, uint32_t info) __attribute__((noreturn));

/* inject= bits are the APM layer's injection bits, by construction. */
_Static_assert(INJECT_RM_OFF == APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_OFF), "inject");
_Static_assert(INJECT_PM32_CONNECT == APM_INJECT_BIT(APM_IFACE_PM32, APM_STEP_CONNECT),
               "inject");
_Static_assert(INJECT_PM16_OFF == APM_INJECT_BIT(APM_IFACE_PM16, APM_STEP_OFF), "inject");

static struct bootinfo bi;
static struct cpu_info cpu;
static struct options opts;
static struct survey sv;
static struct apm_state apm;
static char options_text[320];
static char json[SURVEY_JSON_MAX];
static bool bios_ok;            /* a legacy BIOS answers: APM can be asked */
static bool surveyed;
static char bios_why[160];      /* why not, when it does not */

static void print_survey(const struct apm_state *s)
{
    if (survey_json(&sv, &bi, s, options_text, json, sizeof(json)))
        survey_print_json(json);
    else
        say("warning: the survey does not fit its %u-byte line; not printed",
            SURVEY_JSON_MAX);
}

static void say_timing(void)
{
    bool exact = timer_exact_since(0);
    uint64_t us = timer_us();

    say("timing: entry to power-off call %s%u us", timer_bound(exact),
        (unsigned)(us >> 32 ? 0xFFFFFFFFu : us));
}

/* The survey, made once, when a step first needs it. */
static void ensure_survey(void)
{
    if (surveyed)
        return;
    surveyed = true;
    survey_machine(&sv, &bi, &cpu, bios_ok);
    sv.label = opts.label;
    sv.version = apmoff_version;
    sv.commit = apmoff_commit;
    sv.previous = lastrun_previous();
}

/* Every end but a power-off: the survey line, then the summary panel (halt_set_
 * epilogue()), before the halted line. An option error or an exception leaves its
 * own lines as the last ones (summary_show() draws nothing then). */
static void end_of_run(enum halt_code code, const char *reason)
{
    if (code != HALT_OPTION_ERROR && code != HALT_EXCEPTION) {
        ensure_survey();
        print_survey(bios_ok ? &apm : 0);
    }
    summary_show(code, reason);
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

    lastrun_leave(LASTRUN_OFF, apm_iface_name(s->iface), ++attempt, reset_flag_get());
}

static const struct apm_ports ports = {
    .iface = {
        [APM_IFACE_RM] = &apm_port_rm,
        [APM_IFACE_PM32] = &apm_port_pm32,
        [APM_IFACE_PM16] = &apm_port_pm16,
    },
    .before_first_off = before_first_off,
    .before_off = before_off,
};

/* interface= as the APM layer counts interfaces. */
static int only_interface(void)
{
    static const int only[] = {
        [IFACE_AUTO] = APM_IFACE_AUTO,
        [IFACE_RM] = APM_IFACE_RM,
        [IFACE_PM32] = APM_IFACE_PM32,
        [IFACE_PM16] = APM_IFACE_PM16,
    };
    return only[opts.interface];
}

/* Descriptors, CPU, timer, boot information and the console; the banner and the
 * boot report. */
static void start_platform(uint32_t magic, uint32_t info)
{
    descriptors_init();
    cpu_detect(&cpu);
    timer_start(cpu.tsc);
    bootinfo_parse(&bi, magic, info, 0);
    /* GRUB's multiboot2 sets a graphics mode for our framebuffer tag on BIOS machines
     * too (a user's own GRUB entry): draw there until the BIOS gives text mode back. */
    console_init(bi.have_fb ? &bi.fb : 0);
    say("version %s: APM power-off and BIOS survey", apmoff_version);
    if (serial_kind())
        say("serial: COM1 (%Xh): %s UART, 115200 baud 8N1", serial_base(), serial_kind());
    else
        say("serial: no UART answers at COM1 (the BIOS's first serial port, or 3F8h); "
            "this screen is the only output");
    if (!bi.protocol)
        say("warning: boot magic %08Xh is not multiboot's; no options, no memory map",
            (unsigned)magic);
    say("clock: %s", timer_source());
    report_boot(&bi);
    lastrun_read_at_boot(&bi);
}

/* The command line: a mistyped word must not power a machine off, so any error
 * halts here, with the errors the last lines on the screen. */
static void read_options(void)
{
    options_defaults(&opts);
    int problems = options_parse(&opts, bi.cmdline);
    if (bi.cmdline_truncated) {
        say("error: the command line is longer than %u bytes; it is refused, not cut",
            BOOTINFO_CMDLINE_MAX - 1);
        problems++;
    }
    halt_set_onfail(opts.onfail);
    if (problems) {
        say("the command line has %d error%s (above); nothing was done", problems,
            problems == 1 ? "" : "s");
        halt(HALT_OPTION_ERROR, "command line refused");
    }
    options_describe(&opts, options_text, sizeof(options_text));
    say("options: %s", options_text);
    if (opts.label[0])
        say("label: %s", opts.label);
    options_describe_changed(&opts, options_text, sizeof(options_text));
}

/* INT 10h AX=0003h: 80x25 text, which every later screen (the QR code's mode 12h
 * and back, the summary) expects. */
static void restore_text_mode(void)
{
    if (!bios_set_video_mode(VIDEO_MODE_TEXT_80X25)) {
        say("screen: text mode could not be set; staying on the framebuffer");
        return;
    }
    console_to_text_mode();
    say("screen: the loader left a %ux%u graphics mode; back to VGA text mode",
        (unsigned)bi.fb.width, (unsigned)bi.fb.height);
}

/* The way to the BIOS (trampoline or v86 monitor), the machine survey, and from
 * here on the summary panel at every end of the run. No BIOS: the survey and halt. */
static void start_bios(void)
{
    char *why = bios_why;
    enum bios_path path =
        opts.bioscall == BIOSCALL_V86 ? BIOS_PATH_V86 : BIOS_PATH_TRAMPOLINE;
    bios_ok = bios_init(&bi, path, why, sizeof(bios_why));

    summary_set_sources(apmoff_version, opts.label, &sv, &apm);
    halt_set_epilogue(end_of_run);
    /* Without a BIOS only a power-off by methods other than APM, and the check of
     * those methods, can go on (UEFI machines have ACPI). */
    bool bios_needed = opts.action != ACTION_CHECK && opts.action != ACTION_REBOOT &&
                       (opts.action != ACTION_OFF ||
                        opts.methods == METHOD_LIST_1(METHOD_APM));
    if (!bios_ok && bios_needed)
        halt(HALT_NO_BIOS, why);
    if (!bios_ok) {
        say("bios: %s; APM will be skipped", why);
        return;
    }
    bool uefi = bi.efi_system_table || bi.efi_boot_services;
    if (bi.have_fb && !uefi)
        restore_text_mode();
    if (path == BIOS_PATH_V86)
        apm_port_rm_tag_v86();
    if (opts.v86test != V86TEST_OFF) {
        int failed = v86_selftest(opts.v86test);
        say("v86test: %s", failed ? "FAILED" : "passed");
    }
}

static void start_apm(void)
{
    apm_ports_allow_interrupts(opts.irq);
    apm_init(&apm, &apm_port_rm, (unsigned)opts.inject);
}

/* action=survey and the survey half of action=survey,off: the JSON line and the
 * QR screen. Returns whether an APM BIOS answered. */
static bool survey(void)
{
    ensure_survey();
    bool present = apm_survey(&apm, &ports, only_interface());
    print_survey(&apm);
    survey_screen_show(json, sv.video.adapter ? sv.video.adapter : "VGA", opts.wait);
    return present;
}

/* Before the first port write of a method that is not APM: the time from entry, and
 * the record for the next run. */
static void announce_acpi(void)
{
    say_timing();
    lastrun_leave(LASTRUN_OFF, "acpi", 1, bios_ok ? reset_flag_get() : 0);
}

static void announce_efi(void)
{
    say_timing();
    lastrun_leave(LASTRUN_OFF, "efi", 1, 0);
}

/* Why a power-off the firmware accepted may leave the machine on: the board. */
static void say_chipset(void)
{
    ensure_survey();
    say("chipset: %s: %s", sv.chipset.name[0] ? sv.chipset.name : "unknown",
        sv.chipset.explain);
}

static enum method_result apm_off(char *why, unsigned size)
{
    if (!bios_ok) {
        fmt_snprintf(why, size, "no APM: no legacy BIOS");
        say("apm: %s", why);
        return METHOD_ABSENT;
    }
    apm_power_off_chain(&apm, &ports, only_interface(), why, size);
    if (apm_still_on_after_success(&apm))
        say_chipset();
    return apm.present ? METHOD_STILL_ON : METHOD_ABSENT;
}

static enum method_result acpi_off(char *why, unsigned size)
{
    ensure_survey();                    /* the tables, \_S5_, the AML and the PCI mechanism */
    const struct acpi_off c = {
        .s5 = &sv.s5, .bi = &bi, .pci_mech = sv.pci.mech, .run_aml = opts.pts,
        .can_flush = strcmp(cpu.class, "386") != 0, .announce = announce_acpi,
    };
    enum method_result r = acpi_power_off(&c, why, size);
    if (r == METHOD_STILL_ON)   /* S5 was written: whether the board can cut power */
        say_chipset();
    return r;
}

static enum method_result efi_off(char *why, unsigned size)
{
    ensure_survey();                    /* the system table and ResetSystem's place */
    struct efi_off c = {
        .efi = &sv.efi, .have_system_table = bi.efi_system_table_addr != 0,
        .efi64 = bi.efi64, .sse = cpu.has_cpuid && (cpu.features_edx & X86_CPUID_EDX_SSE),
        .inject = opts.inject, .announce = announce_efi,
    };
    return efi_power_off(&c, why, size);
}

static const struct power_method method_apm = {
    "apm", HALT_NO_APM, HALT_POWEROFF_FAILED, apm_off,
};
static const struct power_method method_acpi = {
    "acpi", HALT_NO_ACPI, HALT_ACPI_STILL_ON, acpi_off,
};
static const struct power_method method_efi = {
    "efi", HALT_NO_EFI, HALT_EFI_STILL_ON, efi_off,
};
static const struct power_method *const methods[METHOD_COUNT] = {
    [METHOD_APM] = &method_apm,
    [METHOD_ACPI] = &method_acpi,
    [METHOD_EFI] = &method_efi,
};

static void __attribute__((noreturn)) power_off(void)
{
    char why[256];
    halt(methods_power_off(methods, opts.methods, why, sizeof(why)), why);
}

/* action=reboot: each reset= method in turn (app/resets.h), each said before it is
 * made; the run ends only when the machine still runs after the last. */
static void __attribute__((noreturn)) reboot(void)
{
    static struct reset_context ctx;
    static struct reset_chain chain;
    static struct reset_report report;
    char why[256];

    ensure_survey();                    /* the 8042, the chipset, the FADT, EFI: the offer */
    ctx = (struct reset_context){
        .offer = &sv.reset, .cold = opts.boot == BOOT_COLD, .legacy_bios = bios_ok,
        .efi = &sv.efi, .efi64 = bi.efi64,
        .sse = cpu.has_cpuid && (cpu.features_edx & X86_CPUID_EDX_SSE),
    };
    reset_ways_chain(&ctx, &chain);
    summary_set_resets(&chain, &report);
    uint8_t shutdown = cmos_read(CMOS_SHUTDOWN_STATUS);
    if (bios_ok && shutdown)
        say("reset: CMOS shutdown status is %02Xh: POST may resume through 40:67h after a "
            "reset instead of starting over (apmoff writes no CMOS to change it)", shutdown);
    say("reset: boot=%s: 40:72h = %04Xh before each method%s", opts.boot == BOOT_COLD ?
        "cold" : "warm", opts.boot == BOOT_COLD ? BDA_RESET_COLD : BDA_RESET_WARM,
        bios_ok ? "" : " (not written: no legacy BIOS reads it here)");
    halt(resets_try(&chain, opts.resets, &report, why, sizeof(why)), why);
}

/* What the last run left is said first, and an action that ends the run within
 * moments (a power-off, a reset) would take it off the screen before anyone read it:
 * after a reset entry the menu's default boots the next run. It stays RECORD_HOLD_S
 * seconds, less if a key is pressed. */
#define RECORD_HOLD_S       10
#define RECORD_POLL_US      100000u

static void hold_record(void)
{
    if (!lastrun_previous() || (opts.action != ACTION_OFF &&
                                opts.action != ACTION_SURVEY_OFF &&
                                opts.action != ACTION_REBOOT))
        return;
    say("record: kept on the screen %d s before action=%s (a key goes on now)",
        RECORD_HOLD_S, options_action_name(opts.action));
    input_flush();
    for (unsigned i = 0; i < RECORD_HOLD_S * (1000000u / RECORD_POLL_US); i++) {
        if (input_poll())
            return;
        pit_delay_us(RECORD_POLL_US);
    }
}

void kmain(uint32_t magic, uint32_t info)
{
    start_platform(magic, info);
    read_options();
    hold_record();
    if (opts.selftest == SELFTEST_EXCEPTION)
        selftest_exception();
    if (opts.selftest == SELFTEST_CLOCK)
        selftest_clock();
    start_bios();
    if (bios_ok)
        start_apm();
    if (opts.selftest == SELFTEST_IDLE && bios_ok)
        selftest_idle(&apm, &ports, only_interface());

    switch (opts.action) {
    case ACTION_CHECK:
        ensure_survey();
        if (!bios_ok) {
            print_survey(0);
            action_check_no_bios(&sv, bios_why);
        }
        action_check(&apm, &ports, opts.check_strict, &sv);
    case ACTION_STANDBY:
        action_sleep(&apm, &ports, only_interface(), APM_STATE_STANDBY, opts.wake);
    case ACTION_SUSPEND:
        action_sleep(&apm, &ports, only_interface(), APM_STATE_SUSPEND, opts.wake);
    case ACTION_REBOOT:
        reboot();
    case ACTION_SURVEY:
        if (!survey())
            halt(HALT_NO_APM, "no APM BIOS");
        halt(HALT_SURVEY_DONE, "survey complete (action=survey)");
    case ACTION_SURVEY_OFF:
        if (!survey() && opts.methods == METHOD_LIST_1(METHOD_APM))
            halt(HALT_NO_APM, "no APM BIOS");
        apm_init(&apm, &apm_port_rm, (unsigned)opts.inject);   /* afresh for the off */
        power_off();
    case ACTION_OFF:
        power_off();
    }
    halt(HALT_OPTION_ERROR, "unknown action");
}
