/* The real-mode APM port: INT 15h through bios_int(), whichever path it takes. */
#include "ports.h"
#include "apm_spec.h"
#include "../realmode/bios.h"

static bool interrupts_on;

void apm_ports_allow_interrupts(bool on)
{
    interrupts_on = on;
}

bool apm_ports_interrupts(void)
{
    return interrupts_on;
}

uint32_t apm_ports_eflags(uint32_t eflags)
{
    return interrupts_on ? eflags | X86_EFLAGS_IF : eflags & ~X86_EFLAGS_IF;
}

static bool rm_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    (void)port;
    regs->eflags = apm_ports_eflags(regs->eflags);
    return bios_int(APM_INT, regs, regs, why);
}

struct apm_port apm_port_rm = {
    .name = "rm",
    .call = rm_call,
};

void apm_port_rm_tag_v86(void)
{
    apm_port_rm.tag = " (v86)";
}
