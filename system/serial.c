/* COM1 driver: polled output, no interrupts (the kernel never enables them).
 *
 * COM1 is the BIOS's first serial port, found and programmed by lib/uart.c (which says
 * why the loopback test and why the BDA). Bochs' BIOS drops bytes written while the
 * transmitter is busy, so we wait for the holding register to empty before every
 * byte (or every 16 on a 16550A). With no UART, serial output is skipped rather than
 * waited on forever. */
#include "serial.h"
#include "io.h"
#include "../lib/bda.h"
#include "../lib/string.h"
#include "../lib/uart.h"

#define TX_SPIN_LIMIT   100000  /* about 10 character times on slow hardware */

static uint16_t com1;           /* its base; 0: none answered */
static const char *kind;
static unsigned tx_fifo = 1;    /* bytes the transmitter takes once it is empty */
static unsigned tx_room;        /* of them, still free since we last saw it empty */

static uint8_t port_in(uint16_t port)
{
    return inb(port);
}

static void port_out(uint16_t port, uint8_t value)
{
    outb(port, value);
}

void serial_init(void)
{
    static const struct uart_io io = { port_in, port_out };

    com1 = uart_find_com1(&io, (uint16_t)peek32(BDA_COM_PORTS));
    if (!com1)
        return;
    kind = uart_setup(&io, com1);
    if (!strcmp(kind, "16550A"))
        tx_fifo = UART_FIFO_BYTES;
}

unsigned serial_base(void)
{
    return com1;
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
            if (inb(com1 + UART_LSR) & LSR_THR_EMPTY)
                break;
        tx_room = tx_fifo;
    }
    tx_room--;
    outb(com1 + UART_DATA, (uint8_t)c);
}

void serial_flush(void)
{
    if (!kind)
        return;
    for (int i = 0; i < TX_SPIN_LIMIT * UART_FIFO_BYTES; i++)
        if (inb(com1 + UART_LSR) & LSR_TX_IDLE)
            break;
    tx_room = tx_fifo;
}

bool serial_getc(char *c)
{
    if (!kind || !(inb(com1 + UART_LSR) & LSR_DATA_READY))
        return false;
    *c = (char)inb(com1 + UART_DATA);
    return true;
}
