/* action=check: the BIOS's APM interface against the specification, one named check
 * at a time, each printed as
 *
 *   apmoff: check PASS|FAIL|SKIP <name> (<function>, APM <version>): <detail>
 *
 * then `apmoff: check summary: N passed, N failed, N skipped`. Only harmless calls
 * are made: no standby, suspend or off (the one 5307h call asks for a reserved state,
 * which a conforming BIOS must refuse). Written against struct apm_port like the rest
 * of apm/, so it runs against the simulated BIOS in the unit tests too. */
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
    unsigned count;
    struct check_result results[CHECK_MAX];
};

/* Runs every check; false when there is no APM BIOS at all (nothing to check). */
bool apm_check(struct apm_state *s, const struct apm_ports *ports, struct check_report *rep);

const char *check_verdict_name(enum check_verdict v);

#endif
