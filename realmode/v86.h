/* The virtual-8086 monitor: the second way to reach the BIOS (bioscall=v86, and
 * bioscall=auto's default path).
 *
 * Instead of leaving protected mode, the BIOS runs as a v86 task at IOPL 0 under our
 * GDT and IDT. Every sensitive instruction it executes (INT, IRET, PUSHF, POPF, CLI,
 * STI, HLT) traps to us with a #GP and is emulated against a virtual interrupt flag;
 * INT n is reflected through the real-mode IVT. I/O goes straight to the hardware
 * (the TSS's I/O bitmap allows every port) except to the ports that switch A20 (60h,
 * 64h, 92h), which trap and are written with A20 kept on: our code lives above 1 MiB,
 * and the next trap would fetch garbage. Privileged instructions (MOV CRn, LGDT,
 * ...) and faults end the call with a report naming the instruction and CS:IP, and
 * the caller gets an error instead of a hang or a reboot.
 *
 * IRQs: during a call the PICs are moved clear of the exception vectors, and each IRQ
 * goes to the BIOS's own handler in the IVT once its virtual IF is on (held until
 * then). A BIOS that neither returns nor traps for 6 s is stopped by the timer and
 * reported, unless the caller said the call may block (v86_watchdog).
 *
 * Why both paths: the trampoline is what every BIOS was written for, and what Linux
 * and GRUB do; the monitor keeps protected mode (and our exception handlers) alive, so
 * a BIOS that executes something it should not is caught and named. */
#ifndef APMOFF_V86_H
#define APMOFF_V86_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/biosregs.h"

/* What v86_enter() (v86enter.asm) loads before its IRET into v86 mode; the
 * assembly reads the offsets from build/asm-offsets.inc. */
struct v86_context {
    uint32_t eax, ebx, ecx, edx, esi, edi, ebp;
    uint32_t eip, cs, eflags, esp, ss, es, ds, fs, gs;
};

/* Sets up the TSS and the trap handler, once; the first call does it by itself.
 * The trampoline must be installed (its memory holds the v86 stack and stubs). */
void v86_init(void);

/* The watchdog's limit for the calls that follow, in seconds (6 by default); 0: off,
 * for a call that ends only when something outside happens, such as APM standby or
 * suspend, which return when the machine resumes. */
void v86_watchdog(unsigned seconds);

/* Whether a stopped call says so at once (the default), or leaves it to the caller,
 * whose why holds it: bioscall=auto's power-off call, whose last line before the
 * power goes must stay "powering off via ..." while an emulator's power-off is in
 * flight (QEMU runs SeaBIOS's CLI; HLT after the sleep write before it exits). */
void v86_quiet(bool on);
bool v86_is_quiet(void);

/* Whether the last call failed on a privileged instruction (MOV CRn, LGDT, ...), one
 * the CPU allows in real mode: the same call through the trampoline may work. */
bool v86_stopped_on_privileged(void);

/* INT vector through the IVT, in v86 mode. False, with *why, when the monitor had to
 * stop the BIOS. */
bool v86_int(uint8_t vector, struct biosregs *regs, const char **why);

/* Runs `size` bytes of real-mode code at the trampoline's scratch area as a far
 * call target would be, ending in RETF (or stopped by the monitor): the v86 tests'
 * instructions, and a wait that hands the IRQs to the BIOS (STI; HLT). */
bool v86_run_stub(const uint8_t *code, unsigned size, struct biosregs *regs,
                  const char **why);

/* The same, entered as an interrupt handler (FLAGS, CS, IP on its stack, IF clear)
 * and expected to end in IRET: how v86test=insns runs its stubs, so that the
 * trampoline can run the very same bytes as INT would. */
bool v86_run_handler_stub(const uint8_t *code, unsigned size, struct biosregs *regs,
                          const char **why);

#endif
