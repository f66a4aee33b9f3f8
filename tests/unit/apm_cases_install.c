/* test_apm cases: the installation check (5300h): versions, the signature, and
 * the answers that mean "no APM". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

void test_install_check_1_2(void **state)
{
    (void)state;
    assert_true(apm_install_check(&st));
    assert_true(st.present);
    assert_int_equal(st.raw_version, 0x0102);
    assert_int_equal(st.version, 0x0102);
    assert_true(st.signature_ok);
    assert_int_equal(st.flags, 0x0003);
    assert_call(APM_FN_INSTALL_CHECK, 0, APM_IFACE_RM, 0x0000, 0x0000);
    assert_log_has("rm: 5300h installation check (BX=0000h)");
    assert_log_has("APM 1.2 BIOS, signature PM, flags 0003h: 16-bit PM interface, "
                   "32-bit PM interface");
    assert_log_lacks("warning");
}

void test_install_check_versions(void **state)
{
    static const uint16_t versions[] = { 0x0100, 0x0101, 0x0102 };
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        fixture_reset(versions[i]);
        assert_true(apm_install_check(&st));
        assert_int_equal(st.version, versions[i]);
        assert_int_equal(st.raw_version, versions[i]);
        assert_log_lacks("treated as 1.0");
    }
    assert_log_has("APM 1.2 BIOS");
}

/* A Compaq reporting 0.1 is a 1.0 BIOS. */
void test_install_check_compaq_0_1(void **state)
{
    (void)state;
    fixture_reset(0x0001);
    assert_true(apm_install_check(&st));
    assert_int_equal(st.raw_version, 0x0001);
    assert_int_equal(st.version, APM_V1_0);
    assert_log_has("BIOS reports APM 0.1 (early Compaq): treated as 1.0");
    assert_log_has("APM 1.0 BIOS");
}

void test_install_check_version_not_bcd(void **state)
{
    (void)state;
    fixture_reset(0x01AB);
    assert_true(apm_install_check(&st));
    assert_int_equal(st.raw_version, 0x01AB);
    assert_int_equal(st.version, APM_V1_0);
    assert_log_has("warning: version 01ABh is not a valid APM version (BCD, 1.0 or later): "
                   "treated as 1.0");
}

/* GRUB never checks 'PM': a missing signature is a warning, and we go on. */
void test_install_check_missing_signature(void **state)
{
    (void)state;
    sim.signature = 0x0000;
    assert_true(apm_install_check(&st));
    assert_true(st.present);
    assert_false(st.signature_ok);
    assert_log_has("warning: signature is 00h 00h, not 'PM'; trusting CF and the version");
    assert_log_has("APM 1.2 BIOS, signature missing");
    /* and the power-off still goes ahead */
    fixture_reset(APM_V1_2);
    sim.signature = 0x4D50;             /* 'M','P': swapped */
    apm_power_off_chain(&st, &ports, APM_IFACE_AUTO, why, sizeof(why));
    assert_log_has("signature is 4Dh 50h");
    assert_true(sim.powered_off);
}

void test_install_check_not_present_86h(void **state)
{
    (void)state;
    sim_force(&sim, APM_FN_INSTALL_CHECK, SIM_ERROR, 0x86, 0);
    assert_false(apm_install_check(&st));
    assert_false(st.present);
    assert_log_has("no APM BIOS: INT 15h AX=5300h says APM is not present");
}

/* CF set with AH still 53h (or 00h): no APM function at all, no error code. */
void test_install_check_no_code(void **state)
{
    static const uint8_t codes[] = { 0x53, 0x00 };
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        fixture_reset(APM_V1_2);
        sim_force(&sim, APM_FN_INSTALL_CHECK, SIM_ERROR, codes[i], 0);
        assert_false(apm_install_check(&st));
        assert_false(st.present);
        assert_log_has("which is no error code");
        assert_log_has("no APM BIOS: INT 15h AX=5300h failed");
    }
}

/* A BIOS that touches nothing: CF pre-set by initregs() makes that a failure. */
void test_install_check_bios_does_nothing(void **state)
{
    (void)state;
    sim_force_all(&sim, SIM_IGNORE, 0);
    assert_false(apm_install_check(&st));
    assert_false(st.present);
    assert_log_has("5300h returned CF set with AH=53h, which is no error code");
}

void test_install_check_transport_failure(void **state)
{
    (void)state;
    sim.port_down[APM_IFACE_RM] = true;
    sim.down_why = "A20 could not be re-enabled";
    assert_false(apm_install_check(&st));
    assert_false(st.present);
    assert_log_has("rm: 5300h not made: A20 could not be re-enabled");
}
