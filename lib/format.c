/* A small vsnprintf: see format.h for what it supports and why it is a subset. */
#include "format.h"

#include <stdint.h>

struct out {
    char *buf;
    size_t size;
    size_t len;
};

static void put(struct out *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void put_number(struct out *o, uint32_t v, unsigned base, int upper,
                       int negative, int width, char pad)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[12];
    int n = 0;

    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    if (negative)
        width--;
    if (negative && pad == '0')
        put(o, '-');
    for (int i = n; i < width; i++)
        put(o, pad);
    if (negative && pad != '0')
        put(o, '-');
    while (n)
        put(o, tmp[--n]);
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = { buf, size, 0 };

    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(&o, *fmt);
            continue;
        }
        fmt++;
        char pad = ' ';
        int width = 0;
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l')
            fmt++;

        switch (*fmt) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            int n = 0;
            if (!s)
                s = "(null)";
            while (s[n])
                n++;
            for (int i = n; i < width; i++)
                put(&o, ' ');
            while (*s)
                put(&o, *s++);
            break;
        }
        case 'c':
            for (int i = 1; i < width; i++)
                put(&o, ' ');
            put(&o, (char)va_arg(ap, int));
            break;
        case 'd': {
            int v = va_arg(ap, int);
            put_number(&o, v < 0 ? 0u - (uint32_t)v : (uint32_t)v, 10, 0, v < 0, width, pad);
            break;
        }
        case 'u':
            put_number(&o, va_arg(ap, unsigned), 10, 0, 0, width, pad);
            break;
        case 'x':
        case 'X':
            put_number(&o, va_arg(ap, unsigned), 16, *fmt == 'X', 0, width, pad);
            break;
        case 'p':
            put(&o, '0');
            put(&o, 'x');
            put_number(&o, (uint32_t)(uintptr_t)va_arg(ap, void *), 16, 0, 0, 8, '0');
            break;
        case '%':
            put(&o, '%');
            break;
        case '\0':
            fmt--;                      /* a lone '%' at the end: stop cleanly */
            break;
        default:                        /* unknown conversion: show it as written */
            put(&o, '%');
            put(&o, *fmt);
            break;
        }
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = fmt_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
