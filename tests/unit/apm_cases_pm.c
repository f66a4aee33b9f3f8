/* test_apm cases: the protected-mode connects: what 5302h/5303h return, as
 * recorded and handed to the port's setup(), and 5300h asked again afterwards. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

void test_pm32_connect_info(void **state)
{
    (void)state;
    sim.pm32_answer.eax = 0xF000;       /* 32-bit code segment */
    sim.pm32_answer.ebx = 0xABCD1234;   /* entry, dirty high half */
    sim.pm32_answer.ecx = 0xE000;       /* 16-bit code segment */
    sim.pm32_answer.edx = 0xD000;       /* data segment */
    sim.pm32_answer.esi = 0x11112222;   /* 16-bit code len : 32-bit code len */
    sim.pm32_answer.edi = 0x3333;       /* data length */
    connect_ok(APM_IFACE_PM32);
    assert_int_equal(st.pm.code32_seg, 0xF000);
    assert_int_equal(st.pm.code16_seg, 0xE000);
    assert_int_equal(st.pm.data_seg, 0xD000);
    assert_int_equal(st.pm.entry, 0x1234);
    /* raw lengths as the BIOS gave them, halves of ESI not swapped (GRUB lsapm's bug) */
    assert_int_equal(st.pm.raw_code32_len, 0x2222);
    assert_int_equal(st.pm.raw_code16_len, 0x1111);
    assert_int_equal(st.pm.raw_data_len, 0x3333);
    /* BIOSes exceed what they claim: 64 KiB limits, as Linux and FreeBSD force */
    assert_int_equal(st.pm.code32_len, 0x10000);
    assert_int_equal(st.pm.code16_len, 0x10000);
    assert_int_equal(st.pm.data_len, 0x10000);
    assert_log_has("pm32: EBX=ABCD1234h has a dirty high half; using entry 1234h");
    assert_log_has("pm32: code32 F000h len 2222h, code16 E000h len 1111h, "
                   "data D000h len 3333h, entry 1234h");
    /* setup() got exactly that */
    assert_int_equal(sim.setup_calls, 1);
    assert_int_equal(sim.setup_via, APM_IFACE_PM32);
    assert_memory_equal(&sim.setup_info, &st.pm, sizeof(st.pm));
    assert_ptr_equal(st.port, &sim.port[APM_IFACE_PM32]);
}

/* Zero lengths (a 1.0 BIOS, or a 1.1 one that returns none) and a code length
 * shorter than the entry mean 64 KiB. */
void test_pm32_connect_zero_and_short_lengths(void **state)
{
    (void)state;
    sim.pm32_answer.ebx = 0x8000;
    sim.pm32_answer.esi = 0x00000010;   /* code32 shorter than entry + 4 */
    sim.pm32_answer.edi = 0;
    connect_ok(APM_IFACE_PM32);
    assert_int_equal(st.pm.entry, 0x8000);
    assert_int_equal(st.pm.raw_code32_len, 0x10);
    assert_int_equal(st.pm.raw_code16_len, 0);
    assert_int_equal(st.pm.raw_data_len, 0);
    assert_int_equal(st.pm.code32_len, 0x10000);
    assert_int_equal(st.pm.code16_len, 0x10000);
    assert_int_equal(st.pm.data_len, 0x10000);
    assert_int_equal(sim.setup_info.code32_len, 0x10000);
    assert_log_lacks("dirty high half");
    assert_log_has("pm32: 32-bit code length 0010h is shorter than what it must hold; "
                   "64 KiB it is");
    assert_log_has("pm32: 16-bit code length 0000h is not given; 64 KiB it is");
    assert_log_has("pm32: data length 0000h is not given; 64 KiB it is");
}

void test_pm16_connect_info(void **state)
{
    (void)state;
    sim.pm16_answer.eax = 0xF000;
    sim.pm16_answer.ebx = 0x4321;
    sim.pm16_answer.ecx = 0xC000;
    sim.pm16_answer.esi = 0x5555;
    sim.pm16_answer.edi = 0;
    connect_ok(APM_IFACE_PM16);
    assert_int_equal(st.pm.code16_seg, 0xF000);
    assert_int_equal(st.pm.entry, 0x4321);
    assert_int_equal(st.pm.data_seg, 0xC000);
    assert_int_equal(st.pm.raw_code16_len, 0x5555);
    assert_int_equal(st.pm.raw_data_len, 0);
    assert_int_equal(st.pm.code16_len, 0x10000);
    assert_int_equal(st.pm.data_len, 0x10000);
    assert_int_equal(sim.setup_via, APM_IFACE_PM16);
    assert_memory_equal(&sim.setup_info, &st.pm, sizeof(st.pm));
    assert_log_has("pm16: code16 F000h len 5555h, data C000h len 0000h, entry 4321h");
    /* 530Eh goes through the new interface */
    assert_call(APM_FN_DRIVER_VERSION, 0, APM_IFACE_PM16, 0x0000, 0x0102);
    assert_int_equal(st.conn_version, 0x0102);
}

/* setup() failing: the interface is disconnected again and the reason returned. */
void test_pm_setup_failure(void **state)
{
    (void)state;
    sim.setup_fail = "code segment below 1 MiB is not usable";
    assert_true(apm_install_check(&st));
    assert_false(apm_connect(&st, APM_IFACE_PM32, ports.iface[APM_IFACE_PM32], why,
                             sizeof(why)));
    assert_why("code segment below 1 MiB is not usable");
    assert_false(st.connected);
    assert_int_equal(sim.connected, -1);
    assert_call_before(APM_FN_CONNECT_PM32, 0, APM_FN_DISCONNECT, 1);
    assert_calls(APM_FN_DRIVER_VERSION, 0);
    assert_log_has("pm32: cannot use the interface: code segment below 1 MiB is not "
                   "usable");
}

/* 5300h again after a PM connect: some BIOSes change their flags (Linux). */
void test_pm_connect_reruns_install_check(void **state)
{
    (void)state;
    sim.flags_change_on_pm = true;
    sim.flags_after_pm = APM_FLAG_PM16 | APM_FLAG_PM32 | APM_FLAG_PM_DISABLED;
    connect_ok(APM_IFACE_PM32);
    assert_calls(APM_FN_INSTALL_CHECK, 2);
    assert_call_before(APM_FN_CONNECT_PM32, 0, APM_FN_INSTALL_CHECK, 1);
    assert_call_before(APM_FN_INSTALL_CHECK, 1, APM_FN_DRIVER_VERSION, 0);
    assert_int_equal(st.flags, 0x000B);
    assert_log_has("pm32: flags changed from 0003h to 000Bh after connecting");
    /* the new flags are reported; enabling waits for a request that needs it */
    assert_log_has("pm32: the BIOS says power management is disabled");
    assert_calls(APM_FN_ENABLE_PM, 0);
}

void test_pm_connect_flags_unchanged(void **state)
{
    (void)state;
    connect_ok(APM_IFACE_PM16);
    assert_calls(APM_FN_INSTALL_CHECK, 2);
    assert_log_lacks("flags changed");
}
