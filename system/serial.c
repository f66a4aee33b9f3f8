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
#include "../lib/string.h"
#include "../lib/uart.h"

#define COM1            PORT_COM1

#define TX_SPIN_LIMIT   100000  /* about 10 character times on slow hardware */

static const char *kind;
static unsigned tx_fifo = 1;    /* bytes the transmitter takes once it is empty */
static unsigned tx_room;        /* of them, still free since we last saw it empty */

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
    outb(COM1 + UART_DLL, UART_BAUD_115200 & 0xFF);
    outb(COM1 + UART_DLM, UART_BAUD_115200 >> 8);
    outb(COM1 + UART_LCR, LCR_8N1);
    kind = uart_kind();
    if (!strcmp(kind, "16550A"))
        tx_fifo = UART_FIFO_BYTES;
    outb(COM1 + UART_MCR, MCR_DTR_RTS);
}

const char *serial_kind(void)
{
    return kind;
}

/* A 16550A's empty transmitter takes 16 bytes at once: the line status is read once
 * for each 16 bytes instead of for each one. */
void serial_putc(char c)
{
    if (!kind)
        return;
    if (!tx_room) {
        for (int i = 0; i < TX_SPIN_LIMIT; i++)
            if (inb(COM1 + UART_LSR) & LSR_THR_EMPTY)
                break;
        tx_room = tx_fifo;
    }
    tx_room--;
    outb(COM1 + UART_DATA, (uint8_t)c);
}

void serial_flush(void)
{
    if (!kind)
        return;
    for (int i = 0; i < TX_SPIN_LIMIT * UART_FIFO_BYTES; i++)
        if (inb(COM1 + UART_LSR) & LSR_TX_IDLE)
            break;
    tx_room = tx_fifo;
}

bool serial_getc(char *c)
{
    if (!kind || !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
        return false;
    *c = (char)inb(COM1 + UART_DATA);
    return true;
}
