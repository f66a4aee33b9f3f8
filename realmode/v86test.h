/* v86test=: proof that the v86 monitor catches what it must and agrees with the
 * trampoline on what it runs (test support, reported on the console). */
#ifndef APMOFF_V86TEST_H
#define APMOFF_V86TEST_H

#include "../kernel/options.h"

/* Returns the number of failed expectations (0 when the monitor behaved). */
int v86_selftest(enum v86test which);

#endif
