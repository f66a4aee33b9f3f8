/* test_apm cases: after the connect, 530Eh version negotiation. We ask for
 * min(the BIOS's version, 1.2), never more, and accept an answer no newer than what
 * we asked for; anything else counts down, and a BIOS that accepts nothing is spoken
 * to as 1.0. */
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

/* 530Eh refused for every version: carry on as 1.0, and enable nothing up front. */
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
    assert_calls(APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_ENGAGE_PM, 0);
}

/* A 1.1 BIOS is asked for 1.1, not 1.2. */
void test_driver_version_no_more_than_bios(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 1);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0101);
    assert_int_equal(st.conn_version, APM_V1_1);
}

/* FreeBSD's BIOS: a 1.1 BIOS answers a request above its version with 1.0, a
 * connection on which "off" is undefined. Asked for 1.1 only, it speaks 1.1. */
void test_driver_version_too_new_request_avoided(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.driver_answer_too_new = APM_V1_0;
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 1);
    assert_int_equal(st.conn_version, APM_V1_1);
    assert_int_equal(sim.conn_version, APM_V1_1);

    /* a 1.2 BIOS with the same habit is asked nothing above 1.2 either */
    fixture_reset(APM_V1_2);
    sim.driver_answer_too_new = APM_V1_0;
    connect_ok(APM_IFACE_RM);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0102);
    assert_int_equal(st.conn_version, APM_V1_2);
}

/* A BIOS that declares a version below 1.2 yet accepts 1.2 is still asked for its own
 * version only (the answer must be a version the BIOS offers). */
void test_driver_version_lower_answer(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.driver_answer = APM_V1_0;       /* answers 1.0 to our 1.1: lower is accepted */
    connect_ok(APM_IFACE_RM);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0101);
    assert_int_equal(st.conn_version, APM_V1_0);
}

/* An answer above what was asked is no version we asked for: count down. */
void test_driver_version_answer_above_asked(void **state)
{
    (void)state;
    sim.driver_answer = 0x0103;
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_DRIVER_VERSION, 2);
    assert_int_equal(st.conn_version, APM_V1_0);
    assert_log_has("rm: BIOS answered connection version 0103h to our 1.2, which is no "
                   "version we asked for");
    assert_log_has("rm: no driver version accepted; speaking APM 1.0");

    fixture_reset(APM_V1_2);
    sim.driver_accept = 1u << 1;        /* refuses 0102h, then answers 0101h with 1.1 */
    connect_ok(APM_IFACE_RM);
    assert_int_equal(st.conn_version, 0x0101);
}

/* Non-BCD answers (or AX left at 530Eh by a BIOS that only clears CF). */
void test_driver_version_garbage_answer(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_DRIVER_VERSION, SIM_SUCCESS, 0, 0);
    connect_ok(APM_IFACE_RM);
    assert_int_equal(st.conn_version, APM_V1_0);
    assert_log_has("answered connection version 530Eh to our 1.2");
    assert_log_has("answered connection version 530Eh to our 1.1");
}

/* A 1.0 BIOS (or a 0.1 Compaq) gets no 530Eh at all. */
void test_driver_version_not_asked_of_1_0(void **state)
{
    static const uint16_t versions[] = { APM_V1_0, 0x0001 };
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        fixture_reset(versions[i]);
        connect_ok(APM_IFACE_RM);
        assert_calls(APM_FN_DRIVER_VERSION, 0);
        assert_int_equal(st.conn_version, APM_V1_0);
        assert_log_has("rm: APM 1.0 BIOS: no driver version call; connection is 1.0");
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
