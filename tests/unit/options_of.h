/* The options a kernel command line gives, for the tests of the lists it holds
 * (method=, reset=): the line is asserted to be accepted. Include after <cmocka.h>. */
#ifndef APMOFF_TESTS_OPTIONS_OF_H
#define APMOFF_TESTS_OPTIONS_OF_H

#include <stdio.h>

#include "../../app/common/options.h"

/* The options of "/k option=value". */
static inline struct options options_of(const char *option, const char *value)
{
    struct options o;
    char line[160];

    options_defaults(&o);
    snprintf(line, sizeof(line), "/k %s=%s", option, value);
    assert_int_equal(options_parse(&o, line), 0);
    return o;
}

#endif
