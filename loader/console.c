/* The loader's screen, COM1 and keys: see console.h.
 *
 * The screen is written in video memory for the menu (fast on a 386, where two BIOS
 * calls a character make a menu visibly slow) and through the BIOS's teletype for
 * lines, which scrolls. A text mode is what every BIOS leaves at boot: mode 7 (MDA,
 * Hercules) at B0000h, the colour modes at B8000h. */
#include "console.h"
#include "bios.h"
#include "../lib/bda.h"
#include "../lib/format.h"
#include "../lib/pc.h"
#include "../lib/uart.h"
#include "../lib/x86.h"

#define BDA_ROWS_MINUS_ONE  0x484       /* EGA and later: rows on the screen, less one */
#define VIDEO_MODE_MDA      0x07
#define TX_SPIN_LIMIT       100000
#define ESCAPE_TICKS        2           /* the rest of an arrow key's sequence: 110 ms */
#define SCAN_UP             0x48
#define SCAN_DOWN           0x50

static uint16_t com1;                   /* its base; 0: none answered */
static const char *uart;
static unsigned columns = 80, rows = 25;
static uint8_t page;
static volatile uint16_t *video;

static uint8_t port_in(uint16_t port)
{
    return inb(port);
}

static void port_out(uint16_t port, uint8_t value)
{
    outb(port, value);
}

/* COM1 as the kernel finds it (lib/uart.c): the BIOS's first serial port, else 3F8h. */
static void serial_init(void)
{
    static const struct uart_io io = { port_in, port_out };

    com1 = uart_find_com1(&io, *(volatile uint16_t *)phys(BDA_COM_PORTS));
    if (com1)
        uart = uart_setup(&io, com1);
}

const char *serial_kind(void)
{
    return uart;
}

unsigned serial_base(void)
{
    return com1;
}

void console_init(void)
{
    struct biosregs r;
    serial_init();
    initregs(&r);
    r.ah = 0x0F;                        /* get the video mode */
    intcall(BIOS_INT_VIDEO, &r, &r);
    if (r.ah >= 40 && r.ah <= 132)
        columns = r.ah;
    page = r.bh;
    video = phys((r.al & 0x7F) == VIDEO_MODE_MDA ? TEXT_MONO_BASE : TEXT_COLOUR_BASE);
    uint8_t last = *(volatile uint8_t *)phys(BDA_ROWS_MINUS_ONE);
    if (last >= 24 && last < 60)
        rows = last + 1u;
}

unsigned screen_rows(void)
{
    return rows;
}

unsigned screen_columns(void)
{
    return columns;
}

static void serial_putc(char c)
{
    if (!uart)
        return;
    for (int i = 0; i < TX_SPIN_LIMIT; i++)
        if (inb(com1 + UART_LSR) & LSR_THR_EMPTY)
            break;
    outb(com1 + UART_DATA, (uint8_t)c);
}

void serial_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            serial_putc('\r');
        serial_putc(*s);
    }
}

static void teletype(const char *s)
{
    struct biosregs r;
    for (; *s; s++) {
        if (*s == '\n')
            teletype("\r");
        initregs(&r);
        r.ah = 0x0E;
        r.al = (uint8_t)*s;
        r.bh = page;
        intcall(BIOS_INT_VIDEO, &r, &r);
    }
}

static char line[1200];

void say(const char *fmt, ...)
{
    va_list ap;
    int n = fmt_snprintf(line, sizeof(line), "apmoff loader: ");
    va_start(ap, fmt);
    n += fmt_vsnprintf(line + n, sizeof(line) - (unsigned)n - 1, fmt, ap);
    va_end(ap);
    line[n++] = '\n';
    line[n] = '\0';
    teletype(line);
    serial_text(line);
}

void serial_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = fmt_vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    line[n++] = '\n';
    line[n] = '\0';
    serial_text(line);
}

void screen_at(unsigned row, unsigned col, uint8_t attr, const char *text, unsigned width)
{
    if (row >= rows || col >= columns)
        return;
    volatile uint16_t *cell = video + row * columns + col;
    unsigned room = columns - col, n = 0;
    for (; n < room && text[n]; n++)
        cell[n] = (uint16_t)(attr << 8 | (uint8_t)text[n]);
    for (; n < room && n < width; n++)
        cell[n] = (uint16_t)(attr << 8 | ' ');
}

void screen_clear(void)
{
    for (unsigned i = 0; i < rows * columns; i++)
        video[i] = ATTR_NORMAL << 8 | ' ';
    screen_cursor(0, 0);
}

void screen_cursor(unsigned row, unsigned col)
{
    struct biosregs r;
    initregs(&r);
    r.ah = 0x02;
    r.bh = page;
    r.dh = (uint8_t)row;
    r.dl = (uint8_t)col;
    intcall(BIOS_INT_VIDEO, &r, &r);
}

uint32_t ticks(void)
{
    return *(volatile uint32_t *)phys(BDA_TICKS);
}

void idle(void)
{
    __asm__ volatile("sti; hlt");
}

static int serial_byte(void)
{
    if (!uart || !(inb(com1 + UART_LSR) & LSR_DATA_READY))
        return -1;
    return inb(com1 + UART_DATA);
}

/* After ESC on COM1: "[A" or "[B" is an arrow key (also "OA"/"OB", a terminal in
 * application mode); ESC alone is Esc. */
static int serial_escape(void)
{
    int seq[2], got = 0;
    for (uint32_t start = ticks(); got < 2 && ticks() - start <= ESCAPE_TICKS;) {
        int b = serial_byte();
        if (b >= 0)
            seq[got++] = b;
    }
    if (got == 2 && (seq[0] == '[' || seq[0] == 'O'))
        return seq[1] == 'A' ? KEY_UP : seq[1] == 'B' ? KEY_DOWN : KEY_NONE;
    return KEY_ESC;
}

int key_poll(void)
{
    struct biosregs r;
    initregs(&r);
    r.ah = 0x01;                        /* is a key waiting? ZF clear: yes */
    intcall(0x16, &r, &r);
    if (!(r.eflags & X86_EFLAGS_ZF)) {
        initregs(&r);
        r.ah = 0x00;                    /* read it */
        intcall(0x16, &r, &r);
        switch (r.al) {
        case 0x0D:
            return KEY_ENTER;
        case 0x1B:
            return KEY_ESC;
        case 0x08:
            return KEY_BACKSPACE;
        case 0x00:
        case 0xE0:
            return r.ah == SCAN_UP ? KEY_UP : r.ah == SCAN_DOWN ? KEY_DOWN : KEY_NONE;
        }
        return r.al >= 0x20 && r.al < 0x7F ? r.al : KEY_NONE;
    }
    int b = serial_byte();
    if (b < 0)
        return KEY_NONE;
    if (b == '\r' || b == '\n')
        return KEY_ENTER;
    if (b == 0x08 || b == 0x7F)
        return KEY_BACKSPACE;
    if (b == 0x1B)
        return serial_escape();
    return b >= 0x20 && b < 0x7F ? b : KEY_NONE;
}
