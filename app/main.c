/* kmain: the whole run, top to bottom, as a list of named steps.
 *
 * Called from boot/entry.asm with the multiboot magic and information address, in
 * 32-bit protected mode with interrupts off (they stay off in protected mode: only
 * the BIOS, in real mode, may enable them). Every action ends in halt(), in the power
 * going off or in a reset: nothing returns to the caller. The first thing said after
 * the boot report is what the previous run's record (app/common/record.h) tells.
 *
 * A power-off or a reset reads only the facts its method needs (app/facts/survey.h):
 * S5 the FADT and the PCI mechanism, a reset the chipset and the FADT, never the
 * ROM's CRC-32 or the disks. The whole survey is read for action=survey and check,
 * and at the end of a run that stays on, where its line and the summary panel come
 * before the halted line. A power-off that works has printed no survey line:
 * action=survey,off is the run that prints both. */
#include "selftest.h"
#include "check/check.h"
#include "dump/dump.h"
#include "common/options.h"
#include "common/record.h"
#include "common/version.h"
#include "facts/boot_report.h"
#include "facts/survey.h"
#include "power/methods.h"
#include "reset/ways.h"
#include "show/summary.h"
#include "show/surveyjson.h"
#include "show/surveyscreen.h"
#include "sleep/sleep.h"
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
static struct power_context power;
static struct reset_context resets;
static char json[SURVEY_JSON_MAX];
static bool bios_ok;            /* a legacy BIOS answers: APM can be asked */
static char bios_why[160];      /* why not, when it does not */

static void print_survey(const struct apm_state *s)
{
    if (survey_json(&sv, &bi, s, reset_offer_all(&resets), options_text, json, sizeof(json)))
        survey_print_json(json);
    else
        say("warning: the survey does not fit its %u-byte line; not printed",
            SURVEY_JSON_MAX);
}

/* The whole survey: every group of facts, and which reset methods are here. */
static void ensure_survey(void)
{
    if (sv.read == FACTS_ALL)
        return;
    facts_need(&sv, FACTS_ALL);
    reset_say_offer(&resets);
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
    record_read_at_boot(&bi);
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

/* The facts, none read yet, and what the power-off methods and the reset methods
 * are given: from here on any step (or the end of the run) may read facts. */
static void start_facts(void)
{
    bool sse = cpu.has_cpuid && (cpu.features_edx & X86_CPUID_EDX_SSE);

    facts_start(&sv, &bi, &cpu, bios_ok);
    sv.label = opts.label;
    sv.version = apmoff_version;
    sv.commit = apmoff_commit;
    sv.record = record_previous();
    power = (struct power_context){
        .sv = &sv, .opts = &opts, .apm = &apm, .only = only_interface(), .bios_ok = bios_ok,
    };
    resets = (struct reset_context){
        .sv = &sv, .cold = opts.boot == BOOT_COLD, .legacy_bios = bios_ok, .sse = sse,
    };
}

/* The way to the BIOS (trampoline or v86 monitor), the facts, and from here on the
 * summary panel at every end of the run. No BIOS: the survey and halt. */
static void start_bios(void)
{
    char *why = bios_why;
    enum bios_path path =
        opts.bioscall == BIOSCALL_TRAMPOLINE ? BIOS_PATH_TRAMPOLINE : BIOS_PATH_V86;
    bios_ok = bios_init(&bi, path, why, sizeof(bios_why));
    start_facts();

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
    if (opts.bioscall == BIOSCALL_V86)
        apm_port_rm_tag_v86();
    if (opts.bioscall == BIOSCALL_AUTO)
        apm_port_rm_watch_off();
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
    bool present = apm_survey(&apm, &power_apm_ports, only_interface());
    print_survey(&apm);
    survey_screen_show(json, sv.video.adapter ? sv.video.adapter : "VGA", opts.wait);
    return present;
}

/* The methods in the user's order, but one whose call ended an earlier run with the
 * power on (the record says) after the others: the watchdogs end a BIOS that loops,
 * never an SMI handler that does, and the next boot should get further. */
static int stuck_last(int methods)
{
    int front = 0, back = 0;
    unsigned nfront = 0, nback = 0;

    for (unsigned i = 0; list_at(methods, i); i++) {
        unsigned m = list_at(methods, i);
        if (record_stuck(power_ways[m].name)) {
            back |= (int)(m << (LIST_BITS * nback++));
            say("method %s goes last: an earlier run never came back from it",
                power_ways[m].name);
        } else {
            front |= (int)(m << (LIST_BITS * nfront++));
        }
    }
    return front | back << (LIST_BITS * nfront);
}

static void __attribute__((noreturn)) power_off(void)
{
    static struct chain_report report;
    char why[256];

    chain_run(&power_kind, power_ways, stuck_last(opts.methods), &power, &report);
    halt(chain_end(power_ways, &report, why, sizeof(why)), why);
}

/* action=reboot: each reset= method in turn (app/reset/resets.h), each said before it is
 * made; the run ends only when the machine still runs after the last. */
static void __attribute__((noreturn)) reboot(void)
{
    static struct chain_report report;
    char why[256];

    summary_set_resets(reset_ways, &resets, &report);
    uint8_t shutdown = cmos_read(CMOS_SHUTDOWN_STATUS);
    if (bios_ok && shutdown)
        say("reset: CMOS shutdown status is %02Xh: POST may resume through 40:67h after a "
            "reset instead of starting over (apmoff writes no CMOS to change it)", shutdown);
    say("reset: boot=%s: 40:72h = %04Xh before each method%s", opts.boot == BOOT_COLD ?
        "cold" : "warm", opts.boot == BOOT_COLD ? BDA_RESET_COLD : BDA_RESET_WARM,
        bios_ok ? "" : " (not written: no legacy BIOS reads it here)");
    chain_run(&reset_kind, reset_ways, opts.resets, &resets, &report);
    halt(resets_end(reset_ways, &report, why, sizeof(why)), why);
}

/* What the last run left is said first, and an action that ends the run within
 * moments (a power-off, a reset) would take it off the screen before anyone read it:
 * after a reset entry the menu's default boots the next run. It stays RECORD_HOLD_S
 * seconds, less if a key is pressed. */
#define RECORD_HOLD_S       10
#define RECORD_POLL_US      100000u

static void hold_record(void)
{
    if (!record_previous() || (opts.action != ACTION_OFF &&
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
        selftest_idle(&apm, &power_apm_ports, only_interface());

    switch (opts.action) {
    case ACTION_CHECK:
        ensure_survey();
        if (!bios_ok) {
            print_survey(0);
            action_check_no_bios(&sv, &resets, bios_why);
        }
        action_check(&apm, &power_apm_ports, opts.check_strict, &sv, &resets);
    case ACTION_STANDBY:
        action_sleep(&apm, &power_apm_ports, only_interface(), APM_STATE_STANDBY, opts.wake);
    case ACTION_SUSPEND:
        action_sleep(&apm, &power_apm_ports, only_interface(), APM_STATE_SUSPEND, opts.wake);
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
    case ACTION_DUMP:
        action_dump(&sv, &apm);
        halt(HALT_DUMP_DONE, "dump complete (action=dump)");
    case ACTION_DUMP_OFF:
        action_dump(&sv, &apm);
        power_off();
    case ACTION_OFF:
        power_off();
    }
    halt(HALT_OPTION_ERROR, "unknown action");
}
