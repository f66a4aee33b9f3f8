/* How a run ends when the machine is still on.
 *
 * Every end prints `apmoff: halted: <reason>` as its last line (the output contract),
 * then stops the CPU, or, when the user asked for it with onfail=, resets the machine
 * (failures only) or leaves QEMU through its isa-debug-exit device (every end, so an
 * emulator CI gets a verdict for every action).
 *
 * isa-debug-exit (-device isa-debug-exit,iobase=0xf4,iosize=4) makes QEMU exit with
 * status (code << 1) | 1. The codes are part of the public contract (README.md). */
#ifndef APMOFF_HALT_H
#define APMOFF_HALT_H

#include <stdbool.h>


/* onfail=: what a run that ends with the machine still on does last. */
enum onfail {
    ONFAIL_HALT,                /* print the reason and halt (the default) */
    ONFAIL_REBOOT,              /* print the reason and reset the machine */
    ONFAIL_EXIT,                /* print the reason and write a code to QEMU's isa-debug-exit */
};

enum halt_code {
    HALT_POWEROFF_FAILED = 1,   /* every interface was tried: status 3 */
    HALT_NO_APM = 2,            /* no APM BIOS answered: status 5 */
    HALT_NO_BIOS = 3,           /* no legacy BIOS (UEFI, or an empty IVT): status 7 */
    HALT_EXCEPTION = 4,         /* a CPU exception: status 9 */
    HALT_CHECK_PASSED = 5,      /* action=check, every check passed or skipped: status 11 */
    HALT_CHECK_FAILED = 6,      /* action=check, some check failed: status 13 */
    HALT_STATE_FAILED = 7,      /* action=standby/suspend: the BIOS refused: status 15 */
    HALT_SURVEY_DONE = 8,       /* action=survey finished: status 17 */
    HALT_STATE_RETURNED = 9,    /* action=standby/suspend: the BIOS came back: status 19 */
    HALT_OPTION_ERROR = 10,     /* the command line was refused: status 21 */
    HALT_CHECK_AS_EXPECTED = 11,/* action=check: some checks failed, exactly the ones
                                   expected of this known BIOS: status 23 */
    HALT_SELFTEST_DONE = 12,    /* selftest= finished: status 25 */
    HALT_NO_ACPI = 13,          /* method=acpi: no usable ACPI S5 (no RSDP, FADT, PM1a
                                   control block or \_S5_ object): status 27 */
    HALT_ACPI_STILL_ON = 14,    /* method=acpi: S5 was written, the machine is still
                                   on: status 29 */
    HALT_NO_EFI = 15,           /* method=efi: no UEFI runtime services ResetSystem
                                   (not booted through UEFI, or unusable): status 31 */
    HALT_EFI_STILL_ON = 16,     /* method=efi: ResetSystem returned, or the machine
                                   is still on after it: status 33 */
    HALT_RESET_FAILED = 17,     /* action=reboot: each reset method the list names
                                   was tried (or is absent) and the machine still
                                   runs: status 35 */
    HALT_NO_RESET = 18,         /* action=reboot: none of the methods the list names
                                   is there: status 37 */
    HALT_NO_CHIPSET = 19,       /* method=chipset: no south bridge of the soft-off
                                   table, or its PM I/O base unset: status 39 */
    HALT_CHIPSET_STILL_ON = 20, /* method=chipset: the soft-off was written, the
                                   machine is still on: status 41 */
    HALT_DUMP_DONE = 21,        /* action=dump finished: status 43 */
};

/* Whether a code ends a run that did not do what it was asked (onfail=reboot then
 * resets the machine). */
bool halt_is_failure(enum halt_code code);

void halt_set_onfail(enum onfail onfail);
/* Called with the code and reason before the halted line (the run's summary). */
void halt_set_epilogue(void (*epilogue)(enum halt_code code, const char *reason));
void halt(enum halt_code code, const char *reason) __attribute__((noreturn));

#endif
