/* initregs(): see biosregs.h. Shared by the kernel, the loader and the host tests. */
#include "biosregs.h"

void initregs(struct biosregs *r)
{
    *r = (struct biosregs){ 0 };
    r->eflags = X86_EFLAGS_BIT1 | X86_EFLAGS_CF;
}
