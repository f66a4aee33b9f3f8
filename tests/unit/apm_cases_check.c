/* test_apm cases: apm/check.c, the conformance checks (action=check), against a
 * simulated BIOS that follows the specification and one that behaves like SeaBIOS. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"
#include "../../apm/check.h"

static struct check_report rep;

static enum check_verdict verdict_of(const char *name)
{
    for (unsigned i = 0; i < rep.count; i++)
        if (!strcmp(rep.results[i].name, name))
            return rep.results[i].verdict;
    fail_msg("no check named %s", name);
    return CHECK_SKIP;
}

/* A BIOS that does everything the specification says passes every check. */
void test_check_conforming_bios(void **state)
{
    (void)state;
    assert_true(apm_check(&st, &ports, false, &rep));
    if (rep.failed)
        fixture_dump();
    assert_int_equal(rep.failed, 0);
    assert_int_equal(rep.skipped, 1);           /* power-state.reserved: strict only */
    assert_int_equal(rep.passed, rep.count - 1);
    assert_true(rep.count >= 30);
    assert_log_has("check summary: 31 passed, 0 failed, 1 skipped");
    assert_false(rep.strict);
    /* The survey that ends a check run reports every connect the checks made. */
    for (int i = 0; i < APM_IFACE_COUNT; i++) {
        assert_true(st.ifaces[i].tried);
        assert_int_equal(st.ifaces[i].connect_result, 0);
    }
    assert_int_equal(st.ifaces[APM_IFACE_RM].conn_version, APM_V1_2);
}

/* No connection state and any device ID, like SeaBIOS and Bochs' BIOS: the checks
 * that depend on them fail, the others still pass. */
void test_check_lax_bios(void **state)
{
    (void)state;
    sim.lax = true;
    assert_true(apm_check(&st, &ports, false, &rep));
    assert_int_equal(verdict_of("disconnect.not-connected"), CHECK_FAIL);
    assert_int_equal(verdict_of("call.before-connect"), CHECK_FAIL);
    assert_int_equal(verdict_of("connect.rm-twice"), CHECK_FAIL);
    assert_int_equal(verdict_of("connect.pm32-twice"), CHECK_FAIL);
    assert_int_equal(verdict_of("connect.pm16-twice"), CHECK_FAIL);
    assert_int_equal(verdict_of("connect.rm"), CHECK_PASS);
    assert_int_equal(verdict_of("pm32.same-answers"), CHECK_PASS);
    assert_log_has("check FAIL connect.rm-twice (5301h, APM 1.0): expected error 02h");
}

/* Checks of functions newer than the BIOS's version are skipped, not failed. */
void test_check_skips_by_version(void **state)
{
    (void)state;
    fixture_reset(APM_V1_0);
    assert_true(apm_check(&st, &ports, false, &rep));
    assert_int_equal(verdict_of("driver-version"), CHECK_SKIP);
    assert_int_equal(verdict_of("engage-pm"), CHECK_SKIP);
    assert_int_equal(verdict_of("enable-device-pm"), CHECK_SKIP);
    assert_int_equal(verdict_of("power-state"), CHECK_SKIP);
    assert_int_equal(verdict_of("capabilities"), CHECK_SKIP);
    assert_int_equal(verdict_of("enable-pm"), CHECK_PASS);
    assert_log_has("check SKIP capabilities (5310h, APM 1.2): the BIOS claims only APM 1.0");
    assert_calls(APM_FN_GET_CAPABILITIES, 0);
}

/* An interface the flags do not offer must be refused with its own error code. */
void test_check_interface_not_offered(void **state)
{
    (void)state;
    sim.flags = APM_FLAG_PM16;
    assert_true(apm_check(&st, &ports, false, &rep));
    assert_int_equal(verdict_of("connect.pm32"), CHECK_PASS);
    assert_log_has("check PASS connect.pm32 (5303h, APM 1.0): error 08h as specified");
    assert_int_equal(verdict_of("connect.pm16"), CHECK_PASS);
}

/* A BIOS that answers a reserved state with success fails that check; and the checks
 * never ask for a state that could lose anything (standby, suspend, off). */
void test_check_never_enters_a_sleep_state(void **state)
{
    (void)state;
    sim.force[APM_FN_SET_POWER_STATE] = (struct sim_force){ SIM_SUCCESS, 0, 0 };
    assert_true(apm_check(&st, &ports, false, &rep));
    assert_int_equal(verdict_of("power-state.reserved"), CHECK_SKIP);
    assert_calls(APM_FN_SET_POWER_STATE, 0);    /* no 5307h at all unless strict */
    assert_true(apm_check(&st, &ports, true, &rep));
    assert_int_equal(verdict_of("power-state.reserved"), CHECK_FAIL);
    for (unsigned i = 0; i < sim_count(&sim, APM_FN_SET_POWER_STATE); i++) {
        const struct sim_call *c = sim_nth(&sim, APM_FN_SET_POWER_STATE, i);
        assert_true(c->cx != APM_STATE_STANDBY && c->cx != APM_STATE_SUSPEND &&
                    c->cx != APM_STATE_OFF);
    }
    assert_false(sim.powered_off);
}

/* Values out of their defined ranges fail power-status.ranges. */
void test_check_power_status_ranges(void **state)
{
    (void)state;
    sim.status_answer.bh = 0x07;        /* AC line 07h: undefined */
    assert_true(apm_check(&st, &ports, false, &rep));
    assert_int_equal(verdict_of("power-status.ranges"), CHECK_FAIL);
    assert_log_has("AC 07h (invalid)");
}

void test_check_no_apm(void **state)
{
    (void)state;
    sim.force[APM_FN_INSTALL_CHECK] = (struct sim_force){ SIM_ERROR, APM_ERR_NOT_PRESENT, 0 };
    assert_false(apm_check(&st, &ports, false, &rep));
    assert_int_equal(rep.count, 0);
}
