/* initregs(): see biosregs.h. Shared by the kernel, the loader and the host tests. */
#include "biosregs.h"

void initregs(struct biosregs *r)
{
    *r = (struct biosregs){ 0 };
    r->eflags = X86_EFLAGS_BIT1 | X86_EFLAGS_CF;
}

#define INT15_INVALID       0x80
#define INT15_UNSUPPORTED   0x86

void int15_ask(struct biosregs *r, uint16_t ax)
{
    initregs(r);
    r->eflags &= ~X86_EFLAGS_CF;
    r->ax = ax;
}

int int15_answered(const struct biosregs *r, uint16_t ax)
{
    return !(r->eflags & X86_EFLAGS_CF) && r->ah != INT15_UNSUPPORTED &&
           r->ah != INT15_INVALID && r->ax != ax;
}
