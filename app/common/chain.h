/* The power-off methods chain: method=apm,acpi means "try APM; if the machine is
 * still on, try ACPI S5". Each method is a struct power_method, so the chain runs on
 * the host against fakes (tests/unit/test_methods.c) as in the kernel against the
 * real ones (app/main.c builds the table). A method the machine does not have is
 * said and skipped, never replaced by another the user did not name. */
#ifndef APMOFF_METHODS_H
#define APMOFF_METHODS_H

#include "options.h"
#include "../system/halt.h"

enum method_result {
    METHOD_ABSENT,              /* the machine does not have it: nothing was tried */
    METHOD_STILL_ON,            /* it was tried, and the machine is still on */
};

struct power_method {
    const char *name;           /* as method= spells it */
    enum halt_code absent;      /* the run's end when it is the last and absent */
    enum halt_code still_on;    /* ... when it is the last and was tried */
    /* Tries to power off; returns only when the machine is still on, with why. */
    enum method_result (*off)(char *why, unsigned size);
};

/* Tries each method the user named, in order; returns only when the machine is still
 * on after all of them, with the halt code of the last one and why: one method's
 * reason alone, or "apm: ...; acpi: ..." for a chain. */
enum halt_code methods_power_off(const struct power_method *const table[METHOD_COUNT],
                                 int methods, char *why, unsigned why_size);

#endif
