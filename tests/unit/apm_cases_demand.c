/* test_apm cases: what real 1990s BIOSes need of the power-off request.
 *  - 5308h enable and 530Fh engage only when 5307h answers 01h (disabled) or 0Bh
 *    (disengaged), then one more try: 5308h up front hangs some BIOSes (Linux's
 *    CONFIG_APM_DO_ENABLE, an NEC UltraLite Versa);
 *  - a power-off run makes only the calls power-off needs (GRUB's and Syslinux's
 *    set), since 530Ah misbehaves on some (Linux's broken_psr);
 *  - a 5307h that returns success gets a grace period, interrupts serviced, before
 *    the chain calls it a failure: some BIOSes cut the power a moment later. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

/* Connecting enables and engages nothing, whatever the flags say. */
void test_connect_enables_nothing(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
    connect_ok(APM_IFACE_RM);
    connect_ok(APM_IFACE_PM32);
    assert_calls(APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_ENGAGE_PM, 0);
    assert_log_has("rm: the BIOS says power management is disabled; it is enabled only "
                   "if a request needs it");
}

/* 01h from 5307h: 5308h with the 1.1+ device ID, then 5307h once more. */
void test_off_enables_when_disabled(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED;
    sim.honours_pm_state = true;
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 2);
    assert_calls(APM_FN_ENABLE_PM, 1);
    assert_call(APM_FN_ENABLE_PM, 0, APM_IFACE_RM, 0x0001, 0x0001);
    assert_call_before(APM_FN_SET_POWER_STATE, 0, APM_FN_ENABLE_PM, 0);
    assert_call_before(APM_FN_ENABLE_PM, 0, APM_FN_SET_POWER_STATE, 1);
    assert_true(sim.powered_off);
    assert_log_has("rm: power management is disabled: enabling it, then asking once more");
    assert_int_equal(log_count_matching("powering off via rm (APM 1.2)"), 2);
}

/* Flags say disengaged, on 1.1: 530Fh engage up front (Linux), then 5307h once. */
void test_off_engages_when_disengaged(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.flags |= APM_FLAG_PM_DISENGAGED;
    sim.honours_pm_state = true;
    connect_ok(APM_IFACE_PM16);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_ENGAGE_PM, 1);
    assert_call(APM_FN_ENGAGE_PM, 0, APM_IFACE_PM16, 0x0001, 0x0001);
    assert_call_before(APM_FN_ENGAGE_PM, 0, APM_FN_SET_POWER_STATE, 0);
    assert_calls(APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_true(sim.powered_off);
}

/* 0Bh from 5307h although the flags did not say disengaged: 530Fh, then once more. */
void test_off_engages_on_0bh(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, APM_ERR_NOT_ENGAGED, 0);
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_ENGAGE_PM, 1);
    assert_call_before(APM_FN_SET_POWER_STATE, 0, APM_FN_ENGAGE_PM, 0);
    assert_calls(APM_FN_SET_POWER_STATE, 2);
}

/* On a 1.0 connection "all devices" is FFFFh, and there is no engaging. */
void test_off_enable_1_0_device_id(void **state)
{
    (void)state;
    fixture_reset(APM_V1_0);
    sim.flags |= APM_FLAG_PM_DISABLED;
    sim.honours_pm_state = true;
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_call(APM_FN_ENABLE_PM, 0, APM_IFACE_RM, 0xFFFF, 0x0001);
    assert_true(sim.powered_off);

    fixture_reset(APM_V1_0);
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, APM_ERR_NOT_ENGAGED, 0);
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_ENGAGE_PM, 0);
    assert_calls(APM_FN_SET_POWER_STATE, 1);
}

/* One retry, not a loop; and none when enabling failed. */
void test_off_retried_once(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, APM_ERR_PM_DISABLED, 0);
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 2);
    assert_calls(APM_FN_ENABLE_PM, 1);
    assert_why("5307h error 01h: power management functionality disabled");

    fixture_reset(APM_V1_2);
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, APM_ERR_PM_DISABLED, 0);
    sim_force(&sim, APM_FN_ENABLE_PM, SIM_ERROR, APM_ERR_BAD_DEVICE, 0);
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_calls(APM_FN_ENABLE_PM, 1);
}

/* Standby and suspend get the same treatment. */
void test_sleep_enables_when_disabled(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED;
    sim.honours_pm_state = true;
    connect_ok(APM_IFACE_RM);
    assert_int_equal(apm_set_power_state(&st, APM_STATE_STANDBY), 0);
    assert_calls(APM_FN_SET_POWER_STATE, 2);
    assert_call(APM_FN_SET_POWER_STATE, 1, APM_IFACE_RM, 0x0001, APM_STATE_STANDBY);
}

/* A power-off run: 5300h, 5304h, the connects, 530Eh, 5307h, nothing else. */
void test_off_chain_makes_only_needed_calls(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    for (unsigned i = 0; i < sim.ncalls; i++) {
        uint8_t fn = (uint8_t)sim.calls[i].ax;
        if (fn > APM_FN_DISCONNECT && fn != APM_FN_SET_POWER_STATE &&
            fn != APM_FN_DRIVER_VERSION) {
            fixture_dump();
            fail_msg("call %u: 53%02Xh is not needed to power off", i, fn);
        }
    }
    assert_calls(APM_FN_SET_POWER_STATE, 3);
}

/* 5307h returned success: the rm port waits 3 s before the chain goes on. */
void test_off_success_waits_before_fallback(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_int_equal(sim.waited_ms, 3 * 3000);
    /* the last wait came right after the last 5307h */
    assert_int_equal(sim.waited_after, sim_index(&sim, APM_FN_SET_POWER_STATE, 2) + 1);
    assert_log_has("rm: 5307h returned success; waiting 3 s, interrupts serviced, in case "
                   "the power goes off late");
    assert_log_has("power-off via pm16 failed: 5307h returned success but the machine "
                   "is still on after 3 s");
}

/* An error is not waited on. */
void test_off_error_not_waited(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, APM_ERR_UNABLE_STATE, 0);
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_int_equal(sim.waited_ms, 0);
}

/* After a failed interface the next connect's 5304h answers 03h: said as expected. */
void test_disconnect_03h_said_as_expected(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_log_has("rm: 5304h answered error 03h, as expected: nothing was connected");
    assert_log_lacks("5304h failed: error 03h");
}
