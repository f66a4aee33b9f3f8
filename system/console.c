/* The console: see console.h. Lines go to VGA, COM1 and port 0xE9 (Bochs' and
 * QEMU's debug console), when a read there answers E9h as both do: on real hardware
 * the write would go nowhere, and under TCG every port write costs a trip out of the
 * translated code. */
#include "console.h"
#include "fbcon.h"
#include "../lib/crc32.h"
#include "../lib/format.h"
#include "../lib/string.h"
#include "io.h"
#include "../lib/pc.h"
#include "serial.h"
#include "timer.h"
#include "vga.h"

#define LINE_MAX        256
#define PREFIX          "apmoff: "
#define HISTORY_LINES   24      /* a screenful, less the line being written */

static bool use_fb;
static bool debug_console;
static char history[HISTORY_LINES][LINE_MAX];
static unsigned history_next;

static void screen_putc(char c)
{
    if (use_fb)
        fbcon_putc(c);
    else
        vga_putc(c);
}

static void log_putc(char c)
{
    if (c == '\n')
        serial_putc('\r');
    serial_putc(c);
    if (debug_console)
        outb(PORT_DEBUG_CONSOLE, (uint8_t)c);
}

static void console_putc(char c)
{
    screen_putc(c);
    log_putc(c);
}

void console_init(const struct framebuffer *fb)
{
    serial_init();
    debug_console = inb(PORT_DEBUG_CONSOLE) == PORT_DEBUG_CONSOLE;
    use_fb = fb && fbcon_init(fb);
    if (!use_fb)
        vga_init();
}

void console_write(const char *s)
{
    while (*s)
        console_putc(*s++);
}

void console_screen_clear(void)
{
    if (use_fb)
        fbcon_clear();
    else
        vga_init();
}

void console_screen_write(const char *s)
{
    while (*s)
        screen_putc(*s++);
}

void console_to_text_mode(void)
{
    use_fb = false;
    vga_init();
    for (unsigned i = 0; i < HISTORY_LINES; i++) {
        const char *line = history[(history_next + i) % HISTORY_LINES];
        if (*line) {
            console_screen_write(line);
            screen_putc('\n');
        }
    }
}

void vsay(const char *fmt, va_list ap)
{
    char line[LINE_MAX];

    timer_pit_ticks();          /* the PIT clock counts its wraps when read: every line */
    fmt_vsnprintf(line, sizeof(line), fmt, ap);
    fmt_snprintf(history[history_next], LINE_MAX, PREFIX "%s", line);
    history_next = (history_next + 1) % HISTORY_LINES;
    console_write(PREFIX);
    console_write(line);
    console_putc('\n');
    serial_flush();
}

void say_log(const char *fmt, ...)
{
    char line[LINE_MAX];
    va_list ap;

    va_start(ap, fmt);
    fmt_vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    for (const char *s = PREFIX; *s; s++)
        log_putc(*s);
    for (const char *s = line; *s; s++)
        log_putc(*s);
    log_putc('\n');
}

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

void say_json(const char *kind, const char *json)
{
    size_t len = strlen(json);

    console_write(PREFIX);
    console_write(kind);
    console_write(" ");
    console_write(json);
    console_write("\n");
    say("sum: %s line %u bytes, CRC-32 %08X", kind, (unsigned)len,
        (unsigned)crc32(0, (const uint8_t *)json, len));
}
