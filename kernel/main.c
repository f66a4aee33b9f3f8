/* kmain: the whole run, top to bottom.
 *
 * Called from boot/entry.asm with the multiboot magic and information address, in
 * 32-bit protected mode with interrupts off (they stay off in protected mode: only
 * the BIOS, in real mode, may enable them). */
#include "actions.h"
#include "bootinfo.h"
#include "console.h"
#include "cpu.h"
#include "descriptors.h"
#include "halt.h"
#include "options.h"
#include "report.h"
#include "serial.h"
#include "summary.h"
#include "survey.h"
#include "surveyscreen.h"
#include "timer.h"
#include "vga.h"
#include "../apm/poweroff.h"
#include "../apm/apm_spec.h"
#include "../apm/ports.h"
#include "../realmode/bios.h"
#include "../realmode/v86test.h"
#include "irqtest.h"

#define APMOFF_VERSION "0.1"

void kmain(uint32_t magic, uint32_t info);

/* inject= bits are the APM layer's injection bits, by construction. */
_Static_assert(INJECT_RM_OFF == APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_OFF), "inject");
_Static_assert(INJECT_PM32_CONNECT == APM_INJECT_BIT(APM_IFACE_PM32, APM_STEP_CONNECT),
               "inject");
_Static_assert(INJECT_PM16_OFF == APM_INJECT_BIT(APM_IFACE_PM16, APM_STEP_OFF), "inject");

static struct bootinfo bi;
static struct survey sv;
static char options_text[160];
static char json[SURVEY_JSON_MAX];

static void print_survey(const struct apm_state *apm)
{
    if (survey_json(&sv, &bi, apm, options_text, json, sizeof(json)))
        survey_print_json(json);
    else
        say("warning: the survey does not fit its %u-byte line; not printed",
            SURVEY_JSON_MAX);
}

static void before_first_off(const struct apm_state *apm)
{
    uint32_t us;
    print_survey(apm);
    if (timer_elapsed_us(&us))
        say("timing: entry to power-off call %u us", (unsigned)us);
    else
        say("timing: entry to power-off call n/a (no TSC)");
}

/* INT 10h AX=0003h: 80x25 text, which every later screen (the QR code's mode 12h
 * and back, the summary) expects. */
static void restore_text_mode(void)
{
    if (!vga_bios_set_mode(0x03)) {
        say("screen: text mode could not be set; staying on the framebuffer");
        return;
    }
    console_to_text_mode();
    say("screen: the loader left a %ux%u graphics mode; back to VGA text mode",
        (unsigned)bi.fb.width, (unsigned)bi.fb.height);
}

void kmain(uint32_t magic, uint32_t info)
{
    static struct apm_state apm;
    static const struct apm_ports ports = {
        .iface = {
            [APM_IFACE_RM] = &apm_port_rm,
            [APM_IFACE_PM32] = &apm_port_pm32,
            [APM_IFACE_PM16] = &apm_port_pm16,
        },
        .before_first_off = before_first_off,
    };
    static const int only[] = {
        [IFACE_AUTO] = APM_IFACE_AUTO,
        [IFACE_RM] = APM_IFACE_RM,
        [IFACE_PM32] = APM_IFACE_PM32,
        [IFACE_PM16] = APM_IFACE_PM16,
    };
    struct options opts;
    char why[160];

    static struct cpu_info cpu;

    descriptors_init();
    cpu_detect(&cpu);
    timer_mark_start(cpu.tsc);
    bootinfo_parse(&bi, magic, info, 0);
    /* GRUB's multiboot2 sets a graphics mode for our framebuffer tag on BIOS machines
     * too (a user's own GRUB entry): draw there until the BIOS gives text mode back. */
    bool uefi = bi.efi_system_table || bi.efi_boot_services;
    console_init(bi.have_fb ? &bi.fb : 0);
    say("version %s: APM power-off and BIOS survey", APMOFF_VERSION);
    if (serial_kind())
        say("serial: COM1 (3F8h): %s UART, 115200 baud 8N1", serial_kind());
    else
        say("serial: no UART answers at COM1 (3F8h); this screen is the only output");

    if (!bi.protocol)
        say("warning: boot magic %08Xh is not multiboot's; no options, no memory map",
            (unsigned)magic);
    report_boot(&bi);

    options_defaults(&opts);
    int problems = options_parse(&opts, bi.cmdline);
    if (bi.cmdline_truncated) {
        say("error: the command line is longer than %u bytes; it is refused, not cut",
            BOOTINFO_CMDLINE_MAX - 1);
        problems++;
    }
    halt_set_onfail(opts.onfail);
    if (problems) {
        /* A mistyped word must not power a machine off: nothing runs, and the
         * errors stay the last lines on the screen. */
        say("the command line has %d error%s (above); nothing was done", problems,
            problems == 1 ? "" : "s");
        halt(HALT_OPTION_ERROR, "command line refused");
    }
    options_describe(&opts, options_text, sizeof(options_text));
    say("options: %s", options_text);
    if (opts.label[0])
        say("label: %s", opts.label);
    options_describe_changed(&opts, options_text, sizeof(options_text));

    if (opts.selftest == SELFTEST_EXCEPTION) {
        say("selftest: raising an invalid-opcode exception on purpose");
        __asm__ volatile("ud2");
    }

    enum bios_path path =
        opts.bioscall == BIOSCALL_V86 ? BIOS_PATH_V86 : BIOS_PATH_TRAMPOLINE;
    bool bios_ok = bios_init(&bi, path, why, sizeof(why));
    survey_machine(&sv, &bi, &cpu, bios_ok);
    sv.label = opts.label;
    /* From here on every end of the run draws the summary panel. */
    summary_set_sources(APMOFF_VERSION, opts.label, &sv, &apm);
    halt_set_epilogue(summary_show);
    if (!bios_ok) {
        print_survey(0);
        halt(HALT_NO_BIOS, why);
    }
    if (bi.have_fb && !uefi)
        restore_text_mode();
    if (path == BIOS_PATH_V86)
        apm_port_rm_tag_v86();
    if (opts.v86test != V86TEST_OFF) {
        int failed = v86_selftest(opts.v86test);
        say("v86test: %s", failed ? "FAILED" : "passed");
    }

    apm_ports_allow_interrupts(opts.irq == SWITCH_ON);
    apm_init(&apm, &apm_port_rm, (unsigned)opts.inject);
    if (opts.selftest == SELFTEST_IDLE)
        irq_selftest(&apm, &ports, only[opts.interface]);

    if (opts.action == ACTION_CHECK)
        action_check(&apm, &ports, opts.check == CHECK_STRICT, &sv.smbios);
    if (opts.action == ACTION_STANDBY || opts.action == ACTION_SUSPEND)
        action_sleep(&apm, &ports, only[opts.interface],
                     opts.action == ACTION_STANDBY ? APM_STATE_STANDBY : APM_STATE_SUSPEND);
    if (opts.action == ACTION_SURVEY || opts.action == ACTION_SURVEY_OFF) {
        bool present = apm_survey(&apm, &ports, only[opts.interface]);
        print_survey(&apm);
        survey_screen_show(json, opts.wait);
        if (opts.action == ACTION_SURVEY || !present)
            halt(present ? HALT_SURVEY_DONE : HALT_NO_APM,
                 present ? "survey complete (action=survey)" : "no APM BIOS");
        apm_init(&apm, &apm_port_rm, (unsigned)opts.inject);
    }
    apm_power_off_chain(&apm, &ports, only[opts.interface], why, sizeof(why));
    if (!apm.present)
        print_survey(&apm);
    halt(apm.present ? HALT_POWEROFF_FAILED : HALT_NO_APM, why);
}
