/* libFuzzer target: loader/menu.c's menu_parse() on any menu file. The input is made
 * a C string (a heap copy with a terminator, so a read past it is caught), as the
 * loader terminates the file it read. What comes out must be what the loader may
 * rely on: entries within the limit, a default among them, titles and words that
 * point into the text, are printable and are no longer than their limits, and one
 * complaint for each refusal, with a line number the file has. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/menu.h"

struct tally {
    unsigned complaints, lines;
};

static void complaint(void *ctx, unsigned line, const char *why)
{
    struct tally *t = ctx;
    if (line > t->lines || !why || !*why)
        abort();
    t->complaints++;
}

static void check_string(const char *s, const char *text, size_t size, size_t max)
{
    size_t len = strlen(s);
    if (len > max)
        abort();
    if (*s && (s < text || s + len > text + size))
        abort();
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct menu m;
    struct tally t = { 0, 1 };
    char *text = malloc(size + 1);

    memcpy(text, data, size);
    text[size] = '\0';
    for (size_t i = 0; i < size && text[i]; i++)
        t.lines += text[i] == '\n';
    unsigned n = menu_parse(&m, text, complaint, &t);
    if (n != m.count || n > MENU_ENTRIES_MAX || t.complaints != m.errors || m.hold)
        abort();
    if (m.chosen >= (n ? n : 1) || m.timeout > MENU_TIMEOUT_MAX)
        abort();
    if (m.kernel[0] != '/' || strchr(m.kernel, ' ') || strchr(m.kernel, '\t'))
        abort();
    for (unsigned i = 0; i < n; i++) {
        if (!m.entry[i].title[0])
            abort();
        check_string(m.entry[i].title, text, size, MENU_TITLE_MAX);
        check_string(m.entry[i].words, text, size, MENU_WORDS_MAX);
    }
    free(text);
    return 0;
}
