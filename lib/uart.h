/* The PC's serial port, an 8250 or one of its heirs (16450, 16550, 16550A): its
 * registers, as offsets from the port's base (COM1 is 3F8h, lib/pc.h), and the bits
 * apmoff uses. The kernel's driver (system/serial.c) and the floppy loader's
 * (loader/console.c) read them here. Pure constants. */
#ifndef APMOFF_LIB_UART_H
#define APMOFF_LIB_UART_H

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
#define LSR_THR_EMPTY   0x20    /* the holding register (or the FIFO) is empty */
#define LSR_TX_IDLE     0x40    /* and so is the shift register: the line is quiet */

#define UART_BAUD_115200 1      /* the divisor: 115200 / 115200 */
#define UART_FIFO_BYTES 16      /* a 16550A's transmit FIFO */

#endif
