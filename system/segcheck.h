/* After every BIOS call: are our data segment registers ours again?
 *
 * The mode-switch assembly (realmode/trampoline.asm, apm/pm32call.asm, the v86
 * monitor's exit) must reload DS, ES, FS, GS and SS with SEL_DATA32. If one of them
 * forgets, QEMU does not notice: TCG checks neither segment limits nor null
 * selectors, and every base is 0 there, so a stale ES still reaches the right memory
 * until a BIOS leaves a non-zero real-mode ES. Bochs faults, on some machines only.
 * So the kernel reads the selectors back itself and stops with their names: a bug
 * in our own glove box is reported on every emulator, the first time it happens. */
#ifndef APMOFF_SEGCHECK_H
#define APMOFF_SEGCHECK_H

/* `after` names the call ("the trampoline", "the pm32 call"). Returns only when
 * every data segment register holds SEL_DATA32; otherwise reloads them, says which
 * was wrong and halts. */
void segs_verify(const char *after);

#endif
