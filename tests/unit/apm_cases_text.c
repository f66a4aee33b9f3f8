/* test_apm cases: APM numbers in words, as the console and the report print them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

void test_result_text(void **state)
{
    char buf[96], want[96];
    (void)state;
    assert_string_equal(apm_result_text(0, buf, sizeof(buf)), "ok");
    assert_string_equal(apm_result_text(APM_RESULT_NO_CODE, buf, sizeof(buf)),
                        "CF set but no error code in AH");
    assert_string_equal(apm_result_text(APM_RESULT_NO_CALL, buf, sizeof(buf)),
                        "the call could not be made");
    for (unsigned i = 0; i < apm_errors_count; i++) {
        snprintf(want, sizeof(want), "error %02Xh: %s", apm_errors[i].code,
                 apm_errors[i].text);
        assert_string_equal(apm_result_text(apm_errors[i].code, buf, sizeof(buf)), want);
    }
}

void test_iface_names(void **state)
{
    (void)state;
    assert_string_equal(apm_iface_name(APM_IFACE_RM), "rm");
    assert_string_equal(apm_iface_name(APM_IFACE_PM32), "pm32");
    assert_string_equal(apm_iface_name(APM_IFACE_PM16), "pm16");
    assert_string_equal(apm_iface_name(APM_IFACE_COUNT), "?");
}
