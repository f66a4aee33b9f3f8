/* test_apm cases: queries: 530Ah power status decoded, 5310h capabilities on a
 * 1.2 connection only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

void test_query_status_1_2(void **state)
{
    (void)state;
    sim.status_answer.ebx = 0x0100;     /* AC on-line, battery high */
    sim.status_answer.ecx = 0x0164;     /* flag: high, 100 % */
    sim.status_answer.edx = 0x805A;     /* 90 minutes */
    sim.status_answer.esi = 2;
    sim.battery_units = 2;
    sim.capabilities = 0x0003;
    connect_ok(APM_IFACE_RM);
    apm_query(&st);
    assert_call(APM_FN_GET_POWER_STATUS, 0, APM_IFACE_RM, 0x0001, 0x0000);
    assert_true(st.have_status);
    assert_int_equal(st.status.ac_line, 0x01);
    assert_int_equal(st.status.battery_status, 0x00);
    assert_int_equal(st.status.battery_flag, 0x01);
    assert_int_equal(st.status.life_percent, 100);
    assert_int_equal(st.status.life_time, 0x805A);
    assert_int_equal(st.status.battery_count, 2);
    assert_log_has("power: AC line on-line, battery high, battery flag 01h (high)");
    assert_log_has("power: battery life 100%, 90 minutes");
    assert_log_has("power: 2 battery unit(s) reported");
    /* 5310h on a 1.2 connection */
    assert_call(APM_FN_GET_CAPABILITIES, 0, APM_IFACE_RM, 0x0000, 0x0000);
    assert_true(st.have_caps);
    assert_int_equal(st.capabilities, 0x0003);
    assert_int_equal(st.battery_units, 2);
    assert_log_has("capabilities 0003h: global standby, global suspend; 2 battery unit(s)");
}

/* SeaBIOS' answer: everything unknown, no system battery. */
void test_query_status_unknown(void **state)
{
    (void)state;
    connect_ok(APM_IFACE_RM);
    apm_query(&st);
    assert_log_has("power: AC line on-line, battery unknown, battery flag 80h "
                   "(no system battery)");
    assert_log_has("power: battery life unknown, time unknown");
}

void test_query_status_odd_values(void **state)
{
    (void)state;
    sim.status_answer.ebx = 0x0705;     /* AC 07h, battery 05h: neither defined */
    sim.status_answer.ecx = 0x4096;     /* reserved flag bit 6, 150 % */
    sim.status_answer.edx = 0x001E;     /* 30 seconds */
    connect_ok(APM_IFACE_RM);
    apm_query(&st);
    assert_log_has("power: AC line invalid value, battery invalid value, battery flag 40h");
    assert_log_has("power: battery life invalid (150), 30 seconds");
}

/* 530Fh only from 1.1, 5310h only on a 1.2 connection; SI only counts on 1.2. */
void test_query_1_1_has_no_capabilities(void **state)
{
    (void)state;
    fixture_reset(APM_V1_1);
    sim.status_answer.esi = 3;
    connect_ok(APM_IFACE_RM);
    apm_query(&st);
    assert_true(st.have_status);
    assert_int_equal(st.status.battery_count, 0);
    assert_calls(APM_FN_GET_CAPABILITIES, 0);
    assert_false(st.have_caps);
    assert_log_lacks("battery unit(s)");
}

void test_query_status_failure(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_GET_POWER_STATUS, SIM_ERROR, 0x0C, 0);
    sim_force(&sim, APM_FN_GET_CAPABILITIES, SIM_ERROR, 0x53, 0);
    connect_ok(APM_IFACE_RM);
    apm_query(&st);
    assert_false(st.have_status);
    assert_false(st.have_caps);
    assert_log_has("rm: 530Ah failed: error 0Ch: function not supported");
    assert_log_lacks("power: ");
}
