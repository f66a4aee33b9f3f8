/* The real-mode APM port: INT 15h through bios_int(), whichever path it takes. */
#include "ports.h"
#include "apm_spec.h"
#include "../realmode/bios.h"

static bool rm_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    (void)port;
    return bios_int(APM_INT, regs, regs, why);
}

const struct apm_port apm_port_rm = {
    .name = "rm",
    .call = rm_call,
};
