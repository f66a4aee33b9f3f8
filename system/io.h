/* Port I/O and the few CPU instructions C needs. Header-only: every user is
 * freestanding kernel code. */
#ifndef APMOFF_IO_H
#define APMOFF_IO_H

#include <stdint.h>

#include "../lib/pc.h"

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
    __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
    uint16_t v;
    __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

/* Dword I/O: the 386 has it; PCI configuration mechanism #1 needs it. */
static inline void outl(uint16_t port, uint32_t v)
{
    __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

/* A write to an unused port takes about a microsecond on ISA machines: the classic
 * pause between accesses to slow devices such as the 8259 and the 8042. */
static inline void io_delay(void)
{
    outb(PORT_POST, 0);
}

static inline __attribute__((noreturn)) void cpu_halt_forever(void)
{
    for (;;)
        __asm__ volatile("cli; hlt");
}

/* Reads a physical address as such. GCC treats a constant low address like 0x54 as an
 * out-of-bounds object access; the IVT and the BIOS data really live there. */
static inline uint32_t peek32(uint32_t addr)
{
    uint32_t v;
    __asm__ volatile("movl (%1), %0" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

static inline void poke32(uint32_t addr, uint32_t v)
{
    __asm__ volatile("movl %1, (%0)" : : "r"(addr), "r"(v) : "memory");
}

static inline uint32_t read_eflags(void)
{
    uint32_t f;
    __asm__ volatile("pushfl; popl %0" : "=r"(f));
    return f;
}

static inline void write_eflags(uint32_t f)
{
    __asm__ volatile("pushl %0; popfl" : : "r"(f) : "cc");
}

#endif
