/* struct biosregs: one register block for every way we reach the BIOS.
 *
 * The layout is the order the trampoline pops and pushes it: POPAD's order
 * (EDI first, EAX last), then GS, FS, ES, DS as 16-bit words, then EFLAGS. The real-mode
 * and 16-bit protected-mode paths pop straight from it and push straight back into
 * it, so the fields must not move: the assembly reads the offsets from
 * build/realmode-offsets.inc, generated from this struct. Each register can be used as
 * its 32-bit (edi), 16-bit (di) or 8-bit (bl, bh) view, like the CPU's. */
#ifndef APMOFF_LIB_BIOSREGS_H
#define APMOFF_LIB_BIOSREGS_H

#include <stdint.h>

#include "x86.h"

#define REG32(e, w)                                                                \
    union {                                                                        \
        uint32_t e;                                                                \
        uint16_t w;                                                                \
    }
#define REG8(e, w, l, h)                                                           \
    union {                                                                        \
        uint32_t e;                                                                \
        uint16_t w;                                                                \
        struct {                                                                   \
            uint8_t l, h;                                                          \
        };                                                                         \
    }

struct biosregs {
    REG32(edi, di);
    REG32(esi, si);
    REG32(ebp, bp);
    uint32_t _esp;              /* POPAD skips it; the BIOS gets our stack */
    REG8(ebx, bx, bl, bh);
    REG8(edx, dx, dl, dh);
    REG8(ecx, cx, cl, ch);
    REG8(eax, ax, al, ah);
    uint16_t gs, fs, es, ds;
    union {
        uint32_t eflags;
        uint16_t flags;
    };
};

#undef REG32
#undef REG8

_Static_assert(sizeof(struct biosregs) == 44, "struct biosregs is popped as a whole");

/* Zero every register and pre-set CF: a BIOS function that silently does nothing then
 * reads as a failure instead of a success. */
void initregs(struct biosregs *r);

/* INT 15h functions that answer in AX (AH=88h, AX=E801h) are asked with CF clear and
 * judged by what the registers show: the 1993 Award BIOS of the 86Box 386 answers 88h
 * by IRET without touching CF, so with CF pre-set its 7 MiB read as "not supported".
 * An answer is CF clear, no error in AH (80h invalid, 86h not supported), and AX
 * changed from what went in (a BIOS without the function returns and changes
 * nothing). int15_ask() sets up r for AX=ax so; int15_answered() judges what came
 * back. */
void int15_ask(struct biosregs *r, uint16_t ax);
int int15_answered(const struct biosregs *r, uint16_t ax);

#endif
