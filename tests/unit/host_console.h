/* The host twin of system/console.c for the unit tests: say() formats through the
 * kernel's own fmt_vsnprintf (so the formatter under test is the one the kernel
 * ships) and appends the line to an in-memory log instead of VGA/COM1/0xE9.
 *
 * Lines are stored WITHOUT the "apmoff: " prefix the kernel adds, so the tests
 * search for the words the code passes to say(). Like the kernel, a line is cut at
 * 255 characters. */
#ifndef APMOFF_TESTS_HOST_CONSOLE_H
#define APMOFF_TESTS_HOST_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

#define LOG_LINE_MAX    256     /* the kernel's LINE_MAX, terminator included */
#define LOG_LINES_MAX   1024

void log_reset(void);
unsigned log_count(void);
/* Line i (0 is the first said since log_reset()), or NULL past the end. */
const char *log_line(unsigned i);
/* Index of the first line at or after start containing needle, or -1. */
int log_find_from(unsigned start, const char *needle);
int log_find(const char *needle);
/* Index of the last line containing needle, or -1. */
int log_find_last(const char *needle);
bool log_has(const char *needle);
/* How many lines contain needle. */
unsigned log_count_matching(const char *needle);
/* Prints the whole log, numbered, for a failing test. */
void log_print(FILE *out);

#endif
