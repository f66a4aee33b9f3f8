/* libFuzzer target: app/common/options.c's options_parse() on any command line, then
 * options_describe() of what it made. The input is made a C string (a heap copy
 * with a terminator, so a read past it is caught); say() is stubbed out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../app/common/options.h"

#define DESCRIBE_MAX    512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct options o;
    char *cmdline = malloc(size + 1);
    char *text = malloc(DESCRIBE_MAX);

    memcpy(cmdline, data, size);
    cmdline[size] = '\0';
    options_defaults(&o);
    int rejected = options_parse(&o, cmdline);
    if (rejected < 0 || (size_t)rejected > size)
        abort();
    options_describe(&o, text, DESCRIBE_MAX);
    if (strnlen(text, DESCRIBE_MAX) >= DESCRIBE_MAX)
        abort();
    options_describe(&o, text, 1);
    if (text[0])
        abort();
    free(cmdline);
    free(text);
    return 0;
}
