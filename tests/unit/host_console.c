/* say()/vsay() for the host unit tests: see host_console.h. Replaces
 * system/console.c, which needs port I/O and VGA memory. */
#include "host_console.h"
#include "../../system/console.h"
#include "../../lib/format.h"

#include <stdlib.h>
#include <string.h>

static char lines[LOG_LINES_MAX][LOG_LINE_MAX];
static unsigned count;

void log_reset(void)
{
    count = 0;
}

unsigned log_count(void)
{
    return count;
}

const char *log_line(unsigned i)
{
    return i < count ? lines[i] : NULL;
}

int log_find_from(unsigned start, const char *needle)
{
    for (unsigned i = start; i < count; i++)
        if (strstr(lines[i], needle))
            return (int)i;
    return -1;
}

int log_find(const char *needle)
{
    return log_find_from(0, needle);
}

int log_find_last(const char *needle)
{
    for (unsigned i = count; i-- > 0;)
        if (strstr(lines[i], needle))
            return (int)i;
    return -1;
}

bool log_has(const char *needle)
{
    return log_find(needle) >= 0;
}

unsigned log_count_matching(const char *needle)
{
    unsigned n = 0;
    for (unsigned i = 0; i < count; i++)
        n += strstr(lines[i], needle) != NULL;
    return n;
}

void log_print(FILE *out)
{
    fprintf(out, "--- console log (%u lines) ---\n", count);
    for (unsigned i = 0; i < count; i++)
        fprintf(out, "%3u: %s\n", i, lines[i]);
    fprintf(out, "--- end of console log ---\n");
}

void vsay(const char *fmt, va_list ap)
{
    /* A runaway loop of say() calls is a bug worth stopping loudly, not a log to
     * wrap silently. */
    if (count == LOG_LINES_MAX) {
        fprintf(stderr, "host console: more than %d lines; a loop in the code?\n",
                LOG_LINES_MAX);
        log_print(stderr);
        abort();
    }
    fmt_vsnprintf(lines[count++], LOG_LINE_MAX, fmt, ap);
}

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

/* The machine-readable lines go into the log as the kernel prints them, without the
 * sum line that follows them there. */
void say_json(const char *kind, const char *json)
{
    say("%s %s", kind, json);
}
