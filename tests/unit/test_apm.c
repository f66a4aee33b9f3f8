/* test_apm: the APM protocol (apm/apm.c, apm/poweroff.c) against the simulated BIOS
 * (simbios.h), one cmocka group.
 *
 * Each case states one behaviour of apm-reference.md's "sequence a careful driver
 * uses" or one quirk, sets the simulated BIOS up to exercise it, and asserts both the
 * calls the BIOS received and the words on the console (the output contract the
 * emulator tests and users read). The cases live in apm_cases_*.c by topic; their
 * list is apm_cases.h; the harness is apm_fixture.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"

#define APM_CASE(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown),

int main(void)
{
    const struct CMUnitTest tests[] = {
        APM_CASES(APM_CASE)
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
