/* test_apm cases: apm/poweroff.c: the fallback chain (rm, then pm32, then pm16,
 * each as the BIOS and the build offer it) and the survey. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

/* rm, then pm32, then pm16; each failed interface disconnected before the next. */
void test_chain_order(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 3);
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_RM, 0x0001, 0x0003);
    assert_call(APM_FN_SET_POWER_STATE, 1, APM_IFACE_PM32, 0x0001, 0x0003);
    assert_call(APM_FN_SET_POWER_STATE, 2, APM_IFACE_PM16, 0x0001, 0x0003);
    assert_call_before(APM_FN_CONNECT_RM, 0, APM_FN_SET_POWER_STATE, 0);
    assert_call_before(APM_FN_SET_POWER_STATE, 0, APM_FN_CONNECT_PM32, 0);
    assert_call_before(APM_FN_CONNECT_PM32, 0, APM_FN_SET_POWER_STATE, 1);
    assert_call_before(APM_FN_SET_POWER_STATE, 1, APM_FN_CONNECT_PM16, 0);
    assert_call_before(APM_FN_CONNECT_PM16, 0, APM_FN_SET_POWER_STATE, 2);
    /* each 5307h is followed by a disconnect, and the next connect is clean */
    assert_call_before(APM_FN_SET_POWER_STATE, 0, APM_FN_DISCONNECT, 1);
    assert_call_before(APM_FN_DISCONNECT, 1, APM_FN_DISCONNECT, 2);
    assert_call_before(APM_FN_DISCONNECT, 2, APM_FN_CONNECT_PM32, 0);
    assert_int_equal(sim.connected, -1);
    assert_calls(APM_FN_CONNECT_PM32, 1);
    assert_calls(APM_FN_CONNECT_PM16, 1);
    for (unsigned i = 0; i < 3; i++) {
        static const char *const lines[] = { "powering off via rm (APM 1.2)",
                                              "powering off via pm32 (APM 1.2)",
                                              "powering off via pm16 (APM 1.2)" };
        const struct sim_call *c = sim_nth(&sim, APM_FN_SET_POWER_STATE, i);
        assert_int_equal(log_expect(lines[i]), (int)c->log_before - 1);
    }
    assert_log_order("power-off via rm failed", "falling back to pm32");
    assert_log_order("falling back to pm32", "power-off via pm32 failed");
    assert_log_order("power-off via pm32 failed", "falling back to pm16");
    assert_log_order("falling back to pm16", "power-off via pm16 failed");
    assert_why("power-off failed via rm, pm32 and pm16");
}

void test_chain_no_apm(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_INSTALL_CHECK, SIM_ERROR, 0x86, 0);
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_why("no APM BIOS");
    assert_int_equal(sim.ncalls, 1);
    assert_false(st.present);
}

/* Interfaces this build does not have are skipped, and a chain of one names its
 * reason. */
void test_chain_rm_only(void **state)
{
    (void)state;
    ports.iface[APM_IFACE_PM32] = NULL;
    ports.iface[APM_IFACE_PM16] = NULL;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, 0x60, 0);
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_calls(APM_FN_CONNECT_PM32, 0);
    assert_calls(APM_FN_CONNECT_PM16, 0);
    assert_log_has("skipping pm32: not available in this build");
    assert_log_has("skipping pm16: not available in this build");
    assert_log_lacks("falling back");
    assert_why("power-off via rm failed: 5307h error 60h: unable to enter requested state");
}

/* ... and so are those the BIOS does not offer (install-check flags bits 0/1). */
void test_chain_skips_pm_not_offered(void **state)
{
    (void)state;
    sim.flags = APM_FLAG_PM16;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_CONNECT_PM32, 0);
    assert_calls(APM_FN_CONNECT_PM16, 1);
    assert_log_has("skipping pm32: not offered by the BIOS (install-check flags 0001h)");
    assert_log_has("falling back to pm16");
    assert_why("power-off failed via rm and pm16");
}

/* An interface whose off call ended an earlier run with the power on (the kernel's
 * record says which) goes after the others, in the power-off chain only; a forced
 * interface= is tried as asked. */
static bool rm_stuck(enum apm_iface iface)
{
    return iface == APM_IFACE_RM;
}

void test_chain_stuck_last(void **state)
{
    (void)state;
    ports.last = rm_stuck;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_int_equal(sim_nth(&sim, APM_FN_SET_POWER_STATE, 0)->via, APM_IFACE_PM32);
    assert_int_equal(sim_nth(&sim, APM_FN_SET_POWER_STATE, 1)->via, APM_IFACE_PM16);
    assert_int_equal(sim_nth(&sim, APM_FN_SET_POWER_STATE, 2)->via, APM_IFACE_RM);
    assert_log_has("rm goes last: an earlier run never came back from its power-off call "
                   "there");
    assert_log_order("power-off via pm16 failed", "falling back to rm");
    assert_why("power-off failed via pm32, pm16 and rm");
}

void test_chain_stuck_forced(void **state)
{
    (void)state;
    ports.last = rm_stuck;
    apm_power_off_chain(&st, &ports, APM_IFACE_RM, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_log_lacks("goes last");
}

/* A real-mode off call that came back (the kernel's port watched it under v86) is made
 * once more when the port says so, announced by the contract's line again; one that
 * could not be made is not. */
static unsigned agains;

static bool again_once(const struct apm_port *port)
{
    (void)port;
    agains++;
    return true;
}

void test_off_again(void **state)
{
    (void)state;
    agains = 0;
    sim.port[APM_IFACE_RM].again = again_once;
    apm_power_off_chain(&st, &ports, APM_IFACE_RM, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 2);
    assert_int_equal(agains, 1);        /* asked once: a repeat is the last word */
    assert_log_order("powering off via rm (APM 1.2)", "rm: 5307h returned success");
    assert_why("power-off via rm failed: 5307h returned success but the machine is "
               "still on after 3 s");
    fixture_reset(APM_V1_2);
    agains = 0;
    sim.port[APM_IFACE_RM].again = again_once;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_NO_CALL, 0, 0);
    apm_power_off_chain(&st, &ports, APM_IFACE_RM, why, sizeof(why));
    assert_int_equal(agains, 0);
}

/* interface= makes a chain of one. */
void test_chain_only_one_interface(void **state)
{
    (void)state;
    apm_power_off_chain(&st, &ports, APM_IFACE_PM16, why, sizeof(why));
    assert_calls(APM_FN_CONNECT_RM, 0);
    assert_calls(APM_FN_CONNECT_PM32, 0);
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_PM16, 0x0001, 0x0003);
    assert_why("power-off via pm16 failed: 5307h returned success but the machine is "
               "still on after 3 s");
    assert_log_lacks("skipping");
}

/* A forced interface the BIOS does not offer: nothing is tried, and why says so. */
void test_chain_only_not_offered(void **state)
{
    (void)state;
    sim.flags = APM_FLAG_PM16;
    apm_power_off_chain(&st, &ports, APM_IFACE_PM32, why, sizeof(why));
    assert_calls(APM_FN_CONNECT_PM32, 0);
    assert_calls(APM_FN_SET_POWER_STATE, 0);
    assert_why("pm32 interface not offered by the BIOS (install-check flags 0001h)");
}

/* A connect failure moves on to the next interface. */
void test_chain_connect_failure_moves_on(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, 0x42, 0);
    ports.iface[APM_IFACE_PM16] = NULL;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_log_order("power-off via rm failed: connect error 42h: unknown error 42h",
                     "falling back to pm32");
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_PM32, 0x0001, 0x0003);
    assert_why("power-off failed via rm and pm32");
}

/* inject=rm-off fails rm without the call; pm32 is still tried for real. */
void test_chain_injected_rm_off(void **state)
{
    (void)state;
    apm_init(&st, &sim.port[APM_IFACE_RM], APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_OFF));
    ports.iface[APM_IFACE_PM16] = NULL;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_PM32, 0x0001, 0x0003);
    assert_log_has("power-off via rm failed: failure injected (inject=rm-off)");
    assert_log_has("powering off via pm32 (APM 1.2)");
    assert_log_lacks("powering off via pm32 (APM 1.2) [injected failure]");
}

/* SeaBIOS and Bochs track no connection state (a second connect succeeds, a
 * disconnect of nothing too): the chain must not depend on refusals. */
void test_chain_lax_bios(void **state)
{
    (void)state;
    sim.lax = true;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 3);
    assert_calls(APM_FN_CONNECT_RM, 1);
    assert_calls(APM_FN_CONNECT_PM32, 1);
    assert_calls(APM_FN_CONNECT_PM16, 1);
    assert_log_lacks("nothing was connected");
    assert_log_lacks("already connected");
    assert_why("power-off failed via rm, pm32 and pm16");
}

/* Everything but 5307h, on every offered interface, each left disconnected. */
void test_survey(void **state)
{
    (void)state;
    assert_true(apm_survey(&st, &ports, APM_IFACE_AUTO));
    assert_calls(APM_FN_SET_POWER_STATE, 0);
    assert_calls(APM_FN_CONNECT_RM, 1);
    assert_calls(APM_FN_CONNECT_PM32, 1);
    assert_calls(APM_FN_CONNECT_PM16, 1);
    assert_calls(APM_FN_GET_POWER_STATUS, 3);
    assert_calls(APM_FN_GET_CAPABILITIES, 3);
    assert_call(APM_FN_GET_POWER_STATUS, 0, APM_IFACE_RM, 0x0001, 0x0000);
    assert_call(APM_FN_GET_POWER_STATUS, 1, APM_IFACE_PM32, 0x0001, 0x0000);
    assert_call(APM_FN_GET_POWER_STATUS, 2, APM_IFACE_PM16, 0x0001, 0x0000);
    assert_call_before(APM_FN_CONNECT_RM, 0, APM_FN_GET_POWER_STATUS, 0);
    assert_call_before(APM_FN_GET_CAPABILITIES, 0, APM_FN_DISCONNECT, 1);
    assert_int_equal(sim.connected, -1);
    assert_false(st.connected);
    assert_true(st.have_status);
    assert_log_lacks("powering off");
}

void test_survey_only_rm(void **state)
{
    (void)state;
    assert_true(apm_survey(&st, &ports, APM_IFACE_RM));
    assert_calls(APM_FN_CONNECT_PM32, 0);
    assert_calls(APM_FN_CONNECT_PM16, 0);
    assert_calls(APM_FN_GET_POWER_STATUS, 1);
    assert_int_equal(sim.connected, -1);
}

void test_survey_no_apm(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_INSTALL_CHECK, SIM_ERROR, 0x86, 0);
    assert_false(apm_survey(&st, &ports, APM_IFACE_AUTO));
    assert_int_equal(sim.ncalls, 1);
}

/* A failed connect is reported and the survey goes on with the next interface. */
void test_survey_connect_failure(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, 0x0C, 0);
    assert_true(apm_survey(&st, &ports, APM_IFACE_AUTO));
    assert_log_has("rm: connect error 0Ch: function not supported");
    assert_calls(APM_FN_GET_POWER_STATUS, 2);
    assert_call(APM_FN_GET_POWER_STATUS, 0, APM_IFACE_PM32, 0x0001, 0x0000);
}

/* poweroff.h allows a NULL port for an interface this build lacks. */
void test_survey_without_rm_port(void **state)
{
    (void)state;
    ports.iface[APM_IFACE_RM] = NULL;
    assert_true(apm_survey(&st, &ports, APM_IFACE_AUTO));
    assert_calls(APM_FN_CONNECT_RM, 0);
    assert_calls(APM_FN_CONNECT_PM32, 1);
    assert_log_has("skipping rm: not available in this build");
}
