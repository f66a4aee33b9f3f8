/* loader/menu.c: the floppy loader's menu file, as iso/mkmenu.py writes it and as a
 * person edits it with a DOS editor (CRLF, comments, mistakes).
 *
 * Each text is parsed from a heap copy of exactly its size, so a read past its NUL is
 * an AddressSanitizer report; every complaint is recorded with its line number. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../loader/menu.h"

#define COMPLAINTS_MAX 64

static struct menu m;
static char *text;
static size_t text_len;
static unsigned complaints;
static unsigned complaint_line[COMPLAINTS_MAX];
static const char *complaint_why[COMPLAINTS_MAX];

static void record(void *ctx, unsigned line, const char *why)
{
    assert_ptr_equal(ctx, &m);
    assert_true(complaints < COMPLAINTS_MAX);
    complaint_line[complaints] = line;
    complaint_why[complaints] = why;
    complaints++;
}

static unsigned parse(const char *s)
{
    free(text);
    text = strdup(s);
    text_len = strlen(s);
    complaints = 0;
    memset(&m, 0xA5, sizeof(m));        /* menu_parse() must set every field */
    return menu_parse(&m, text, record, &m);
}

static int teardown(void **state)
{
    (void)state;
    free(text);
    text = NULL;
    return 0;
}

/* One complaint, on this line, whose reason contains this. */
static void assert_one_complaint(unsigned line, const char *why)
{
    assert_int_equal(complaints, 1);
    assert_int_equal(m.errors, 1);
    assert_int_equal(complaint_line[0], line);
    if (!strstr(complaint_why[0], why))
        fail_msg("complaint \"%s\" does not say \"%s\"", complaint_why[0], why);
}

/* --- good menus ----------------------------------------------------------------------- */

static void test_full_menu(void **state)
{
    (void)state;
    unsigned n = parse("timeout 10\n"
                       "default 2\n"
                       "kernel /boot/other.elf\n"
                       "title apmoff 0.3: power off\n"
                       "words action=off\n"
                       "title apmoff 0.3: survey\n"
                       "words action=survey wait=60 \"x=a b\"\n"
                       "title no words\n");
    assert_int_equal(n, 3);
    assert_int_equal(m.count, 3);
    assert_int_equal(m.timeout, 10);
    assert_int_equal(m.chosen, 1);
    assert_string_equal(m.kernel, "/boot/other.elf");
    assert_string_equal(m.entry[0].title, "apmoff 0.3: power off");
    assert_string_equal(m.entry[0].words, "action=off");
    assert_string_equal(m.entry[1].title, "apmoff 0.3: survey");
    assert_string_equal(m.entry[1].words, "action=survey wait=60 \"x=a b\"");
    assert_string_equal(m.entry[2].title, "no words");
    assert_string_equal(m.entry[2].words, "");
    assert_int_equal(m.errors, 0);
    assert_int_equal(m.hold, 0);
    assert_int_equal(complaints, 0);
    /* Titles and words point into the text, not into copies. */
    for (unsigned i = 0; i < 2; i++) {
        assert_true(m.entry[i].title > text && m.entry[i].title < text + text_len);
        assert_true(m.entry[i].words > text && m.entry[i].words < text + text_len);
    }
}

static void test_defaults(void **state)
{
    (void)state;
    assert_int_equal(parse("title only\n"), 1);
    assert_int_equal(m.timeout, 5);
    assert_int_equal(m.chosen, 0);
    assert_string_equal(m.kernel, "/boot/apmoff.lz4");
    assert_string_equal(m.entry[0].words, "");
    assert_int_equal(m.errors, 0);
}

static void test_empty_file(void **state)
{
    (void)state;
    assert_int_equal(parse(""), 0);
    assert_int_equal(m.count, 0);
    assert_int_equal(m.timeout, 5);
    assert_int_equal(m.chosen, 0);
    assert_string_equal(m.kernel, "/boot/apmoff.lz4");
    assert_int_equal(m.errors, 0);
    assert_int_equal(complaints, 0);
}

/* A DOS editor's file: CRLF, blank and white lines, comments (indented too), tabs,
 * trailing blanks, no line end after the last line. */
static void test_comments_blanks_crlf(void **state)
{
    (void)state;
    unsigned n = parse("# apmoff's menu\r\n"
                       "\r\n"
                       "   \t \r\n"
                       "\t# an indented comment: title x\r\n"
                       "#title not an entry\r\n"
                       "timeout\t3 \r\n"
                       "  title   a  b  \r\n"
                       "words\t x=1  y=2\t\r\n"
                       "title last");
    assert_int_equal(n, 2);
    assert_int_equal(m.timeout, 3);
    assert_string_equal(m.entry[0].title, "a  b");
    assert_string_equal(m.entry[0].words, "x=1  y=2");
    assert_string_equal(m.entry[1].title, "last");
    assert_int_equal(m.errors, 0);
}

static void test_timeout_bounds(void **state)
{
    (void)state;
    parse("timeout 0\ntitle a\n");
    assert_int_equal(m.timeout, 0);
    assert_int_equal(m.errors, 0);
    parse("timeout 3600\ntitle a\n");
    assert_int_equal(m.timeout, MENU_TIMEOUT_MAX);
    assert_int_equal(m.errors, 0);
    parse("timeout 007\ntitle a\n");
    assert_int_equal(m.timeout, 7);
}

/* The last statement of its kind wins; a kernel line may come anywhere. */
static void test_later_lines_win(void **state)
{
    (void)state;
    parse("timeout 1\ntitle a\ntitle b\ndefault 1\ntimeout 9\ndefault 2\nkernel /x\n");
    assert_int_equal(m.timeout, 9);
    assert_int_equal(m.chosen, 1);
    assert_string_equal(m.kernel, "/x");
}

static void test_twenty_entries_and_default_20(void **state)
{
    char buf[2048] = "default 20\n";
    (void)state;
    for (int i = 1; i <= MENU_ENTRIES_MAX; i++)
        sprintf(buf + strlen(buf), "title entry %d\nwords n=%d\n", i, i);
    assert_int_equal(parse(buf), MENU_ENTRIES_MAX);
    assert_int_equal(m.chosen, MENU_ENTRIES_MAX - 1);
    assert_string_equal(m.entry[19].title, "entry 20");
    assert_string_equal(m.entry[19].words, "n=20");
    assert_int_equal(m.errors, 0);
}

/* A title longer than the screen shows is cut, not refused. */
static void test_long_title_cut(void **state)
{
    char buf[200] = "title ";
    (void)state;
    memset(buf + 6, 'T', 100);
    assert_int_equal(parse(buf), 1);
    assert_int_equal(strlen(m.entry[0].title), MENU_TITLE_MAX);
    assert_int_equal(m.errors, 0);
}

static void test_words_at_limit(void **state)
{
    static char buf[MENU_WORDS_MAX + 64];
    (void)state;
    strcpy(buf, "title a\nwords ");
    memset(buf + strlen(buf), 'w', MENU_WORDS_MAX);
    assert_int_equal(parse(buf), 1);
    assert_int_equal(strlen(m.entry[0].words), MENU_WORDS_MAX);
    assert_int_equal(m.errors, 0);
}

/* --- refusals ------------------------------------------------------------------------- */

/* Each bad line is refused with its line number and reason; the lines around it
 * still count. */
static const struct refusal {
    const char *text;
    unsigned line;
    const char *why;
    unsigned count;             /* entries left */
} refusals[] = {
    { "title a\nbogus 1\n", 2, "not a statement", 1 },
    { "title a\nTitle b\n", 2, "not a statement", 1 },         /* statements are lower case */
    { "title a\ntimeouts 5\n", 2, "not a statement", 1 },
    { "timeout\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "timeout -1\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "timeout 3601\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "timeout 5s\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "timeout 5 6\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "timeout 99999999999999999999999\ntitle a\n", 1, "timeout takes seconds", 1 },
    { "default 0\ntitle a\n", 1, "default takes", 1 },
    { "default 21\ntitle a\n", 1, "default takes", 1 },
    { "default\ntitle a\n", 1, "default takes", 1 },
    { "default one\ntitle a\n", 1, "default takes", 1 },
    { "default +1\ntitle a\n", 1, "default takes", 1 },
    { "kernel boot/apmoff.lz4\ntitle a\n", 1, "kernel takes", 1 },
    { "kernel\ntitle a\n", 1, "kernel takes", 1 },
    { "kernel /boot/a b\ntitle a\n", 1, "kernel takes", 1 },
    { "kernel /boot/a\tb\ntitle a\n", 1, "kernel takes", 1 },
    { "words action=off\ntitle a\n", 1, "words before any title", 1 },
    { "title a\nwords x\nwords y\n", 3, "a second words line", 1 },
    { "title\ntitle a\n", 1, "a title is printable text", 1 },
    { "title a\x01z\ntitle b\n", 1, "a title is printable text", 1 },
    { "title caf\xe9\ntitle b\n", 1, "a title is printable text", 1 },
    { "title a\nwords x\x7fy\n", 2, "words are printable text", 1 },
    { "title a\nwords \x1b[2J\n", 2, "words are printable text", 1 },
    { "title a\ntitle b\ndefault 3\n", 0, "default names an entry the menu does not have", 2 },
    { "default 1\n", 0, "default names an entry", 0 },
};

static void test_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        const struct refusal *r = &refusals[i];
        unsigned n = parse(r->text);
        if (n != r->count || complaints != 1 || m.errors != 1 ||
            complaint_line[0] != r->line || !strstr(complaint_why[0], r->why) ||
            m.chosen != 0)
            fail_msg("case %zu (%s): %u entries, %u complaints, the first on line %u: %s",
                     i, r->text, n, complaints, complaints ? complaint_line[0] : 0,
                     complaints ? complaint_why[0] : "-");
    }
}

static void test_refused_words_keep_first(void **state)
{
    (void)state;
    parse("title a\nwords first\nwords second\n");
    assert_string_equal(m.entry[0].words, "first");
}

static void test_words_too_long(void **state)
{
    static char buf[MENU_WORDS_MAX + 64];
    (void)state;
    strcpy(buf, "title a\nwords ");
    memset(buf + strlen(buf), 'w', MENU_WORDS_MAX + 1);
    assert_int_equal(parse(buf), 1);
    assert_one_complaint(2, "words longer than the kernel takes");
    assert_string_equal(m.entry[0].words, "");
}

static void test_more_than_twenty_entries(void **state)
{
    char buf[2048] = "";
    (void)state;
    for (int i = 1; i <= MENU_ENTRIES_MAX + 2; i++)
        sprintf(buf + strlen(buf), "title entry %d\n", i);
    assert_int_equal(parse(buf), MENU_ENTRIES_MAX);
    assert_int_equal(complaints, 2);
    assert_int_equal(complaint_line[0], 21);
    assert_int_equal(complaint_line[1], 22);
    assert_string_equal(complaint_why[0], "more than 20 entries");
    assert_string_equal(m.entry[MENU_ENTRIES_MAX - 1].title, "entry 20");
}

/* The words line of a refused title is refused too: it must not go to the entry
 * before, which would then boot with another entry's words. */
static void test_words_of_refused_title(void **state)
{
    char buf[2048] = "";
    (void)state;
    for (int i = 1; i <= MENU_ENTRIES_MAX; i++)
        sprintf(buf + strlen(buf), "title entry %d\n", i);
    strcat(buf, "title entry 21\nwords n=21\n");
    parse(buf);
    assert_int_equal(m.count, MENU_ENTRIES_MAX);
    assert_int_equal(complaints, 2);
    assert_int_equal(complaint_line[1], 22);
    assert_string_equal(m.entry[MENU_ENTRIES_MAX - 1].words, "");

    parse("title off\ntitle bad\x01\nwords action=survey\ntitle next\nwords x\n");
    assert_int_equal(m.count, 2);
    assert_int_equal(complaints, 2);
    assert_int_equal(complaint_line[0], 2);
    assert_int_equal(complaint_line[1], 3);
    assert_string_equal(m.entry[0].words, "");
    assert_string_equal(m.entry[1].words, "x");
}

/* Several mistakes: each told with its own line number (CRLF lines counted as
 * lines), the good lines between them kept. */
static void test_complaint_line_numbers(void **state)
{
    (void)state;
    unsigned n = parse("# menu\r\n"
                       "timeout soon\r\n"
                       "title a\r\n"
                       "\r\n"
                       "words ok\r\n"
                       "colour red\r\n"
                       "title b\r\n"
                       "words x\r\n"
                       "words y\r\n"
                       "default 9\r\n");
    assert_int_equal(n, 2);
    assert_int_equal(complaints, 4);
    assert_int_equal(m.errors, 4);
    assert_int_equal(complaint_line[0], 2);
    assert_int_equal(complaint_line[1], 6);
    assert_int_equal(complaint_line[2], 9);
    assert_int_equal(complaint_line[3], 0);     /* default 9 is checked at the end */
    assert_string_equal(m.entry[0].words, "ok");
    assert_string_equal(m.entry[1].words, "x");
    assert_int_equal(m.timeout, 5);
    assert_int_equal(m.chosen, 0);
}

/* No complaint function: the refusals are still counted. */
static void test_no_callback(void **state)
{
    (void)state;
    free(text);
    text = strdup("bogus\ntitle a\ndefault 5\n");
    assert_int_equal(menu_parse(&m, text, NULL, NULL), 1);
    assert_int_equal(m.errors, 2);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_full_menu),
        T(test_defaults),
        T(test_empty_file),
        T(test_comments_blanks_crlf),
        T(test_timeout_bounds),
        T(test_later_lines_win),
        T(test_twenty_entries_and_default_20),
        T(test_long_title_cut),
        T(test_words_at_limit),
        T(test_refusals),
        T(test_refused_words_keep_first),
        T(test_words_too_long),
        T(test_more_than_twenty_entries),
        T(test_words_of_refused_title),
        T(test_complaint_line_numbers),
        T(test_no_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
