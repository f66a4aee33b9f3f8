/* The loader's way to the BIOS and out of real mode (loader/head.asm), and port I/O.
 *
 * intcall() is the one BIOS call: the registers of *in, INT vector, the registers as
 * the BIOS left them into *out. initregs() (lib/biosregs.h) pre-sets CF, so a function
 * the BIOS does not have reads as a failure. */
#ifndef APMOFF_LOADER_BIOS_H
#define APMOFF_LOADER_BIOS_H

#include <stdint.h>

#include "../lib/biosregs.h"

void intcall(uint8_t vector, const struct biosregs *in, struct biosregs *out);
/* The 4 GiB reach of DS, ES, FS and GS from real mode, again (intcall does it after
 * every call). */
void unreal_enter(void);
/* Starts a multiboot kernel: never returns. */
void boot_kernel(uint32_t entry, uint32_t info) __attribute__((noreturn));
/* Halts for good, interrupts on (Ctrl-Alt-Del works). */
void loader_halt(void) __attribute__((noreturn));

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

/* Physical memory, through unreal mode's 4 GiB segments: a C pointer to any address.
 * The address passes through an empty asm, so the compiler does not take a BIOS data
 * area address (40:6Ch) for a pointer into its null page. */
static inline void *phys(uint32_t addr)
{
    __asm__("" : "+r"(addr));
    return (void *)(uintptr_t)addr;
}

#endif
