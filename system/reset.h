/* The ways a PC resets itself that are a port write or a CPU trick, one function
 * each; which to try, in what order, and what each did is app/'s (app/reset/resets.h).
 * Each returns when the machine is still running, which the caller then waits for
 * and says. Called in 32-bit protected mode, interrupts off. */
#ifndef APMOFF_RESET_H
#define APMOFF_RESET_H

#include <stdbool.h>
#include <stdint.h>

#define KBC_WAIT_MS 50          /* an 8042 takes a byte within a millisecond; Linux's
                                   kb_wait() gives it about 30 ms */

/* The BIOS's warm-boot flag at 40:72h (BDA_RESET_WARM or _COLD), which POST reads
 * after the reset: written before every method. */
void reset_flag_set(uint16_t flag);
uint16_t reset_flag_get(void);

/* Whether an 8042 answers: its status register reads something other than FFh (a
 * port nothing decodes floats high). */
bool kbc_present(uint8_t *status);

/* 8042 command FEh, pulse the reset line, once its input buffer is empty (waited
 * for by the PIT, KBC_WAIT_MS). Returns whether the buffer emptied (FEh is written
 * either way, as Linux does). */
bool kbc_pulse_reset(void);

/* The reset control register at CF9h: SYS_RST (02h), then SYS_RST|RST_CPU (06h), the
 * 0 to 1 change of RST_CPU starting a hard reset, as Linux's and memtest86+'s "pci"
 * reset writes it. */
void reset_control_write(void);

/* Port 92h's fast-reset bit: written 0, then 1 (the change resets the CPU), the
 * other bits (A20 among them) kept. */
void port_a_fast_reset(void);

/* An IDT of limit 0 and an exception: INT3 cannot be delivered, nor the #GP and
 * double fault that follow, and the CPU shuts down, which the board turns into a
 * reset. Returns never. */
void triple_fault(void) __attribute__((noreturn));

#endif
