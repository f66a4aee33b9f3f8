/* The console: see console.h. Lines go to VGA, COM1 and port 0xE9 (Bochs' and
 * QEMU's debug console; an ISA write nobody decodes on real hardware). */
#include "console.h"
#include "fbcon.h"
#include "format.h"
#include "io.h"
#include "serial.h"
#include "vga.h"

#define DEBUG_PORT      0xE9
#define LINE_MAX        256
#define PREFIX          "apmoff: "

static bool use_fb;

static void console_putc(char c)
{
    if (use_fb)
        fbcon_putc(c);
    else
        vga_putc(c);
    if (c == '\n')
        serial_putc('\r');
    serial_putc(c);
    outb(DEBUG_PORT, (uint8_t)c);
}

void console_init(const struct framebuffer *fb)
{
    serial_init();
    use_fb = fb && fbcon_init(fb);
    if (!use_fb)
        vga_init();
}

void console_write(const char *s)
{
    while (*s)
        console_putc(*s++);
}

void vsay(const char *fmt, va_list ap)
{
    char line[LINE_MAX];

    fmt_vsnprintf(line, sizeof(line), fmt, ap);
    console_write(PREFIX);
    console_write(line);
    console_putc('\n');
}

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}
