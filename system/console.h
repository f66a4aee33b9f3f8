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

/* fb: draw on this framebuffer (what the loader set up); NULL: VGA text mode. */
void console_init(const struct framebuffer *fb);
void console_write(const char *s);

/* The screen alone (not COM1, not port E9): clear it, or write to it. */
void console_screen_clear(void);
void console_screen_write(const char *s);
/* From the framebuffer to VGA text mode, which the caller has just set through the
 * BIOS; the last lines said are drawn again, so the screen keeps its story. */
void console_to_text_mode(void);

/* printf-style formatting (see lib/format.h for the conversions) of one line. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsay(const char *fmt, va_list ap);
/* The same, to COM1 and port E9 only: for text the screen already shows another way. */
void say_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A machine-readable line, "apmoff: <kind> <json>", then its length and CRC-32:
 * "apmoff: sum: <kind> line <n> bytes, CRC-32 <8 hex digits>", so that a reader can
 * tell a line a cable or a loaded host damaged from the one the kernel wrote
 * (tools/apmoff-collect names it and keeps the rest of the log). */
void say_json(const char *kind, const char *json);

#endif
