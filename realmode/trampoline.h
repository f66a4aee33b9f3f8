/* The real-mode trampoline: 16-bit code copied below 1 MiB that leaves protected
 * mode, issues a BIOS interrupt with a struct biosregs, and comes back; the same code
 * also far-calls the APM 16-bit protected-mode entry point from a 16-bit segment.
 *
 * struct tramp_header sits at the start of the copied code. The kernel fills it in;
 * realmode/trampoline.asm reads it through the offsets generated into
 * build/asm-offsets.inc, so its fields may move freely. */
#ifndef APMOFF_TRAMPOLINE_H
#define APMOFF_TRAMPOLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/biosregs.h"

struct bootinfo;

enum tramp_mode {
    TRAMP_MODE_INT = 0,         /* real mode: call the IVT entry in target, like INT n */
    TRAMP_MODE_FARCALL16 = 1,   /* 16-bit protected mode: far call to target (APM pm16) */
};

/* A20 status bits the trampoline reports after a real-mode call. */
#define TRAMP_A20_WAS_OFF       0x0001  /* the BIOS left A20 off; we turned it back on */

struct tramp_header {
    uint32_t kernel_return;     /* far pointer back to 32-bit kernel code ... */
    uint16_t kernel_cs;         /* ... offset then selector, as JMP FAR m16:32 reads it */
    uint16_t rm_segment;        /* real-mode segment of the trampoline (base >> 4) */
    uint16_t gdtr_limit;        /* our GDTR, reloaded on the way back (a BIOS may */
    uint32_t gdtr_base;         /* have loaded its own) */
    uint16_t rm_idtr_limit;     /* the real-mode IVT: base 0, limit 3FFh */
    uint32_t rm_idtr_base;
    uint16_t mode;              /* enum tramp_mode */
    uint16_t target_off;        /* far pointer the trampoline calls: an IVT entry, */
    uint16_t target_seg;        /* or the APM 16-bit entry (offset, selector) */
    uint16_t regs_off;          /* struct biosregs block; the stack grows down below it */
    uint16_t regs_end;          /* regs_off + sizeof(struct biosregs) */
    uint16_t a20_status;        /* TRAMP_A20_* bits, written by the trampoline */
} __attribute__((packed));

/* Copies the trampoline into free conventional memory (from the boot loader's map)
 * and sets up its GDT descriptors. Returns false, after saying why, when no room. */
bool tramp_install(const struct bootinfo *bi);
bool tramp_installed(void);
/* Memory [lo, end) turned out to be someone else's (owner names whose, for the
 * report): moves the trampoline out of it if they meet, and keeps it out from then
 * on. False, after saying why, when there is nowhere else to go. */
bool tramp_keep_out(uint32_t lo, uint32_t end, const char *owner);
uint32_t tramp_base(void);
/* Offset in the trampoline of TRAMP_SCRATCH_SIZE free bytes right after its code
 * (the v86 monitor puts its tiny real-mode stubs there), and of the top of its stack. */
#define TRAMP_SCRATCH_SIZE 256
uint16_t tramp_scratch(void);
/* TRAMP_BUFFER_SIZE bytes a BIOS call may fill (E820 entries, the VBE information
 * block, EDD parameters): our pointer, and the real-mode address to hand the BIOS. */
#define TRAMP_BUFFER_SIZE 1024
uint8_t *tramp_buffer(uint16_t *seg, uint16_t *off);
uint16_t tramp_stack_top(void);

/* One trip through the trampoline; regs is in and out. */
void tramp_call(enum tramp_mode mode, uint16_t target_seg, uint16_t target_off,
                struct biosregs *regs);

/* Since the last call: did the BIOS turn A20 off (and we back on)? */
bool tramp_a20_was_off(void);

/* After a protected-mode BIOS call, which the trampoline's check does not follow:
 * if A20 is off, turns it back on through a real-mode trip (whose way back runs the
 * trampoline's A20 sequence: INT 15h AX=2401h, the 8042, port 92h). True when it
 * was off. Interrupts off. */
bool tramp_a20_restore(void);

#endif
