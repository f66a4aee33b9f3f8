/* action=check: the BIOS's APM interface against the specification, one named check
 * at a time, each printed as
 *
 *   apmoff: check PASS|FAIL|SKIP <name> (<function>, APM <version>): <detail>
 *
 * then `apmoff: check summary: N passed, N failed, N skipped`. No standby, suspend
 * or off is requested. The one 5307h call, which asks for a reserved state that a
 * conforming BIOS must refuse, is made only when strict: a BIOS that tests only for
 * states 1 and 2 could take any other value for "off". Written against struct
 * apm_port like the rest of apm/, so it runs against the simulated BIOS in the unit
 * tests too. */
#ifndef APMOFF_CHECK_H
#define APMOFF_CHECK_H

#include "poweroff.h"

#define CHECK_MAX 48

enum check_verdict {
    CHECK_PASS,
    CHECK_FAIL,
    CHECK_SKIP,
};

struct check_result {
    const char *name;
    enum check_verdict verdict;
};

struct check_report {
    unsigned passed, failed, skipped;
    bool strict;                /* the reserved-state probe ran */
    unsigned count;
    struct check_result results[CHECK_MAX];
};

/* Runs every check (strict: the reserved-state 5307h probe too); false when there is
 * no APM BIOS at all (nothing to check). */
bool apm_check(struct apm_state *s, const struct apm_ports *ports, bool strict,
               struct check_report *rep);

const char *check_verdict_name(enum check_verdict v);

#endif
