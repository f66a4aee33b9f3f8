/* cmocka assertions over the host console log (host_console.h). Each prints the
 * whole log when it fails, since the log is what tells why. Include after
 * <cmocka.h>. */
#ifndef APMOFF_TESTS_LOG_ASSERT_H
#define APMOFF_TESTS_LOG_ASSERT_H

#include "host_console.h"

#define log_fail(...)                                                              \
    do {                                                                           \
        log_print(stderr);                                                         \
        fail_msg(__VA_ARGS__);                                                     \
    } while (0)

/* Some line contains needle. */
#define assert_log_has(needle)                                                     \
    do {                                                                           \
        if (!log_has(needle))                                                      \
            log_fail("no console line contains \"%s\"", (needle));                 \
    } while (0)

/* No line contains needle. */
#define assert_log_lacks(needle)                                                   \
    do {                                                                           \
        int at_ = log_find(needle);                                                \
        if (at_ >= 0)                                                              \
            log_fail("line %d should not contain \"%s\"", at_, (needle));          \
    } while (0)

/* Index of the first line containing needle; fails the test when there is none. */
#define log_expect(needle)                                                         \
    ({                                                                             \
        int at_ = log_find(needle);                                                \
        if (at_ < 0)                                                               \
            log_fail("no console line contains \"%s\"", (needle));                 \
        at_;                                                                       \
    })

/* A line containing a comes before a line containing b. */
#define assert_log_order(a, b)                                                     \
    do {                                                                           \
        int a_ = log_expect(a);                                                    \
        if (log_find_from((unsigned)a_ + 1, b) < 0)                                \
            log_fail("no line containing \"%s\" after line %d (\"%s\")", (b), a_,   \
                     (a));                                                         \
    } while (0)

#endif
