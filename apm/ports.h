/* The kernel's APM ports (struct apm_port): how each interface reaches the BIOS.
 *
 *   rm    INT 15h through bios_int() (the trampoline, or the v86 monitor)
 *   pm32  far call to the BIOS's 32-bit entry, from our 32-bit code
 *   pm16  far call to the BIOS's 16-bit entry, from the trampoline's 16-bit segment
 *
 * The protected-mode ports mask the PICs for the length of each call (the report says
 * so once): our IDT has no IRQ handlers, and the PICs stay at the BIOS's vectors. */
#ifndef APMOFF_PORTS_H
#define APMOFF_PORTS_H

#include <stdbool.h>

#include "apm.h"

extern struct apm_port apm_port_rm;       /* its tag says which path it takes */
extern const struct apm_port apm_port_pm32;
extern const struct apm_port apm_port_pm16;

/* bioscall=v86: the rm port's power-off line says so. */
void apm_port_rm_tag_v86(void);
/* bioscall=auto: 5307h off said after a grace, and made again through the trampoline
 * if it came back; standby and suspend through the trampoline (port_rm.c says why). */
void apm_port_rm_watch_off(void);
/* irq=on: make BIOS calls with IF set (Linux and OpenBSD do for some machines). */
void apm_ports_allow_interrupts(bool on);
/* Whether irq=on asked for interrupts during BIOS calls. */
bool apm_ports_interrupts(void);
/* The EFLAGS a BIOS call starts with: CF pre-set, IF as configured. */
uint32_t apm_ports_eflags(uint32_t eflags);
/* Whether the call is 5307h standby or suspend, which returns when the machine
 * resumes, maybe hours later (a key, the lid, the power button): not a BIOS that
 * hung, and one that may halt for an interrupt to come. */
bool apm_call_blocks(const struct biosregs *regs);

/* A 32-bit far call to a flat address in the firmware (the BIOS32 Service Directory,
 * the PCI BIOS's 32-bit service), with flat code and data selectors of its own and
 * the guard and masking of the APM calls. False when it faulted; *why says where. */
bool pm32_flat_call(uint32_t entry, struct biosregs *regs, const char **why);

#endif
