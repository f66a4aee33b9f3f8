/* The loader's output and input: the screen through the video BIOS (INT 10h, so MDA,
 * CGA, EGA and VGA alike), COM1 at 115200 8N1 (found by its loopback test: an 8250
 * without a scratch register counts), the keyboard through INT 16h and keys typed on
 * COM1 (a terminal's arrow keys as their ANSI sequences).
 *
 * say() writes a line to both, "apmoff loader: " first. The menu draws on the screen
 * with screen_at() and prints its own lines on COM1 with serial_line(). */
#ifndef APMOFF_LOADER_CONSOLE_H
#define APMOFF_LOADER_CONSOLE_H

#include <stdint.h>

#define ATTR_NORMAL     0x07
#define ATTR_INVERSE    0x70

enum key {
    KEY_NONE = 0,
    KEY_ENTER = 0x100,
    KEY_ESC,
    KEY_UP,
    KEY_DOWN,
    KEY_BACKSPACE,
};

void console_init(void);
/* The COM1 UART's kind ("16550A", "8250", ...), or 0 when none answers. */
const char *serial_kind(void);
unsigned serial_base(void);             /* its port: the BIOS's first, or 3F8h */
unsigned screen_rows(void);
unsigned screen_columns(void);

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void serial_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Text on COM1 as it is ('\n' as CR LF): the echo of what is typed. */
void serial_text(const char *s);
/* Text at a row and column of the screen, in an attribute, padded with spaces to
 * width characters (0: no padding). */
void screen_at(unsigned row, unsigned col, uint8_t attr, const char *text, unsigned width);
void screen_clear(void);
/* The cursor to a place (row screen_rows() hides it below the screen). */
void screen_cursor(unsigned row, unsigned col);

/* A key from the keyboard or COM1, or KEY_NONE: printable characters as themselves. */
int key_poll(void);
/* The BIOS's tick count (18.2 a second) at 40:6Ch. */
uint32_t ticks(void);
/* Waits for the next timer interrupt (HLT, interrupts on). */
void idle(void);

#endif
