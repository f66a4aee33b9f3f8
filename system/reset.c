/* Port-level resets: see reset.h. */
#include "reset.h"
#include "io.h"
#include "timer.h"
#include "../lib/bda.h"
#include "../lib/pc.h"

#define CF9_SETTLE_US 50        /* between SYS_RST and RST_CPU, as Linux waits */

static inline void poke16(uint32_t addr, uint16_t v)
{
    __asm__ volatile("movw %1, (%0)" : : "r"(addr), "r"(v) : "memory");
}

void reset_flag_set(uint16_t flag)
{
    poke16(BDA_RESET_FLAG, flag);
}

uint16_t reset_flag_get(void)
{
    return (uint16_t)peek32(BDA_RESET_FLAG);
}

bool kbc_present(uint8_t *status)
{
    *status = inb(KBC_CTRL);
    return *status != 0xFF;
}

bool kbc_pulse_reset(void)
{
    uint64_t start = timer_us();
    bool ready;

    while (!(ready = !(inb(KBC_CTRL) & KBC_STATUS_IN_FULL)) &&
           timer_us() - start < KBC_WAIT_MS * 1000u)
        ;
    outb(KBC_CTRL, KBC_CMD_RESET);
    return ready;
}

void reset_control_write(void)
{
    outb(PORT_RESET_CONTROL, RESET_CONTROL_SYS_RST);
    pit_delay_us(CF9_SETTLE_US);
    outb(PORT_RESET_CONTROL, RESET_CONTROL_SYS_RST | RESET_CONTROL_RST_CPU);
}

void port_a_fast_reset(void)
{
    uint8_t a = (uint8_t)(inb(PORT_A) & ~PORT_A_RESET);
    outb(PORT_A, a);
    io_delay();
    outb(PORT_A, (uint8_t)(a | PORT_A_RESET));
}

void triple_fault(void)
{
    static const struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) no_idt = { 0, 0 };

    __asm__ volatile("cli; lidt %0; int3" : : "m"(no_idt));
    cpu_halt_forever();
}
