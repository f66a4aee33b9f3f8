/* 64-bit division without the C library: the i386 kernel links no libgcc, so
 * `a / b` on uint64_t would not link. Used by the AML interpreter (Divide, Mod,
 * decimal strings). */
#ifndef APMOFF_LIB_DIV64_H
#define APMOFF_LIB_DIV64_H

#include <stdint.h>

/* n / d, and n % d in *rem (if not NULL); d must not be 0. */
uint64_t div64(uint64_t n, uint64_t d, uint64_t *rem);

#endif
