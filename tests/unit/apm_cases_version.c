/* test_apm cases: after the connect, 530Eh version negotiation, then 5308h enable
 * and 530Fh engage with the device ID the connection version uses (FFFFh on 1.0,
 * 0001h on 1.1+, as the APM spec and Linux's APM_DEVICE_BALL have it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

/* 530Eh counted down: 0102h refused, 0101h accepted. */
void test_driver_version_countdown(void **state)
{
    (void)state;
    sim.driver_accept = 1u << 1;        /* only 0101h */
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 2);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0102);
    assert_call(APM_FN_DRIVER_VERSION, 1, APM_IFACE_RM, 0x0000, 0x0101);
    assert_int_equal(st.conn_version, 0x0101);
    assert_log_has("rm: connected, APM 1.1 connection");
}

/* 530Eh refused for every version: carry on as 1.0. */
void test_driver_version_all_refused(void **state)
{
    (void)state;
    sim.driver_accept = 0;
    sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 2);
    assert_call(APM_FN_DRIVER_VERSION, 1, APM_IFACE_RM, 0x0000, 0x0101);
    assert_int_equal(st.conn_version, APM_V1_0);
    assert_log_has("rm: no driver version accepted; speaking APM 1.0");
    assert_log_has("rm: connected, APM 1.0 connection");
    /* and a 1.0 connection is enabled with FFFFh, and not engaged */
    assert_call(APM_FN_ENABLE_PM, 0, APM_IFACE_RM, 0xFFFF, 0x0001);
    assert_calls(APM_FN_ENGAGE_PM, 0);
    assert_true(sim.pm_enabled);
}

/* A 1.1 BIOS asked for 1.2 says the connection is 1.1. */
void test_driver_version_lower_answer(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 1);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0102);
    assert_int_equal(st.conn_version, APM_V1_1);
}

/* An answer above what was asked is not believed: the connection is what we asked. */
void test_driver_version_answer_above_asked(void **state)
{
    (void)state;
    sim.driver_answer = 0x0103;
    connect_ok(APM_IFACE_RM);
    assert_int_equal(st.conn_version, 0x0102);
    assert_log_has("rm: BIOS answered connection version 0103h to our 1.2; using 1.2");

    fixture_reset(APM_V1_2);
    sim.driver_accept = 1u << 1;        /* refuses 0102h, then answers 0101h with 1.2 */
    sim.driver_answer = 0x0102;
    connect_ok(APM_IFACE_RM);
    assert_int_equal(st.conn_version, 0x0101);
    assert_log_has("answered connection version 0102h to our 1.1; using 1.1");
}

/* Non-BCD answers (or AX left at 530Eh by a BIOS that only clears CF). */
void test_driver_version_garbage_answer(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_DRIVER_VERSION, SIM_SUCCESS, 0, 0);
    connect_ok(APM_IFACE_RM);
    assert_int_equal(st.conn_version, 0x0102);
    assert_log_has("answered connection version 530Eh to our 1.2");
}

/* A 1.0 BIOS (or a 0.1 Compaq) gets no 530Eh at all. */
void test_driver_version_not_asked_of_1_0(void **state)
{
    static const uint16_t versions[] = { APM_V1_0, 0x0001 };
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        fixture_reset(versions[i]);
        sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
        connect_ok(APM_IFACE_RM);
        assert_calls(APM_FN_DRIVER_VERSION, 0);
        assert_int_equal(st.conn_version, APM_V1_0);
        assert_log_has("rm: APM 1.0 BIOS: no driver version call; connection is 1.0");
        assert_call(APM_FN_ENABLE_PM, 0, APM_IFACE_RM, 0xFFFF, 0x0001);
        assert_calls(APM_FN_ENGAGE_PM, 0);
    }
}

/* A connect may reset the connection to 1.0: 530Eh after every connect. */
void test_driver_version_after_every_connect(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_DRIVER_VERSION, 3);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0102);
    assert_call(APM_FN_DRIVER_VERSION, 1, APM_IFACE_PM32, 0x0000, 0x0102);
    assert_call(APM_FN_DRIVER_VERSION, 2, APM_IFACE_PM16, 0x0000, 0x0102);
}

/* Flags bit 3: 5308h enable, BX=0001h on a 1.1+ connection. */
void test_enable_pm_1_1(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED;
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_ENABLE_PM, 1);
    assert_call(APM_FN_ENABLE_PM, 0, APM_IFACE_RM, 0x0001, 0x0001);
    assert_call_before(APM_FN_DRIVER_VERSION, 0, APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_ENGAGE_PM, 0);
    assert_true(sim.pm_enabled);
    assert_log_has("rm: 5308h enable/disable power management (BX=0001h CX=0001h)");
    assert_log_has("rm: 5308h ok");
}

/* Flags bit 4: 530Fh engage, 1.1+ only, BX=0001h. */
void test_engage_pm_1_1(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.flags |= APM_FLAG_PM_DISENGAGED;
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_ENGAGE_PM, 1);
    assert_call(APM_FN_ENGAGE_PM, 0, APM_IFACE_RM, 0x0001, 0x0001);
    assert_true(sim.pm_engaged);
}

/* Errors of 5308h/530Fh are reported, not fatal. */
void test_enable_engage_errors_not_fatal(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
    sim_force(&sim, APM_FN_ENABLE_PM, SIM_ERROR, 0x01, 0);
    sim_force(&sim, APM_FN_ENGAGE_PM, SIM_ERROR, 0x0B, 0);
    connect_ok(APM_IFACE_RM);
    assert_true(st.connected);
    assert_log_has("rm: 5308h failed: error 01h: power management functionality disabled");
    assert_log_has("rm: 530Fh failed: error 0Bh: interface not engaged");
}

/* The strict simulated BIOS refuses the device ID of the other version: this
 * checks the choice end to end, not just the register. */
void test_enable_pm_device_id_accepted(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
    connect_ok(APM_IFACE_RM);
    assert_log_lacks("5308h failed");
    assert_log_lacks("530Fh failed");
    assert_true(sim.pm_enabled);
    assert_true(sim.pm_engaged);
}
