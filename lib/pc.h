/* The PC's fixed I/O ports and BIOS interrupt vectors: each written once, here.
 *
 * Pure constants (no I/O), so the kernel, the host tests and, through the generated
 * generated build/system-offsets.inc and realmode-offsets.inc, the assembly all read the same numbers. A port has one name
 * even where reading and writing it mean different things (the 8042's 64h is its
 * status register when read and its command register when written). */
#ifndef APMOFF_PC_H
#define APMOFF_PC_H

/* 8259A programmable interrupt controllers. */
#define PIC_MASTER_CMD      0x20
#define PIC_MASTER_DATA     0x21
#define PIC_SLAVE_CMD       0xA0
#define PIC_SLAVE_DATA      0xA1    /* the interrupt mask register, between commands */
#define PIC_ICW1_INIT_ICW4  0x11    /* edge triggered, cascaded, ICW4 follows */
#define PIC_ICW1_LEVEL      0x08    /* LTIM: level triggered (Micro Channel) */
#define PIC_ICW3_MASTER     0x04    /* the slave hangs on IRQ 2 */
#define PIC_ICW3_SLAVE      0x02
#define PIC_ICW4_8086       0x01
#define PIC_OCW2_SPECIFIC_EOI 0x60
#define PIC_EOI             0x20    /* OCW2: non-specific EOI */
#define PIC_OCW3_READ_IRR   0x0A    /* the state every BIOS and OS expects to find */
#define PIC_OCW3_READ_ISR   0x0B
#define PIC_CASCADE_IRQ     2
#define PIC_BIOS_MASTER_BASE 0x08   /* where every PC BIOS puts IRQ 0-7 ... */
#define PIC_BIOS_SLAVE_BASE 0x70    /* ... and IRQ 8-15 */

/* 8253/8254 programmable interval timer and the port B gate of its channel 2. */
#define PIT_CH0             0x40    /* the BIOS's 18.2 Hz tick: read, never programmed */
#define PIT_CH2             0x42
#define PIT_COMMAND         0x43
#define PORT_B              0x61
#define PORT_B_GATE2        0x01    /* channel 2 counts */
#define PORT_B_SPEAKER      0x02    /* and drives the speaker: kept off */
#define PORT_B_OUT2         0x20    /* read-only: channel 2's output */

/* The BIOS's tick, IRQ 0 from channel 0's full period: 1193182 / 65536 = 18.2065 Hz,
 * counted at 40:6Ch and set back to 0 at midnight. */
#define BIOS_TICKS_PER_10S  182
#define BIOS_TICKS_PER_DAY  0x1800B0u

/* 8042 keyboard controller. */
#define KBC_DATA            0x60
#define KBC_CTRL            0x64    /* status when read, command when written */
#define KBC_STATUS_OUT_FULL 0x01    /* a byte waits at KBC_DATA */
#define KBC_STATUS_IN_FULL  0x02    /* the controller has not taken our last byte */
#define KBC_CMD_WRITE_OUTPUT 0xD1   /* the next data byte goes to the output port */
#define KBC_CMD_RESET       0xFE    /* pulse the CPU reset line */
#define KBC_CMD_A20_OFF     0xDD    /* HP Vectra-style 8042 commands: A20 off ... */
#define KBC_CMD_A20_ON      0xDF    /* ... and on */
#define KBC_CMD_NULL        0xFF    /* pulse nothing: UHCI legacy emulation wants it after D1h (Linux a20.c) */
#define KBC_OUTPUT_A20      0xDF    /* output port value: A20 on, reset line inactive */
#define KBC_OUTPUT_A20_BIT  0x02    /* the output port's A20 gate (bit 1, as in port A) */

/* MC146818 real-time clock and CMOS RAM. apmoff's own code only reads it and parks the
 * index; the firmware's AML (a SystemCMOS region) writes through cmos_write(), and so
 * does wake= its alarm, when the APM BIOS has no resume timer (README's Safety). */
#define CMOS_INDEX          0x70    /* bit 7 of what is written here masks NMI */
#define CMOS_DATA           0x71
#define CMOS2_INDEX         0x72    /* the second 128 bytes (Intel and VIA south bridges) */
#define CMOS2_DATA          0x73
#define CMOS_NMI_MASK       0x80
#define CMOS_PARK           0x0D    /* register D, read-only: the index left selected */
#define CMOS_SHUTDOWN_STATUS 0x0F   /* IBM AT: what POST does after a reset; 00h is a
                                       normal POST, others resume through 40:67h */
#define CMOS_FLOPPY_TYPES   0x10    /* drive A: in the high nibble, B: in the low */
#define CMOS_CENTURY        0x32    /* IBM AT: the century in BCD (not every BIOS) */

/* The MC146818 clock's registers (its datasheet, and the IBM AT's CMOS map). apmoff
 * reads the time; the alarm registers and AIE are written for wake= alone
 * (system/rtc_alarm.c: the one exception to the rule above). */
#define RTC_SECONDS         0x00
#define RTC_SECONDS_ALARM   0x01
#define RTC_MINUTES         0x02
#define RTC_MINUTES_ALARM   0x03
#define RTC_HOURS           0x04
#define RTC_HOURS_ALARM     0x05
#define RTC_DAY_OF_MONTH    0x07
#define RTC_MONTH           0x08
#define RTC_YEAR            0x09
#define RTC_STATUS_A        0x0A
#define RTC_STATUS_B        0x0B
#define RTC_STATUS_C        0x0C    /* read-only; reading it clears its flags */
#define RTC_STATUS_D        0x0D    /* read-only */
#define RTC_A_UIP           0x80    /* an update is in progress: the time is changing */
#define RTC_B_SET           0x80    /* updates stopped while the time is being set */
#define RTC_B_AIE           0x20    /* the alarm raises IRQ 8 */
#define RTC_B_BINARY        0x04    /* DM: binary, not BCD */
#define RTC_B_24H           0x02    /* 24-hour mode, not 12 */
#define RTC_C_AF            0x20    /* the alarm time was reached */
#define RTC_D_VRT           0x80    /* valid RAM and time: the battery holds */
#define RTC_HOURS_PM        0x80    /* 12-hour mode: the hour is after noon */

/* The ACPI Embedded Controller interface (ACPI 6.x, 12.2-12.3): status bits of the
 * command/status port and the commands written there. */
#define EC_STATUS_OBF       0x01    /* output buffer full: the EC has a byte for us */
#define EC_STATUS_IBF       0x02    /* input buffer full: the EC has not taken ours */
#define EC_CMD_READ         0x80
#define EC_CMD_WRITE        0x81

/* System control port A ("fast A20"). */
#define PORT_A              0x92
#define PORT_A_RESET        0x01    /* fast reset: a 0 to 1 change resets the CPU */
#define PORT_A_A20          0x02

#define PORT_A20_EE         0xEE    /* some chipsets: a read turns A20 on, a write off */

#define PORT_POST           0x80    /* POST codes; a write is the classic I/O delay */

/* Emulator ports: Bochs' and QEMU's debug console, QEMU's isa-debug-exit device
 * (-device isa-debug-exit,iobase=0xf4,iosize=4). */
#define PORT_DEBUG_CONSOLE  0xE9
#define PORT_DEBUG_EXIT     0xF4

/* The serial ports' standard bases. The BIOS numbers the ones it finds in the BDA
 * (lib/bda.h, BDA_COM_PORTS); COM1 is the first there, not always 3F8h. */
#define PORT_COM1           0x3F8
#define PORT_COM2           0x2F8
#define PORT_COM3           0x3E8
#define PORT_COM4           0x2E8

/* PCI configuration mechanisms (PCI Local Bus Specification 2.0, 3.7.4; 2.1 and
 * later drop mechanism #2, which only the first Intel 430LX/NX and Saturn boards
 * need). #1: a 32-bit address at CF8h selects bus, device, function and register,
 * the data is at CFCh-CFFh. #2: a key and the function at CF8h (its CSE register),
 * the bus at CFAh (forward register); device d's registers then appear at ports
 * C000h + d * 100h. The Mercury/Neptune bridges also pick #1 or #2 by bit 0 of CFBh,
 * which Linux writes before each probe. */
#define PCI_CONFIG_ADDRESS  0xCF8   /* #1: 32 bits, only ever accessed as a dword */
#define PCI_CONFIG_DATA     0xCFC
#define PCI_MECH2_CSE       0xCF8   /* #2: configuration space enable, a byte */
#define PCI_MECH2_FORWARD   0xCFA   /* #2: the bus number, a byte */
#define PCI_MECH_SELECT     0xCFB   /* 430LX/NX: 1 selects #1, 0 #2 */
#define PCI_MECH2_BASE      0xC000  /* #2: device 0's configuration space */

/* The reset control register of Intel's south bridges (PIIX/PIIX3 290550 and PIIX4
 * 290562: RC; the ICH family: RST_CNT): a byte at CF9h, inside mechanism #1's
 * dword address port, which only dword accesses reach. */
#define PORT_RESET_CONTROL  0xCF9
#define RESET_CONTROL_SYS_RST 0x02  /* the reset that follows is a hard (system) one */
#define RESET_CONTROL_RST_CPU 0x04  /* a 0 to 1 change starts the reset */

/* The CRT controller of the text console: at 3D4h on a colour adapter (CGA, EGA,
 * VGA), at 3B4h on a monochrome one (MDA, Hercules); its data port is the next one. */
#define CRTC_COLOUR_INDEX   0x3D4
#define CRTC_MONO_INDEX     0x3B4

/* Where the CPU starts after a reset, and with it the BIOS's POST: F000:FFF0. */
#define BIOS_RESET_SEGMENT  0xF000
#define BIOS_RESET_OFFSET   0xFFF0

/* BIOS interrupt vectors apmoff calls. */
#define BIOS_INT_VIDEO      0x10    /* AH=00h set mode */
#define BIOS_INT_EQUIPMENT  0x11
#define BIOS_INT_MEMORY     0x12    /* conventional memory in KiB */
#define BIOS_INT_DISK       0x13
#define BIOS_INT_SYSTEM     0x15    /* APM (AH=53h), A20 (AX=240xh), memory (E820h), AH=C0h */
#define BIOS_INT_TIME_PCI   0x1A    /* clock (AH=00h-0Bh), PCI BIOS (AH=B1h) */

/* INT 15h AH=C0h: ES:BX points at the system configuration table. */
#define BIOS_SYSCONF_AH         0xC0
#define SYSCONF_FEATURE1        5       /* offset of feature byte 1 in the table */
#define SYSCONF_FEATURE1_MCA    0x02    /* Micro Channel bus: level-triggered IRQs */

/* BIOS video modes apmoff sets. */
#define VIDEO_MODE_TEXT_80X25   0x03
#define VIDEO_MODE_640X350X16   0x10    /* EGA */
#define VIDEO_MODE_640X480X16   0x12    /* VGA */

#endif
