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

#define APMOFF_VERSION "0.1"

void kmain(uint32_t magic, uint32_t info);

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

    if (!bios_init(&bi, BIOS_PATH_TRAMPOLINE, text, sizeof(text)))
        halt(HALT_NO_BIOS, text);

    struct apm_ports ports = { .iface = { [APM_IFACE_RM] = &apm_port_rm } };
    apm_init(&apm, &apm_port_rm, 0);

    if (opts.action == ACTION_SURVEY) {
        if (!apm_survey(&apm, &ports))
            halt(HALT_NO_APM, "no APM BIOS");
        halt(HALT_DONE, "survey complete (action=survey)");
    }
    apm_power_off_chain(&apm, &ports, text, sizeof(text));
    halt(apm.present ? HALT_POWEROFF_FAILED : HALT_NO_APM, text);
}
