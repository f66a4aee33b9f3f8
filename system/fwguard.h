/* A CPU exception in firmware the kernel called ends that call, not the run.
 *
 * An APM protected-mode entry is the BIOS's code running in our protected mode, with
 * our IDT: a bug in it that real mode would forgive (HP's Vectra VL 5 far-calls
 * F000:9728h from its 32-bit entry) raises #GP, and until now the register dump was
 * the run's last word, though the real-mode interface, ACPI or the chipset might
 * still power the machine off. fw_guarded() runs such a call; an exception whose
 * CS is not the kernel's prints the usual dump, then returns to fw_guarded() as a
 * failed call, with where it happened. A fault in our own code still halts: that is
 * a bug of ours, and going on would hide it. */
#ifndef APMOFF_FWGUARD_H
#define APMOFF_FWGUARD_H

#include <stdbool.h>
#include <stdint.h>

struct exception_frame;

struct fw_fault {
    uint32_t vector, error;
    uint16_t cs;
    uint32_t eip;
    char text[64];              /* "CPU exception 13 (#GP general protection) at
                                   0050:000000E7", as the halt line would say */
};

/* fn(arg) under the guard. True when it returned; false when the firmware faulted,
 * *fault saying how (the dump is on the console already). Not nested. */
bool fw_guarded(void (*fn)(void *arg), void *arg, struct fw_fault *fault);

/* From the exception path, after the dump: ends the guarded call when the fault is
 * the firmware's, reason becoming fault->text; returns when no guarded call is under
 * way or the fault is ours. */
void fw_guard_catch(const struct exception_frame *f, const char *reason);

#endif
