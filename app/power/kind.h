/* method='s kind of chain (app/common/chain.h): method=apm,acpi means "power off
 * through APM; if the machine is still on, through ACPI S5". Each method says its own
 * lines (the APM calls, the S5 writes, the wait for the power to go) and waits for
 * the power itself; the chain names a method the machine lacks and says each fall
 * back. The run ends with the last method's own halt code. */
#ifndef APMOFF_POWER_KIND_H
#define APMOFF_POWER_KIND_H

#include "../common/chain.h"

#define POWER_KIND { .skipped = "%s: %s", .next = "falling back to method %s" }

#endif
