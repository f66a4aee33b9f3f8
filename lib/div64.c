/* 64-bit division: see div64.h. Restoring division, one quotient bit a step, with a
 * fast path when both fit in 32 bits (the common case, done by the CPU's DIV). */
#include "div64.h"

uint64_t div64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;

    if (!(n >> 32) && !(d >> 32)) {
        uint32_t n32 = (uint32_t)n, d32 = (uint32_t)d;
        if (rem)
            *rem = n32 % d32;
        return n32 / d32;
    }
    for (int i = 63; i >= 0; i--) {
        r = r << 1 | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}
