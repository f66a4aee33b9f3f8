/* COM1 driver: polled output, no interrupts (the kernel never enables them).
 *
 * The UART is found with the modem-control loopback test rather than the scratch
 * register: the 8250 that 86Box (like many real ISA boards) gives a 386 has no
 * scratch register, and GRUB, which probes that way, writes nothing there. In
 * loopback the modem outputs come back as modem status inputs, which no floating bus
 * and no other device imitates. Bochs' BIOS leaves the line control register at 0
 * (5-bit characters) and drops bytes written while the transmitter is busy, so we
 * program the UART ourselves and wait for the holding register to empty before every
 * byte. With no UART, serial output is skipped rather than waited on forever. */
#include "serial.h"
#include "io.h"
#include "../lib/pc.h"

#define COM1            PORT_COM1
#define UART_DATA       0       /* receive buffer / transmit holding (DLAB=0) */
#define UART_DLL        0       /* divisor latch low (DLAB=1) */
#define UART_DLM        1       /* divisor latch high (DLAB=1) */
#define UART_IER        1       /* interrupt enable */
#define UART_IIR        2       /* interrupt identification (read) */
#define UART_FCR        2       /* FIFO control (write; no effect before the 16550) */
#define UART_LCR        3       /* line control */
#define UART_MCR        4       /* modem control */
#define UART_LSR        5       /* line status */
#define UART_MSR        6       /* modem status */
#define UART_SCR        7       /* scratch (16450 and later; the 8250 has none) */

#define LCR_8N1         0x03
#define LCR_DLAB        0x80
#define FCR_ENABLE_CLEAR 0x07   /* enable FIFOs and clear both */
#define IIR_FIFO_MASK   0xC0    /* 11b: FIFOs on (16550A); 10b: the 16550's broken FIFO */
#define MCR_DTR_RTS     0x03
#define MCR_RTS_OUT2    0x0A
#define MCR_LOOP        0x10
#define MSR_STATUS_MASK 0xF0    /* CTS, DSR, RI, DCD */
#define MSR_CTS_DCD     0x90    /* what RTS and OUT2 give back in loopback */
#define LSR_DATA_READY  0x01
#define LSR_THR_EMPTY   0x20

#define BAUD_DIVISOR    1       /* 115200 / 115200 */
#define TX_SPIN_LIMIT   100000  /* about 10 character times on slow hardware */

static const char *kind;

/* The loopback test of the modem control lines. */
static bool uart_answers(void)
{
    uint8_t mcr = inb(COM1 + UART_MCR);
    outb(COM1 + UART_MCR, MCR_LOOP);
    bool quiet = (inb(COM1 + UART_MSR) & MSR_STATUS_MASK) == 0;
    outb(COM1 + UART_MCR, MCR_LOOP | MCR_RTS_OUT2);
    bool echoed = (inb(COM1 + UART_MSR) & MSR_STATUS_MASK) == MSR_CTS_DCD;
    outb(COM1 + UART_MCR, mcr);
    return quiet && echoed;
}

static const char *uart_kind(void)
{
    outb(COM1 + UART_FCR, FCR_ENABLE_CLEAR);
    switch (inb(COM1 + UART_IIR) & IIR_FIFO_MASK) {
    case IIR_FIFO_MASK:
        return "16550A";
    case 0x80:
        outb(COM1 + UART_FCR, 0);       /* the 16550's FIFO loses bytes: leave it off */
        return "16550";
    }
    outb(COM1 + UART_SCR, 0x5A);
    return inb(COM1 + UART_SCR) == 0x5A ? "16450" : "8250";
}

void serial_init(void)
{
    if (!uart_answers())
        return;
    outb(COM1 + UART_IER, 0);
    outb(COM1 + UART_LCR, LCR_DLAB);
    outb(COM1 + UART_DLL, BAUD_DIVISOR & 0xFF);
    outb(COM1 + UART_DLM, BAUD_DIVISOR >> 8);
    outb(COM1 + UART_LCR, LCR_8N1);
    kind = uart_kind();
    outb(COM1 + UART_MCR, MCR_DTR_RTS);
}

const char *serial_kind(void)
{
    return kind;
}

void serial_putc(char c)
{
    if (!kind)
        return;
    for (int i = 0; i < TX_SPIN_LIMIT; i++)
        if (inb(COM1 + UART_LSR) & LSR_THR_EMPTY)
            break;
    outb(COM1 + UART_DATA, (uint8_t)c);
}

bool serial_getc(char *c)
{
    if (!kind || !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
        return false;
    *c = (char)inb(COM1 + UART_DATA);
    return true;
}
