/* The boot menu file: see menu.h. */
#include "menu.h"
#include "../lib/string.h"

#define DEFAULT_KERNEL  "/boot/apmoff.lz4"
#define DEFAULT_TIMEOUT 5

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The line's statement word and the rest, both trimmed, cut in place. */
static char *split(char *line, char **rest)
{
    while (is_space(*line))
        line++;
    char *end = line + strlen(line);
    while (end > line && is_space(end[-1]))
        *--end = '\0';
    char *p = line;
    while (*p && !is_space(*p))
        p++;
    if (*p)
        *p++ = '\0';
    while (is_space(*p))
        p++;
    *rest = p;
    return line;
}

/* A decimal number up to max, or -1. */
static long number(const char *s, unsigned long max)
{
    unsigned long n = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        n = n * 10 + (unsigned long)(*s - '0');
        if (n > max)
            return -1;
    }
    return (long)n;
}

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E)
            return 0;
    return 1;
}

struct parser {
    struct menu *m;
    menu_complaint complain;
    void *ctx;
    unsigned line;
    unsigned dflt;              /* as written, from 1; 0 when not given */
    int title_refused;          /* the last title line was refused: so are its words */
};

static void refuse(struct parser *p, const char *why)
{
    p->m->errors++;
    if (p->complain)
        p->complain(p->ctx, p->line, why);
}

static void statement(struct parser *p, const char *word, char *rest)
{
    struct menu *m = p->m;
    long n;

    if (!strcmp(word, "timeout")) {
        if ((n = number(rest, MENU_TIMEOUT_MAX)) < 0)
            refuse(p, "timeout takes seconds, 0 to 3600");
        else
            m->timeout = (unsigned)n;
    } else if (!strcmp(word, "default")) {
        if ((n = number(rest, MENU_ENTRIES_MAX)) < 1)
            refuse(p, "default takes an entry's number, from 1");
        else
            p->dflt = (unsigned)n;
    } else if (!strcmp(word, "kernel")) {
        if (rest[0] != '/' || strchr(rest, ' ') || strchr(rest, '\t'))
            refuse(p, "kernel takes a file's path from the root, /boot/apmoff.lz4");
        else
            m->kernel = rest;
    } else if (!strcmp(word, "title")) {
        p->title_refused = 1;
        if (m->count == MENU_ENTRIES_MAX)
            refuse(p, "more than 20 entries");
        else if (!*rest || !printable(rest))
            refuse(p, "a title is printable text");
        else {
            p->title_refused = 0;
            if (strlen(rest) > MENU_TITLE_MAX)
                rest[MENU_TITLE_MAX] = '\0';
            m->entry[m->count].title = rest;
            m->entry[m->count].words = "";
            m->count++;
        }
    } else if (!strcmp(word, "words")) {
        if (!m->count)
            refuse(p, "words before any title");
        else if (p->title_refused)      /* not the entry before's: left out with it */
            refuse(p, "the words of a title that was left out");
        else if (*m->entry[m->count - 1].words)
            refuse(p, "a second words line for one entry");
        else if (strlen(rest) > MENU_WORDS_MAX)
            refuse(p, "words longer than the kernel takes (1023 bytes)");
        else if (!printable(rest))
            refuse(p, "words are printable text");
        else
            m->entry[m->count - 1].words = rest;
    } else {
        refuse(p, "not a statement (timeout default kernel title words)");
    }
}

unsigned menu_parse(struct menu *m, char *text, menu_complaint complain, void *ctx)
{
    struct parser p = { m, complain, ctx, 0, 0, 0 };

    *m = (struct menu){ .timeout = DEFAULT_TIMEOUT, .kernel = DEFAULT_KERNEL };
    while (*text) {
        char *line = text, *rest;
        while (*text && *text != '\n')
            text++;
        if (*text)
            *text++ = '\0';
        p.line++;
        char *word = split(line, &rest);
        if (*word && *word != '#')
            statement(&p, word, rest);
    }
    p.line = 0;
    if (p.dflt > m->count) {
        refuse(&p, "default names an entry the menu does not have");
        p.dflt = 0;
    }
    m->chosen = p.dflt ? p.dflt - 1 : 0;
    return m->count;
}
