/* test_apm cases: power-off (5307h BX=0001h CX=0003h): the output contract around
 * the call, and every way the call can return (returning at all is a failure). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

/* The output contract: "powering off via rm (APM 1.2)" is the last line said before
 * the call; the failure line follows it. A return with CF clear is a failure. */
void test_power_off_returns_success(void **state)
{
    (void)state;
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_true(sim.powered_off);
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_RM, 0x0001, 0x0003);
    const struct sim_call *c = sim_nth(&sim, APM_FN_SET_POWER_STATE, 0);
    int powering = log_expect("powering off via rm (APM 1.2)");
    assert_int_equal(powering, (int)c->log_before - 1);
    assert_int_equal(log_expect("note: no disk was flushed"), powering - 1);
    int failed = log_expect("power-off via rm failed: ");
    assert_true(failed >= (int)c->log_before);
    assert_why("5307h returned success but the machine is still on after 3 s");
    assert_string_equal(log_line((unsigned)failed),
                        "power-off via rm failed: 5307h returned success but the "
                        "machine is still on after 3 s");
}

void test_power_off_unable_60h(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, 0x60, 0);
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_why("5307h error 60h: unable to enter requested state");
    assert_log_order("powering off via rm (APM 1.2)",
                     "power-off via rm failed: 5307h error 60h: unable to enter "
                     "requested state");
}

void test_power_off_error_codes(void **state)
{
    char want[128];
    (void)state;
    for (unsigned i = 0; i < apm_errors_count; i++) {
        fixture_reset(APM_V1_2);
        sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_ERROR, apm_errors[i].code, 0);
        connect_ok(APM_IFACE_RM);
        apm_power_off(&st, why, sizeof(why));
        snprintf(want, sizeof(want), "5307h error %02Xh: %s", apm_errors[i].code,
                 apm_errors[i].text);
        assert_why(want);
    }
}

/* CF set but AH left at 53h, or 00h: no code; a BIOS that ignores 5307h entirely
 * (CF stays pre-set) reads the same. */
void test_power_off_no_code(void **state)
{
    static const struct { enum sim_mode mode; uint8_t code; } cases[] = {
        { SIM_ERROR, 0x00 }, { SIM_ERROR, 0x53 }, { SIM_IGNORE, 0 },
    };
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        fixture_reset(APM_V1_2);
        sim_force(&sim, APM_FN_SET_POWER_STATE, cases[i].mode, cases[i].code, 0);
        connect_ok(APM_IFACE_RM);
        apm_power_off(&st, why, sizeof(why));
        assert_why("5307h CF set but no error code in AH");
    }
}

void test_power_off_transport_failure(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_SET_POWER_STATE, SIM_NO_CALL, 0, 0);
    sim.down_why = "the BIOS executed HLT at F000:1234";
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_why("the call could not be made: the BIOS executed HLT at F000:1234");
    assert_log_order("powering off via rm",
                     "power-off via rm failed: the call could not be made: the BIOS "
                     "executed HLT at F000:1234");
}

/* inject=rm-off: 5307h is never made, and every line says so. */
void test_power_off_injected(void **state)
{
    (void)state;
    apm_init(&st, &sim.port[APM_IFACE_RM], APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_OFF));
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 0);
    assert_false(sim.powered_off);
    assert_log_has("powering off via rm (APM 1.2) [injected failure]");
    assert_log_has("rm: 5307h set power state: failure injected (inject=rm-off), "
                   "BIOS not called");
    assert_why("failure injected (inject=rm-off), BIOS not called");
    assert_log_has("power-off via rm failed: failure injected (inject=rm-off), BIOS not "
                   "called");
}

/* The inject bit of one interface touches no other. */
void test_power_off_inject_bits_per_interface(void **state)
{
    (void)state;
    apm_init(&st, &sim.port[APM_IFACE_RM], APM_INJECT_BIT(APM_IFACE_PM32, APM_STEP_OFF));
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    assert_calls(APM_FN_SET_POWER_STATE, 1);
    assert_log_lacks("injected");
}

void test_power_off_pm32_version_1_0(void **state)
{
    (void)state;
    fixture_reset(APM_V1_0);
    connect_ok(APM_IFACE_PM32);
    apm_power_off(&st, why, sizeof(why));
    assert_call(APM_FN_SET_POWER_STATE, 0, APM_IFACE_PM32, 0x0001, 0x0003);
    const struct sim_call *c = sim_nth(&sim, APM_FN_SET_POWER_STATE, 0);
    assert_int_equal(log_expect("powering off via pm32 (APM 1.0)"), (int)c->log_before - 1);
}

/* A port's tag (the rm port's " (v86)") is part of the power-off line. */
void test_power_off_line_port_tag(void **state)
{
    (void)state;
    sim.port[APM_IFACE_RM].tag = " (v86)";
    connect_ok(APM_IFACE_RM);
    apm_power_off(&st, why, sizeof(why));
    const struct sim_call *c = sim_nth(&sim, APM_FN_SET_POWER_STATE, 0);
    assert_non_null(c);
    assert_int_equal(log_expect("powering off via rm (APM 1.2) (v86)"),
                     (int)c->log_before - 1);
}
