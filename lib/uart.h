/* The PC's serial port, an 8250 or one of its heirs (16450, 16550, 16550A): its
 * registers, as offsets from the port's base (lib/pc.h), the bits apmoff uses, and
 * how COM1 is found and set up (lib/uart.c). The kernel's driver (system/serial.c)
 * and the floppy loader's (loader/console.c) both use them; the I/O is the caller's
 * (struct uart_io), so tests/unit/test_uart.c runs the same code on simulated ports. */
#ifndef APMOFF_LIB_UART_H
#define APMOFF_LIB_UART_H

#include <stdbool.h>
#include <stdint.h>

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
#define IIR_FIFO_MASK   0xC0    /* 11b: FIFOs on (16550A) */
#define IIR_FIFO_BROKEN 0x80    /* 10b: the 16550, whose FIFO loses bytes */
#define MCR_DTR_RTS     0x03
#define MCR_RTS_OUT2    0x0A
#define MCR_LOOP        0x10
#define MSR_STATUS_MASK 0xF0    /* CTS, DSR, RI, DCD */
#define MSR_CTS_DCD     0x90    /* what RTS and OUT2 give back in loopback */
#define LSR_DATA_READY  0x01
#define LSR_THR_EMPTY   0x20    /* the holding register (or the FIFO) is empty */
#define LSR_TX_IDLE     0x40    /* and so is the shift register: the line is quiet */

#define UART_BAUD_115200 1      /* the divisor: 115200 / 115200 */
#define UART_FIFO_BYTES 16      /* a 16550A's transmit FIFO */

/* The caller's port I/O: inb/outb in the kernel and the loader, a model in the tests. */
struct uart_io {
    uint8_t (*in)(uint16_t port);
    void (*out)(uint16_t port, uint8_t value);
};

/* Whether a UART answers at base: the modem-control loopback test, which no
 * floating bus (FFh) and no other device imitates. The MCR is left as found. */
bool uart_answers(const struct uart_io *io, uint16_t base);

/* COM1's base, or 0 when no UART answers: the BIOS's COM1 (bda_com1, the first word
 * of BDA_COM_PORTS) when it names a standard base and answers, else 3F8h if that
 * answers. */
uint16_t uart_find_com1(const struct uart_io *io, uint16_t bda_com1);

/* Programs the UART at base for 115200 8N1, FIFO on where it works, interrupts off,
 * DTR and RTS up; returns what it is: "8250", "16450", "16550" (its FIFO is broken
 * and left off) or "16550A". */
const char *uart_setup(const struct uart_io *io, uint16_t base);

#endif
