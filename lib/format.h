/* A small vsnprintf for the freestanding kernel.
 *
 * Conversions: %s %c %d %u %x %X %p %%, with an optional '0' flag, a width, and the
 * 'l' length modifier (ignored: long and int are both 32 bits on i386). It always
 * terminates the buffer and returns the length it wrote. The subset matches the C
 * library's meaning, so code that formats through it also runs on the host. */
#ifndef APMOFF_FORMAT_H
#define APMOFF_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
