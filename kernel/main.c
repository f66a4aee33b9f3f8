/* kmain: the whole run, top to bottom.
 *
 * Called from boot/entry.asm with the multiboot magic and information address, in
 * 32-bit protected mode with interrupts off (they stay off in protected mode: only
 * the BIOS, in real mode, may enable them). */
#include "bootinfo.h"
#include "console.h"
#include "descriptors.h"
#include "halt.h"
#include "options.h"
#include "report.h"
#include "../apm/poweroff.h"
#include "../apm/ports.h"
#include "../realmode/bios.h"
#include "../realmode/v86test.h"

#define APMOFF_VERSION "0.1"

void kmain(uint32_t magic, uint32_t info);

/* inject= bits are the APM layer's injection bits, by construction. */
_Static_assert(INJECT_RM_OFF == APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_OFF), "inject");
_Static_assert(INJECT_PM32_CONNECT == APM_INJECT_BIT(APM_IFACE_PM32, APM_STEP_CONNECT),
               "inject");
_Static_assert(INJECT_PM16_OFF == APM_INJECT_BIT(APM_IFACE_PM16, APM_STEP_OFF), "inject");

void kmain(uint32_t magic, uint32_t info)
{
    static struct bootinfo bi;
    static struct apm_state apm;
    struct options opts;
    char text[160];

    descriptors_init();
    console_init();
    say("apmoff %s: APM power-off and BIOS survey", APMOFF_VERSION);

    bootinfo_parse(&bi, magic, info, 0);
    if (!bi.protocol)
        say("warning: boot magic %08Xh is not multiboot's; no options, no memory map",
            (unsigned)magic);
    report_boot(&bi);

    options_defaults(&opts);
    options_parse(&opts, bi.cmdline);
    halt_set_onfail(opts.onfail);
    options_describe(&opts, text, sizeof(text));
    say("options: %s", text);

    enum bios_path path =
        opts.bioscall == BIOSCALL_V86 ? BIOS_PATH_V86 : BIOS_PATH_TRAMPOLINE;
    if (!bios_init(&bi, path, text, sizeof(text)))
        halt(HALT_NO_BIOS, text);
    if (path == BIOS_PATH_V86)
        apm_port_rm_tag_v86();
    if (opts.v86test != V86TEST_OFF) {
        int failed = v86_selftest(opts.v86test);
        say("v86test: %s", failed ? "FAILED" : "passed");
    }

    static const struct apm_ports ports = { .iface = {
        [APM_IFACE_RM] = &apm_port_rm,
        [APM_IFACE_PM32] = &apm_port_pm32,
        [APM_IFACE_PM16] = &apm_port_pm16,
    } };
    static const int only[] = {
        [IFACE_AUTO] = APM_IFACE_AUTO,
        [IFACE_RM] = APM_IFACE_RM,
        [IFACE_PM32] = APM_IFACE_PM32,
        [IFACE_PM16] = APM_IFACE_PM16,
    };
    apm_ports_allow_interrupts(opts.irq == SWITCH_ON);
    apm_init(&apm, &apm_port_rm, (unsigned)opts.inject);

    if (opts.action == ACTION_SURVEY) {
        if (!apm_survey(&apm, &ports, only[opts.interface]))
            halt(HALT_NO_APM, "no APM BIOS");
        halt(HALT_DONE, "survey complete (action=survey)");
    }
    apm_power_off_chain(&apm, &ports, only[opts.interface], text, sizeof(text));
    halt(apm.present ? HALT_POWEROFF_FAILED : HALT_NO_APM, text);
}
