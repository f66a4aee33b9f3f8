/* The kernel's APM ports (struct apm_port): how each interface reaches the BIOS. */
#ifndef APMOFF_PORTS_H
#define APMOFF_PORTS_H

#include "apm.h"

extern const struct apm_port apm_port_rm;       /* INT 15h through bios_int() */

#endif
