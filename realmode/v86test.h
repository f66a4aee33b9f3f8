/* v86test=: proof that the v86 monitor catches what it must and agrees with the
 * trampoline on what it runs (test support, reported on the console). */
#ifndef APMOFF_V86TEST_H
#define APMOFF_V86TEST_H

enum v86test {
    V86TEST_OFF,
    V86TEST_MOVCR0,             /* a stub writing CR0: must be stopped and named */
    V86TEST_HLT,                /* CLI; HLT: must be stopped and named */
    V86TEST_COMPARE,            /* INT 15h 5300h, 12h, 11h through both paths */
    V86TEST_A20,                /* INT 15h 2400h (A20 off) through both paths: kept on */
    V86TEST_INSNS,              /* each emulated instruction kind, by the CPU and the monitor */
};

/* Returns the number of failed expectations (0 when the monitor behaved). */
int v86_selftest(enum v86test which);

#endif
