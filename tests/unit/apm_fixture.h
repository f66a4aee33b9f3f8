/* The harness of test_apm.c: one simulated BIOS, one apm_state and the ports,
 * fresh for every test, and assertions that print the console log and the calls
 * the BIOS received when they fail. Include after <cmocka.h>. */
#ifndef APMOFF_TESTS_APM_FIXTURE_H
#define APMOFF_TESTS_APM_FIXTURE_H

#include "log_assert.h"
#include "simbios.h"
#include "../../apm/apm_spec.h"

extern struct simbios sim;
extern struct apm_state st;
extern struct apm_ports ports;
extern char why[128];

/* Every error code apm-reference.md names, with the words the code must print for
 * it, plus codes it does not name ("unknown error 42h"). */
struct apm_error_case {
    uint8_t code;
    const char *text;
};
extern const struct apm_error_case apm_errors[];
extern const unsigned apm_errors_count;

/* A 1.2 BIOS with both PM interfaces; st talks to it through the rm port. */
int fixture_setup(void **state);
/* Prints log and calls when UNIT_VERBOSE is set in the environment. */
int fixture_teardown(void **state);
/* Starts again on a BIOS of another version (the test then adjusts sim). */
void fixture_reset(uint16_t version);

/* Prints the log and the BIOS's calls to stderr (a failing test's context). */
void fixture_dump(void);

/* Installation check then connect; fails the test if either fails. */
void connect_ok(enum apm_iface iface);

/* The n-th call of function fn (AL) exists and carried BX, CX through port via. */
#define assert_call(fn, n, via_, bx_, cx_)                                         \
    do {                                                                           \
        const struct sim_call *c_ = sim_nth(&sim, (fn), (n));                      \
        if (!c_ || c_->via != (via_) || c_->bx != (bx_) || c_->cx != (cx_)) {      \
            fixture_dump();                                                        \
            fail_msg("call 53%02Xh #%u: want via %d BX=%04Xh CX=%04Xh", (fn),      \
                     (unsigned)(n), (int)(via_), (unsigned)(bx_), (unsigned)(cx_));\
        }                                                                          \
    } while (0)

/* The n-th call of fa was made before the m-th call of fb. */
#define assert_call_before(fa, n, fb, m)                                           \
    do {                                                                           \
        int a_ = sim_index(&sim, (fa), (n)), b_ = sim_index(&sim, (fb), (m));      \
        if (a_ < 0 || b_ < 0 || a_ >= b_) {                                        \
            fixture_dump();                                                        \
            fail_msg("want 53%02Xh #%u (at %d) before 53%02Xh #%u (at %d)", (fa),  \
                     (unsigned)(n), a_, (fb), (unsigned)(m), b_);                  \
        }                                                                          \
    } while (0)

#define assert_calls(fn, count)                                                    \
    do {                                                                           \
        if (sim_count(&sim, (fn)) != (count)) {                                    \
            fixture_dump();                                                        \
            fail_msg("53%02Xh was called %u times, want %u", (fn),                 \
                     sim_count(&sim, (fn)), (unsigned)(count));                    \
        }                                                                          \
    } while (0)

#define assert_why(text)                                                           \
    do {                                                                           \
        if (strcmp(why, (text))) {                                                 \
            fixture_dump();                                                        \
            fail_msg("why is \"%s\", want \"%s\"", why, (text));                   \
        }                                                                          \
    } while (0)

#endif
