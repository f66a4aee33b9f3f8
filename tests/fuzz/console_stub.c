/* The console for the fuzz targets: app/common/options.c reports through say(), and the
 * fuzzers want neither the output nor the time it takes. The format is still walked
 * with the kernel's formatter, so a bad argument list is still seen. */
#include <stdarg.h>

#include "../../system/console.h"
#include "../../lib/format.h"

void vsay(const char *fmt, va_list ap)
{
    char line[256];
    fmt_vsnprintf(line, sizeof(line), fmt, ap);
}

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}
