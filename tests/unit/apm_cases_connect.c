/* test_apm cases: connecting (5301h-5303h): disconnect first, zeroed registers,
 * "already connected" retried once, errors in words, injection. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

void test_connect_rm_sequence(void **state)
{
    (void)state;
    connect_ok(APM_IFACE_RM);
    assert_true(st.connected);
    assert_int_equal(st.iface, APM_IFACE_RM);
    assert_ptr_equal(st.port, &sim.port[APM_IFACE_RM]);
    assert_int_equal(st.conn_version, 0x0102);
    /* 5304h to start clean, 5301h, then 530Eh 1.2 */
    assert_call(APM_FN_DISCONNECT, 0, APM_IFACE_RM, 0x0000, 0x0000);
    assert_call(APM_FN_CONNECT_RM, 0, APM_IFACE_RM, 0x0000, 0x0000);
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_RM, 0x0000, 0x0102);
    assert_call_before(APM_FN_DISCONNECT, 0, APM_FN_CONNECT_RM, 0);
    assert_call_before(APM_FN_CONNECT_RM, 0, APM_FN_DRIVER_VERSION, 0);
    assert_calls(APM_FN_CONNECT_RM, 1);
    assert_calls(APM_FN_DRIVER_VERSION, 1);
    assert_int_equal(sim.connected, APM_IFACE_RM);
    assert_int_equal(sim.setup_calls, 0);   /* real mode needs no descriptors */
    /* neither disabled nor disengaged: nothing to enable */
    assert_calls(APM_FN_ENABLE_PM, 0);
    assert_calls(APM_FN_ENGAGE_PM, 0);
    assert_log_has("rm: 5304h answered error 03h, as expected: nothing was connected");
    assert_log_has("rm: connected, APM 1.2 connection");
}

/* initregs() pre-sets CF on every call, so a BIOS that ignores one fails it. */
void test_every_call_has_cf_preset(void **state)
{
    (void)state;
    sim.flags |= APM_FLAG_PM_DISABLED | APM_FLAG_PM_DISENGAGED;
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_true(sim.ncalls > 10);
    for (unsigned i = 0; i < sim.ncalls; i++) {
        if (!(sim.calls[i].in.eflags & X86_EFLAGS_CF)) {
            fixture_dump();
            fail_msg("call %u (AX=%04Xh) arrived with CF clear", i, sim.calls[i].ax);
        }
    }
}

/* Zero all registers before 5303h: some BIOSes return no lengths. */
void test_connect_zeroes_registers(void **state)
{
    (void)state;
    connect_ok(APM_IFACE_PM32);
    const struct sim_call *c = sim_nth(&sim, APM_FN_CONNECT_PM32, 0);
    assert_non_null(c);
    assert_int_equal(c->in.eax, 0x5303);
    assert_int_equal(c->in.ebx, 0);
    assert_int_equal(c->in.ecx, 0);
    assert_int_equal(c->in.edx, 0);
    assert_int_equal(c->in.esi, 0);
    assert_int_equal(c->in.edi, 0);
}

/* "Already connected": disconnect and retry once. */
void test_connect_already_connected_retry_once(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, 0x02, 1);
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_CONNECT_RM, 2);
    assert_calls(APM_FN_DISCONNECT, 2);
    assert_call_before(APM_FN_CONNECT_RM, 0, APM_FN_DISCONNECT, 1);
    assert_call_before(APM_FN_DISCONNECT, 1, APM_FN_CONNECT_RM, 1);
    assert_log_has("rm: already connected: disconnecting and retrying once");
    assert_true(st.connected);
}

/* ... and only once: a second 02h on 5301h means the BIOS keeps its real-mode
 * connection, which is usable as it is; on a PM connect it is a failure,
 * since the segments come only from a connect. */
void test_connect_already_connected_twice_fails(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, 0x02, 2);
    assert_true(apm_install_check(&st));
    assert_true(apm_connect(&st, APM_IFACE_RM, ports.iface[APM_IFACE_RM], why,
                            sizeof(why)));
    assert_calls(APM_FN_CONNECT_RM, 2);
    assert_true(st.connected);
    assert_int_equal(log_count_matching("retrying once"), 1);
    assert_log_has("rm: still connected after a disconnect: the connection the BIOS keeps "
                   "is used");

    fixture_reset(APM_V1_2);
    sim_force(&sim, APM_FN_CONNECT_PM32, SIM_ERROR, 0x07, 2);
    assert_true(apm_install_check(&st));
    assert_false(apm_connect(&st, APM_IFACE_PM32, ports.iface[APM_IFACE_PM32], why,
                             sizeof(why)));
    assert_calls(APM_FN_CONNECT_PM32, 2);
    assert_false(st.connected);
    assert_why("connect error 07h: 32-bit protected-mode interface already established");
    assert_calls(APM_FN_DRIVER_VERSION, 0);
}

/* 5300h fails once a PM interface is connected: that interface is given up. */
void test_connect_recheck_fails(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_INSTALL_CHECK, SIM_ERROR, 0x86, 0);
    st.present = true;
    st.version = APM_V1_2;
    st.flags = 0x0003;
    assert_false(apm_connect(&st, APM_IFACE_PM32, ports.iface[APM_IFACE_PM32], why,
                             sizeof(why)));
    assert_why("5300h fails after the connect");
    assert_log_has("pm32: 5300h fails once the interface is connected: giving it up");
    assert_calls(APM_FN_DRIVER_VERSION, 0);
}

/* A connection left by the boot loader that the first 5304h does not undo: the
 * BIOS's own state machine answers the connect with 02h. */
void test_connect_stale_connection(void **state)
{
    (void)state;
    sim.connected = APM_IFACE_RM;
    sim_force(&sim, APM_FN_DISCONNECT, SIM_SUCCESS, 0, 1);  /* claims, does not */
    connect_ok(APM_IFACE_RM);
    assert_calls(APM_FN_CONNECT_RM, 2);
    assert_int_equal(sim.connected, APM_IFACE_RM);
}

/* The already-connected code names the interface that IS connected: a stale
 * real-mode connection answers 5303h with 02h, and that too is retried. */
void test_connect_pm32_while_rm_connected(void **state)
{
    (void)state;
    sim.connected = APM_IFACE_RM;
    sim_force(&sim, APM_FN_DISCONNECT, SIM_SUCCESS, 0, 1);
    connect_ok(APM_IFACE_PM32);
    assert_calls(APM_FN_CONNECT_PM32, 2);
    assert_int_equal(sim.connected, APM_IFACE_PM32);
    assert_log_has("pm32: already connected: disconnecting and retrying once");
}

/* Every interface retries on every already-connected code, whichever interface
 * the code names. */
void test_connect_any_already_connected_code(void **state)
{
    static const uint8_t codes[] = { 0x02, 0x05, 0x07 };
    static const uint8_t fns[APM_IFACE_COUNT] = {
        APM_FN_CONNECT_RM, APM_FN_CONNECT_PM32, APM_FN_CONNECT_PM16,
    };
    (void)state;
    for (int iface = 0; iface < APM_IFACE_COUNT; iface++) {
        for (unsigned i = 0; i < 3; i++) {
            fixture_reset(APM_V1_2);
            sim_force(&sim, fns[iface], SIM_ERROR, codes[i], 1);
            connect_ok((enum apm_iface)iface);
            assert_calls(fns[iface], 2);
            assert_int_equal(sim.connected, iface);
        }
    }
}

/* Every error code of 5301h reaches the reason in words. */
void test_connect_error_codes(void **state)
{
    char want[128];
    (void)state;
    for (unsigned i = 0; i < apm_errors_count; i++) {
        if (apm_errors[i].code == APM_ERR_RM_CONNECTED)
            continue;   /* 02h twice: the connection kept (already_connected_twice) */
        fixture_reset(APM_V1_2);
        sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, apm_errors[i].code, 0);
        assert_true(apm_install_check(&st));
        assert_false(apm_connect(&st, APM_IFACE_RM, ports.iface[APM_IFACE_RM], why,
                                 sizeof(why)));
        assert_false(st.connected);
        snprintf(want, sizeof(want), "connect error %02Xh: %s", apm_errors[i].code,
                 apm_errors[i].text);
        assert_why(want);
        snprintf(want, sizeof(want), "rm: 5301h failed: error %02Xh: %s",
                 apm_errors[i].code, apm_errors[i].text);
        assert_log_has(want);
        assert_calls(APM_FN_DRIVER_VERSION, 0);
    }
}

void test_connect_no_code_and_no_call(void **state)
{
    (void)state;
    /* CF set, AH still 53h: no error code, as a BIOS that returns by IRET leaves
     * the caller's CF; after a good 5300h that is a connect. */
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_ERROR, 0x53, 0);
    assert_true(apm_install_check(&st));
    assert_true(apm_connect(&st, APM_IFACE_RM, ports.iface[APM_IFACE_RM], why,
                            sizeof(why)));
    assert_log_has("rm: connect returned CF set with no error code: a BIOS that returns "
                   "by IRET leaves CF as it was; taken as connected");

    fixture_reset(APM_V1_2);
    sim_force(&sim, APM_FN_CONNECT_RM, SIM_NO_CALL, 0, 0);
    assert_true(apm_install_check(&st));
    assert_false(apm_connect(&st, APM_IFACE_RM, ports.iface[APM_IFACE_RM], why,
                             sizeof(why)));
    assert_why("connect the call could not be made");
    assert_log_has("rm: 5301h not made: simulated: the BIOS could not be reached");
}

void test_connect_injected(void **state)
{
    (void)state;
    apm_init(&st, &sim.port[APM_IFACE_RM], APM_INJECT_BIT(APM_IFACE_RM, APM_STEP_CONNECT));
    assert_true(apm_install_check(&st));
    assert_false(apm_connect(&st, APM_IFACE_RM, ports.iface[APM_IFACE_RM], why,
                             sizeof(why)));
    assert_calls(APM_FN_CONNECT_RM, 0);
    assert_why("connect failure injected (inject=rm-connect), BIOS not called");
    assert_log_has("rm: 5301h real-mode interface connect: failure injected "
                   "(inject=rm-connect), BIOS not called");
}
