/* The console: one stream of lines fed to VGA text mode, COM1 and the emulator
 * debug port 0xE9 at once, so a user with a screen, a serial cable or an emulator
 * log sees the same words.
 *
 * say() is the only way the kernel reports anything: it prefixes "apmoff: " and ends
 * the line, so every serial line carries the prefix the output contract promises. */
#ifndef APMOFF_CONSOLE_H
#define APMOFF_CONSOLE_H

#include <stdarg.h>

struct framebuffer;

/* fb: draw on this framebuffer (UEFI, no text mode); NULL: VGA text mode. */
void console_init(const struct framebuffer *fb);
void console_write(const char *s);

/* printf-style formatting (see kernel/format.h for the conversions) of one line. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsay(const char *fmt, va_list ap);

#endif
