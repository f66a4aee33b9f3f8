/* test_apm cases: waking by time (apm/resume.c): 5310h's resume-timer bits per state,
 * 5311h's registers in BCD whatever the clock's own mode, read back and disabled, and
 * nothing asked of a BIOS older than 1.2. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"
#include "../../apm/resume.h"

void test_resume_timer_wakes(void **state)
{
    (void)state;
    sim.capabilities = APM_CAP_GLOBAL_STANDBY | APM_CAP_GLOBAL_SUSPEND |
                       APM_CAP_TIMER_SUSPEND;
    connect_ok(APM_IFACE_RM);
    assert_false(apm_timer_wakes(&st, APM_STATE_SUSPEND));     /* not asked yet */
    assert_int_equal(apm_get_capabilities(&st), 0);
    assert_call(APM_FN_GET_CAPABILITIES, 0, APM_IFACE_RM, 0x0000, 0x0000);
    assert_true(apm_timer_wakes(&st, APM_STATE_SUSPEND));
    assert_false(apm_timer_wakes(&st, APM_STATE_STANDBY));
    assert_log_has("capabilities 000Bh: global standby, global suspend, resume timer "
                   "from suspend");
}

/* New Year's Eve, 23:59:30 in 2026: CH=30h DL=59h DH=23h SI=1231h DI=2026h. */
void test_resume_timer_bcd(void **state)
{
    struct rtc_time at = { 2026, 12, 31, 23, 59, 30 }, back;
    (void)state;
    connect_ok(APM_IFACE_RM);
    assert_int_equal(apm_resume_timer_set(&st, &at), 0);
    const struct sim_call *c = sim_nth(&sim, APM_FN_RESUME_TIMER, 0);
    assert_non_null(c);
    assert_int_equal(c->bx, APM_DEVICE_BIOS);
    assert_int_equal(c->in.cl, APM_RESUME_TIMER_SET);
    assert_int_equal(c->in.ch, 0x30);
    assert_int_equal(c->in.dl, 0x59);
    assert_int_equal(c->in.dh, 0x23);
    assert_int_equal(c->in.si, 0x1231);
    assert_int_equal(c->in.di, 0x2026);
    assert_int_equal(apm_resume_timer_get(&st, &back), 0);
    assert_memory_equal(&back, &at, sizeof(at));
    assert_int_equal(apm_resume_timer_disable(&st), 0);
    assert_int_equal(sim_nth(&sim, APM_FN_RESUME_TIMER, 2)->in.cl, APM_RESUME_TIMER_DISABLE);
    assert_int_equal(apm_resume_timer_get(&st, &back), APM_ERR_TIMER_DISABLED);
    assert_log_has("5311h failed: error 0Dh: resume timer disabled");
}

void test_resume_timer_1_1(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.capabilities = 0x000F;
    connect_ok(APM_IFACE_RM);
    assert_int_equal(apm_get_capabilities(&st), APM_ERR_UNSUPPORTED);
    assert_calls(APM_FN_GET_CAPABILITIES, 0);
    assert_false(apm_timer_wakes(&st, APM_STATE_STANDBY));
}
