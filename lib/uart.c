/* Finding and setting up COM1: see uart.h.
 *
 * COM1 is where the BIOS says, as DOS and GRUB take it: the first word of the BDA. A
 * board's Super I/O may sit at 2F8h with nothing at 3F8h (86Box's Intel AN430TX, a
 * National PC87307, with its BIOS's saved setup: BDA 40:00h = 02F8h, FFh at every
 * 3F8h register), and a driver fixed on 3F8h then finds no port where GRUB wrote.
 * Only the four standard bases are taken from the BDA: the word is plain memory (a
 * UEFI boot has no BDA), and a write to an unknown port could reach any device.
 *
 * The UART is found with the modem-control loopback test rather than the scratch
 * register: the 8250 that 86Box (like many real ISA boards) gives a 386 has no
 * scratch register. In loopback the modem outputs come back as modem status
 * inputs. Bochs' BIOS leaves the line control register at 0 (5-bit characters), so
 * the UART is programmed here whatever the BIOS did. */
#include "uart.h"
#include "pc.h"

/* 86Box (c23ad1b, serial_receive_timer) copies its host device's modem status into
 * the MSR once a bit time (8.7 us at 115200 baud), in loopback too, where a real UART
 * cuts the inputs off: a read that follows that poll instead of our MCR write sees
 * the outside line (CTS alone, for its "file" device): one build's kernel found no
 * UART on the TC430HX, boot after boot, where its loader had just written. So each
 * step writes the MCR again and reads until the echo comes; a floating bus (FFh) or
 * a port that keeps the last byte written never gives it. A try that lasts as long
 * as the poll's period would meet it every time (86Box is deterministic: the 386's
 * 720 KB and EGA machines found no UART, boot after boot), so try n first reads the
 * line status n times, each try starting at another point of the period. */
#define LOOPBACK_TRIES  16

static bool loop_echo(const struct uart_io *io, uint16_t base, uint8_t mcr, uint8_t want)
{
    for (int i = 0; i < LOOPBACK_TRIES; i++) {
        for (int skew = 0; skew < i; skew++)
            io->in(base + UART_LSR);
        io->out(base + UART_MCR, mcr);
        if ((io->in(base + UART_MSR) & MSR_STATUS_MASK) == want)
            return true;
    }
    return false;
}

bool uart_answers(const struct uart_io *io, uint16_t base)
{
    uint8_t mcr = io->in(base + UART_MCR);
    bool answered = loop_echo(io, base, MCR_LOOP, 0) &&
                    loop_echo(io, base, MCR_LOOP | MCR_RTS_OUT2, MSR_CTS_DCD);
    io->out(base + UART_MCR, mcr);
    return answered;
}

static bool standard_base(uint16_t base)
{
    return base == PORT_COM1 || base == PORT_COM2 || base == PORT_COM3 ||
           base == PORT_COM4;
}

uint16_t uart_find_com1(const struct uart_io *io, uint16_t bda_com1)
{
    if (standard_base(bda_com1) && bda_com1 != PORT_COM1 && uart_answers(io, bda_com1))
        return bda_com1;
    return uart_answers(io, PORT_COM1) ? PORT_COM1 : 0;
}

const char *uart_setup(const struct uart_io *io, uint16_t base)
{
    const char *kind;

    io->out(base + UART_IER, 0);
    io->out(base + UART_LCR, LCR_DLAB);
    io->out(base + UART_DLL, UART_BAUD_115200 & 0xFF);
    io->out(base + UART_DLM, UART_BAUD_115200 >> 8);
    io->out(base + UART_LCR, LCR_8N1);
    io->out(base + UART_FCR, FCR_ENABLE_CLEAR);
    switch (io->in(base + UART_IIR) & IIR_FIFO_MASK) {
    case IIR_FIFO_MASK:
        kind = "16550A";
        break;
    case IIR_FIFO_BROKEN:
        io->out(base + UART_FCR, 0);    /* the 16550's FIFO loses bytes: leave it off */
        kind = "16550";
        break;
    default:
        io->out(base + UART_SCR, 0x5A);
        kind = io->in(base + UART_SCR) == 0x5A ? "16450" : "8250";
        break;
    }
    io->out(base + UART_MCR, MCR_DTR_RTS);
    return kind;
}
