/* selftest=exception and selftest=idle: see selftest.h. */
#include "selftest.h"
#include "../system/console.h"
#include "../system/halt.h"
#include "../system/timer.h"
#include "../apm/apm_spec.h"
#include "../apm/ports.h"

void selftest_exception(void)
{
    say("selftest: raising an invalid-opcode exception on purpose");
    __asm__ volatile("ud2");
    /* The handler prints the dump and halts; coming back here means it did not. */
    halt(HALT_EXCEPTION, "selftest: the invalid opcode came back from its handler");
}

void selftest_idle(struct apm_state *apm, const struct apm_ports *ports, int only)
{
    enum apm_iface iface = only == APM_IFACE_AUTO ? APM_IFACE_PM32 : (enum apm_iface)only;
    char why[96];

    /* Without irq=on the protected-mode interfaces run with every IRQ masked: a BIOS
     * that waits for one would wait for ever. */
    if (iface != APM_IFACE_RM && !apm_ports_interrupts())
        halt(HALT_OPTION_ERROR, "selftest=idle needs irq=on on a protected-mode interface");
    if (!apm_install_check(apm))
        halt(HALT_NO_APM, "no APM BIOS");
    if (!apm_connect(apm, iface, ports->iface[iface], why, sizeof(why)))
        halt(HALT_POWEROFF_FAILED, why);
    say("selftest: idle: tick read window, %u ms with nothing running",
        SELFTEST_READ_WINDOW_US / 1000);
    pit_delay_us(SELFTEST_READ_WINDOW_US);
    unsigned ok = 0;
    for (int i = 0; i < SELFTEST_IDLE_CALLS; i++) {
        struct biosregs r;
        initregs(&r);
        ok += apm_call(apm, ports->iface[iface], APM_FN_CPU_IDLE, &r, 0) == 0;
    }
    say("selftest: idle: %u of %u CPU-idle calls returned ok", ok, SELFTEST_IDLE_CALLS);
    apm_disconnect(apm);
    halt(HALT_SELFTEST_DONE, "selftest complete (selftest=idle)");
}
