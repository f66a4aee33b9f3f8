/* How a run ends when the machine is still on.
 *
 * Every end prints `apmoff: halted: <reason>` as its last line (the output contract),
 * then stops the CPU, or, for failures and when the user asked for it with onfail=,
 * resets the machine or leaves QEMU through its isa-debug-exit device.
 *
 * isa-debug-exit (-device isa-debug-exit,iobase=0xf4,iosize=4) makes QEMU exit with
 * status (code << 1) | 1. The codes are part of the public contract (README.md). */
#ifndef APMOFF_HALT_H
#define APMOFF_HALT_H

#include "options.h"

enum halt_code {
    HALT_DONE = 0,              /* the action finished (survey): QEMU status 1 */
    HALT_POWEROFF_FAILED = 1,   /* every interface was tried: status 3 */
    HALT_NO_APM = 2,            /* no APM BIOS answered: status 5 */
    HALT_NO_BIOS = 3,           /* no legacy BIOS (UEFI, or an empty IVT): status 7 */
    HALT_EXCEPTION = 4,         /* a CPU exception: status 9 */
    HALT_CHECK_PASSED = 5,      /* action=check, every check passed or skipped: status 11 */
    HALT_CHECK_FAILED = 6,      /* action=check, some check failed: status 13 */
    HALT_STATE_FAILED = 7,      /* action=standby/suspend: the BIOS refused: status 15 */
};

void halt_set_onfail(enum onfail onfail);
void halt(enum halt_code code, const char *reason) __attribute__((noreturn));

#endif
