/* selftest=exception and selftest=idle: see selftest.h. */
#include "selftest.h"
#include "../system/cmos.h"
#include "../system/console.h"
#include "../system/halt.h"
#include "../system/timer.h"
#include "../apm/apm_spec.h"
#include "../apm/ports.h"
#include "../lib/pc.h"
#include "../lib/rtctime.h"

/* The RTC's seconds register, once it changes from `from` (UIP clear: a settled
 * value); false when it never does or reads as no clock. Reads the RTC only. */
static bool next_second(uint8_t from, uint8_t *to)
{
    for (uint32_t i = 0; i < SELFTEST_CLOCK_POLLS; i++) {
        if (cmos_read(RTC_STATUS_A) & RTC_A_UIP)
            continue;
        uint8_t s = cmos_read(RTC_SECONDS);
        if (s != from) {
            *to = s;
            return (cmos_read(RTC_STATUS_B) & RTC_B_BINARY) ? s < 60 : bcd_valid(s);
        }
    }
    return false;
}

/* Waits for n changes of the seconds, from the one just seen. */
static bool seconds_pass(uint8_t *seen, unsigned n)
{
    while (n--)
        if (!next_second(*seen, seen))
            return false;
    return true;
}

static void clock_span(uint8_t *seen, unsigned seconds)
{
    uint64_t start = timer_us();
    if (!seconds_pass(seen, seconds))
        halt(HALT_SELFTEST_DONE, "selftest=clock: the RTC's seconds stopped changing");
    bool exact = timer_exact_since(start);
    uint64_t us = timer_us() - start;
    say("selftest: clock: %u RTC seconds, edge to edge, reading nothing else: %s%u us",
        seconds, timer_bound(exact), (unsigned)(us >> 32 ? 0xFFFFFFFFu : us));
}

void selftest_clock(void)
{
    uint8_t seen = cmos_read(RTC_SECONDS);

    say("selftest: clock: by %s, against the RTC's seconds", timer_source());
    if (!seconds_pass(&seen, 1))
        halt(HALT_SELFTEST_DONE, "selftest=clock: no RTC whose seconds change");
    clock_span(&seen, SELFTEST_CLOCK_SHORT_S);
    clock_span(&seen, SELFTEST_CLOCK_LONG_S);
    halt(HALT_SELFTEST_DONE, "selftest complete (selftest=clock)");
}

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
    char why[APM_WHY_MAX];

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
