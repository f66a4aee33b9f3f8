/* COM1 driver: polled output, no interrupts (the kernel never enables them).
 *
 * Bochs' BIOS leaves the line control register at 0 (5-bit characters) and drops
 * bytes written while the transmitter is busy, so we program the UART ourselves and
 * wait for the holding register to empty before every byte. A missing UART reads
 * back 0xFF: we then skip serial output rather than wait forever on real hardware
 * without a COM1. */
#include "serial.h"
#include "io.h"

#define COM1            0x3F8
#define UART_DATA       0       /* receive buffer / transmit holding (DLAB=0) */
#define UART_DLL        0       /* divisor latch low (DLAB=1) */
#define UART_DLM        1       /* divisor latch high (DLAB=1) */
#define UART_IER        1       /* interrupt enable */
#define UART_FCR        2       /* FIFO control */
#define UART_LCR        3       /* line control */
#define UART_MCR        4       /* modem control */
#define UART_LSR        5       /* line status */
#define UART_SCR        7       /* scratch: used to detect the chip */

#define LCR_8N1         0x03
#define LCR_DLAB        0x80
#define FCR_ENABLE_CLEAR 0x07   /* enable FIFOs and clear both */
#define MCR_DTR_RTS     0x03
#define LSR_DATA_READY  0x01
#define LSR_THR_EMPTY   0x20

#define BAUD_DIVISOR    1       /* 115200 / 115200 */
#define TX_SPIN_LIMIT   100000  /* about 10 character times on slow hardware */

static bool present;

void serial_init(void)
{
    outb(COM1 + UART_SCR, 0x5A);
    present = inb(COM1 + UART_SCR) == 0x5A;
    if (!present)
        return;
    outb(COM1 + UART_IER, 0);
    outb(COM1 + UART_LCR, LCR_DLAB);
    outb(COM1 + UART_DLL, BAUD_DIVISOR & 0xFF);
    outb(COM1 + UART_DLM, BAUD_DIVISOR >> 8);
    outb(COM1 + UART_LCR, LCR_8N1);
    outb(COM1 + UART_FCR, FCR_ENABLE_CLEAR);
    outb(COM1 + UART_MCR, MCR_DTR_RTS);
}

void serial_putc(char c)
{
    if (!present)
        return;
    for (int i = 0; i < TX_SPIN_LIMIT; i++)
        if (inb(COM1 + UART_LSR) & LSR_THR_EMPTY)
            break;
    outb(COM1 + UART_DATA, (uint8_t)c);
}

bool serial_getc(char *c)
{
    if (!present || !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
        return false;
    *c = (char)inb(COM1 + UART_DATA);
    return true;
}
