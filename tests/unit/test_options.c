/* app/common/options.c: the kernel command line. Keys and values are a public contract
 * (GRUB entries and emulator cases use them), and every rejected word must be
 * reported with the valid choices while the previous value is kept. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "log_assert.h"
#include "../../app/common/options.h"

static struct options o;

/* Options and choices are added, never renamed: a test names what a list or the
 * description must hold, not the whole line, so adding an option breaks nothing. */
static const char *const all_keys[] = {
    "action", "interface", "inject", "onfail", "irq", "bioscall", "v86test", NULL,
};

/* Whether the comma list after "(label: " in line holds every one of names. */
static void assert_list_has(const char *line, const char *label, const char *const *names)
{
    char open[32], items[256];

    snprintf(open, sizeof(open), "(%s: ", label);
    const char *p = line ? strstr(line, open) : NULL;
    if (!p)
        fail_msg("no \"%s\" list in \"%s\"", open, line ? line : "(no line)");
    p += strlen(open);
    const char *end = strchr(p, ')');
    if (!end)
        fail_msg("unterminated list in \"%s\"", line);
    snprintf(items, sizeof(items), ", %.*s, ", (int)(end - p), p);
    for (; *names; names++) {
        char item[64];
        snprintf(item, sizeof(item), ", %s, ", *names);
        if (!strstr(items, item))
            fail_msg("\"%s\" list lacks %s: \"%s\"", label, *names, line);
    }
}

/* Whether the space-separated description holds the word key=value. */
static void assert_describes(const char *buf, const char *word)
{
    char padded[256], want[80];
    snprintf(padded, sizeof(padded), " %s ", buf);
    snprintf(want, sizeof(want), " %s ", word);
    if (!strstr(padded, want))
        fail_msg("\"%s\" does not say %s", buf, word);
}

static void assert_starts(const char *line, const char *prefix)
{
    if (!line || strncmp(line, prefix, strlen(prefix)))
        fail_msg("\"%s\" does not start with \"%s\"", line ? line : "(no line)", prefix);
}

static int setup(void **state)
{
    (void)state;
    log_reset();
    options_defaults(&o);
    return 0;
}

static void test_defaults(void **state)
{
    char buf[160];
    (void)state;
    assert_int_equal(o.action, ACTION_OFF);
    assert_int_equal(o.onfail, ONFAIL_HALT);
    assert_int_equal(o.interface, IFACE_AUTO);
    assert_int_equal(o.inject, 0);
    assert_false(o.irq);
    assert_int_equal(o.bioscall, BIOSCALL_AUTO);
    assert_int_equal(o.v86test, V86TEST_OFF);
    options_describe(&o, buf, sizeof(buf));
    assert_starts(buf, "action=off ");
    assert_describes(buf, "interface=auto");
    assert_describes(buf, "onfail=halt");
    assert_describes(buf, "irq=off");
    assert_describes(buf, "bioscall=auto");
    assert_describes(buf, "v86test=off");
    /* an empty inject= list is the default and is left out */
    assert_null(strstr(buf, "inject="));
}

static void test_every_choice(void **state)
{
    static const struct {
        const char *cmdline;
        enum action action;
        enum onfail onfail;
    } cases[] = {
        { "/boot/apmoff.elf action=off", ACTION_OFF, ONFAIL_HALT },
        { "/boot/apmoff.elf action=survey", ACTION_SURVEY, ONFAIL_HALT },
        { "/boot/apmoff.elf onfail=halt", ACTION_OFF, ONFAIL_HALT },
        { "/boot/apmoff.elf onfail=reboot", ACTION_OFF, ONFAIL_REBOOT },
        { "/boot/apmoff.elf onfail=exit", ACTION_OFF, ONFAIL_EXIT },
        { "/boot/apmoff.elf action=survey onfail=exit", ACTION_SURVEY, ONFAIL_EXIT },
        /* a repeated word that agrees with itself */
        { "/k action=survey action=survey", ACTION_SURVEY, ONFAIL_HALT },
        { "/k check=strict", ACTION_OFF, ONFAIL_HALT },
    };
    static const struct {
        const char *cmdline;
        size_t offset;
        int value;
    } others[] = {
        { "/k interface=auto", offsetof(struct options, interface), IFACE_AUTO },
        { "/k interface=rm", offsetof(struct options, interface), IFACE_RM },
        { "/k interface=pm32", offsetof(struct options, interface), IFACE_PM32 },
        { "/k interface=pm16", offsetof(struct options, interface), IFACE_PM16 },
        { "/k bioscall=v86", offsetof(struct options, bioscall), BIOSCALL_V86 },
        { "/k bioscall=trampoline", offsetof(struct options, bioscall),
          BIOSCALL_TRAMPOLINE },
        { "/k bioscall=auto", offsetof(struct options, bioscall), BIOSCALL_AUTO },
        { "/k v86test=movcr0", offsetof(struct options, v86test), V86TEST_MOVCR0 },
        { "/k v86test=hlt", offsetof(struct options, v86test), V86TEST_HLT },
        { "/k v86test=compare", offsetof(struct options, v86test), V86TEST_COMPARE },
        { "/k v86test=insns", offsetof(struct options, v86test), V86TEST_INSNS },
        { "/k v86test=off", offsetof(struct options, v86test), V86TEST_OFF },
    };
    (void)state;
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        options_defaults(&o);
        assert_int_equal(options_parse(&o, cases[i].cmdline), 0);
        assert_int_equal(o.action, cases[i].action);
        assert_int_equal(o.onfail, cases[i].onfail);
    }
    for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        options_defaults(&o);
        /* start from a value that is not the wanted one, so the write shows */
        *(int *)((char *)&o + others[i].offset) = 77;
        assert_int_equal(options_parse(&o, others[i].cmdline), 0);
        assert_int_equal(*(int *)((char *)&o + others[i].offset), others[i].value);
    }
    /* The switches are bools: each value lands as true or false, whatever was there. */
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k irq=on check=strict"), 0);
    assert_true(o.irq);
    assert_true(o.check_strict);
    assert_int_equal(options_parse(&o, "/k irq=off check=safe"), 0);
    assert_false(o.irq);
    assert_false(o.check_strict);
    assert_int_equal(log_count(), 0);   /* accepted words are not reported */
}

static void test_describe_after_parse(void **state)
{
    char buf[160];
    (void)state;
    assert_int_equal(options_parse(&o, "/k onfail=reboot action=survey interface=pm16 "
                                       "inject=pm32-off,rm-connect irq=on bioscall=v86 "
                                       "v86test=compare"), 0);
    options_describe(&o, buf, sizeof(buf));
    assert_describes(buf, "action=survey");
    assert_describes(buf, "interface=pm16");
    /* list items in the table's order, whatever the order given */
    assert_describes(buf, "inject=rm-connect,pm32-off");
    assert_describes(buf, "onfail=reboot");
    assert_describes(buf, "irq=on");
    assert_describes(buf, "bioscall=v86");
    assert_describes(buf, "v86test=compare");
}

/* A short buffer is cut and terminated, never overrun (ASan watches). */
static void test_describe_truncated(void **state)
{
    char buf[12];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    options_describe(&o, buf, 10);
    assert_string_equal(buf, "action=of");
    assert_int_equal(buf[10], 'X');
    assert_int_equal(buf[11], 'X');
    /* cut inside the inject= list too */
    options_parse(&o, "/k inject=rm-off,pm16-off");
    char big[160];
    options_describe(&o, big, sizeof(big));
    for (unsigned size = 1; size < sizeof(big); size++) {
        char cut[160];
        memset(cut, 'X', sizeof(cut));
        options_describe(&o, cut, size);
        assert_int_equal(strlen(cut), strlen(big) < size ? strlen(big) : size - 1);
        assert_memory_equal(cut, big, strlen(cut));
        for (unsigned i = size; i < sizeof(cut); i++)
            assert_int_equal(cut[i], 'X');
    }
}

static void test_unknown_key(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k colour=blue"), 1);
    assert_int_equal(o.action, ACTION_OFF);
    assert_int_equal(o.onfail, ONFAIL_HALT);
    assert_int_equal(log_count(), 1);
    assert_starts(log_line(0), "error: unknown option 'colour' (options: ");
    assert_list_has(log_line(0), "options", all_keys);
}

/* Keys are exact: no case folding, no prefixes. */
static void test_key_must_match_exactly(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k ACTION=survey act=survey actionx=survey"), 3);
    assert_int_equal(o.action, ACTION_OFF);
    assert_log_has("unknown option 'ACTION'");
    assert_log_has("unknown option 'act'");
    assert_log_has("unknown option 'actionx'");
}

static void test_bad_value_keeps_default(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k action=explode onfail=retry"), 2);
    assert_int_equal(o.action, ACTION_OFF);
    assert_int_equal(o.onfail, ONFAIL_HALT);
    static const char *const actions[] = { "off", "survey", NULL };
    static const char *const onfails[] = { "halt", "reboot", "exit", NULL };
    assert_starts(log_line(0), "error: action=explode is not valid (choices: ");
    assert_list_has(log_line(0), "choices", actions);
    assert_starts(log_line(1), "error: onfail=retry is not valid (choices: ");
    assert_list_has(log_line(1), "choices", onfails);
    assert_log_lacks("using");
}

/* A bad value keeps what an earlier word set, and says so. */
static void test_bad_value_keeps_previous(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k action=survey action= action=Survey"), 2);
    assert_int_equal(o.action, ACTION_SURVEY);
    assert_log_has("error: action= is not valid (choices: ");
    assert_log_has("error: action=Survey is not valid");
}

static void test_value_with_equals(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k action=survey=yes"), 1);
    assert_int_equal(o.action, ACTION_OFF);
    assert_log_has("action=survey=yes is not valid");
}

static void test_word_without_equals(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/boot/apmoff.elf survey"), 1);
    assert_int_equal(o.action, ACTION_OFF);
    assert_starts(log_line(0), "error: 'survey' is not key=value (options: ");
    assert_list_has(log_line(0), "options", all_keys);
}

static void test_empty_key(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k =survey"), 1);
    assert_log_has("unknown option ''");
}

/* Boot loaders put the kernel's path first; it is skipped only when it has no '='
 * and only as the first word. */
static void test_first_word_is_kernel_path(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/boot/apmoff.elf"), 0);
    assert_int_equal(log_count(), 0);
    assert_int_equal(options_parse(&o, "action=survey"), 0);
    assert_int_equal(o.action, ACTION_SURVEY);
    assert_int_equal(options_parse(&o, "/boot/apmoff.elf /boot/other.elf"), 1);
    assert_log_has("'/boot/other.elf' is not key=value");
}

/* A long kernel path (no '=') is still just skipped. */
static void test_long_kernel_path(void **state)
{
    char cmdline[400];
    (void)state;
    memset(cmdline, 'p', 300);
    strcpy(cmdline + 300, " onfail=exit");
    assert_int_equal(options_parse(&o, cmdline), 0);
    assert_int_equal(o.onfail, ONFAIL_EXIT);
    assert_int_equal(log_count(), 0);
}

/* Words up to 63 characters are parsed; longer ones are refused whole, naming their
 * first 63 characters. */
static void test_very_long_words(void **state)
{
    char cmdline[512], want[256];
    (void)state;

    /* 127 characters: parsed (and rejected only for its value) */
    strcpy(cmdline, "/k action=");
    memset(cmdline + 10, 'v', 120);
    cmdline[130] = '\0';
    assert_int_equal(options_parse(&o, cmdline), 1);
    assert_log_has("v is not valid (choices: ");
    assert_log_lacks("too long");

    /* 128 characters: too long */
    log_reset();
    strcpy(cmdline, "/k action=");
    memset(cmdline + 10, 'v', 121);
    cmdline[131] = '\0';
    assert_int_equal(options_parse(&o, cmdline), 1);
    snprintf(want, sizeof(want), "error: option '%.127s...' is too long",
             cmdline + 3);
    assert_string_equal(log_line(0), want);

    /* 313 characters starting like a valid word: refused whole, not cut to a valid
     * "action=survey", and the next word is still parsed */
    log_reset();
    strcpy(cmdline, "/k action=survey");
    memset(cmdline + 16, 'x', 300);
    strcpy(cmdline + 316, " onfail=reboot");
    assert_int_equal(options_parse(&o, cmdline), 1);
    assert_int_equal(o.action, ACTION_OFF);
    assert_int_equal(o.onfail, ONFAIL_REBOOT);
    assert_log_has("error: option 'action=survey");
    assert_log_has("...' is too long");
}

static void test_empty_and_null(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, NULL), 0);
    assert_int_equal(options_parse(&o, ""), 0);
    assert_int_equal(options_parse(&o, "   \t  "), 0);
    assert_int_equal(o.action, ACTION_OFF);
    assert_int_equal(o.onfail, ONFAIL_HALT);
    assert_int_equal(log_count(), 0);
}

static void test_whitespace(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "  /k\taction=survey   \tonfail=reboot  "), 0);
    assert_int_equal(o.action, ACTION_SURVEY);
    assert_int_equal(o.onfail, ONFAIL_REBOOT);
}

/* inject= is a comma list: items or-ed, each bad item reported and skipped. */
static void test_inject_list(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k inject=rm-off,pm32-connect,pm16-off"), 0);
    assert_int_equal(o.inject, INJECT_RM_OFF | INJECT_PM32_CONNECT | INJECT_PM16_OFF);
    /* A second word adds to the first, so all six fit on a command line. */
    assert_int_equal(options_parse(&o, "/k inject=rm-connect"), 0);
    assert_int_equal(o.inject, INJECT_RM_OFF | INJECT_PM32_CONNECT | INJECT_PM16_OFF |
                                   INJECT_RM_CONNECT);
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k inject=,pm32-off,,"), 0);
    assert_int_equal(o.inject, INJECT_PM32_OFF);        /* empty items ignored */
    assert_int_equal(options_parse(&o, "/k inject="), 0);
    assert_int_equal(o.inject, INJECT_PM32_OFF);        /* an empty list adds nothing */
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k inject=rm-connect,rm-off,pm32-connect "
                                       "inject=pm32-off,pm16-connect,pm16-off"), 0);
    assert_int_equal(o.inject, 0x3F);
    assert_int_equal(log_count(), 0);
}

static void test_inject_bad_items(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k inject=rm-off,bogus,pm16-connect,RM-OFF"), 2);
    assert_int_equal(o.inject, INJECT_RM_OFF | INJECT_PM16_CONNECT);
    static const char *const injects[] = {
        "rm-connect", "rm-off", "pm32-connect", "pm32-off", "pm16-connect", "pm16-off",
        NULL,
    };
    assert_starts(log_line(0), "error: inject=bogus is not valid (choices, ");
    assert_list_has(log_line(0), "choices, comma-separated", injects);
    assert_log_has("error: inject=RM-OFF is not valid");
}

/* The count of rejected words is what the caller can report. */
static void test_rejected_count(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k a=b c action=x onfail=exit d=e"), 4);
    assert_int_equal(o.onfail, ONFAIL_EXIT);
    assert_int_equal(log_count(), 4);
    log_reset();
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k interface=pm64 irq=maybe bioscall=v86"), 2);
    assert_int_equal(o.interface, IFACE_AUTO);
    assert_false(o.irq);
    assert_int_equal(o.bioscall, BIOSCALL_V86);
    static const char *const ifaces[] = { "auto", "rm", "pm32", "pm16", NULL };
    static const char *const switches[] = { "off", "on", NULL };
    assert_starts(log_line(0), "error: interface=pm64 is not valid (choices: ");
    assert_list_has(log_line(0), "choices", ifaces);
    assert_starts(log_line(1), "error: irq=maybe is not valid (choices: ");
    assert_list_has(log_line(1), "choices", switches);
}

/* label=: free text, quoted when it has spaces, printable, bounded. */
static void test_label(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k label=bench-3 action=survey"), 0);
    assert_string_equal(o.label, "bench-3");
    assert_int_equal(o.action, ACTION_SURVEY);
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label=\"Bob's 486 DX2\" wait=5"), 0);
    assert_string_equal(o.label, "Bob's 486 DX2");
    assert_int_equal(o.wait, 5);
    /* GRUB quotes the whole argument and puts a backslash before ', " and \. */
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/boot/apmoff.elf \"label=Bob\\'s 486\" wait=5"), 0);
    assert_string_equal(o.label, "Bob's 486");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k \"label=say \\\"hi\\\" a\\\\b\""), 0);
    assert_string_equal(o.label, "say \"hi\" a\\b");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label=Bob\\'s"), 0);
    assert_string_equal(o.label, "Bob's");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label= label=\"\""), 2);
    assert_int_equal(options_parse(&o, "/k label=0123456789012345678901234567890123456789"
                                       "0123456789"), 1);
    assert_log_has("error: label= takes 1 to 48 characters");
    assert_int_equal(options_parse(&o, "/k label=a label=b"), 1);
    assert_log_has("error: label= is given twice with different values");
    assert_string_equal(o.label, "a");
}

/* Bytes outside printable ASCII (label=M\xc3\xbcller as UTF-8) are refused by name,
 * before any word is read; a quote left open is refused, not taken as closed. */
static void test_odd_bytes_and_open_quotes(void **state)
{
    (void)state;
    log_reset();
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label=M\xc3\xbcller"), 1);
    assert_log_has("error: the command line holds byte C3h at position 11, which is not "
                   "printable ASCII");
    assert_string_equal(o.label, "");
    assert_int_equal(options_parse(&o, "/k action=survey\x7f"), 1);
    assert_log_has("byte 7Fh at position 17");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label=\"abc"), 1);
    assert_log_has("error: label=abc has a quote (\") that is not closed");
    assert_int_equal(options_parse(&o, "/k label=Bob\"s wait=5"), 1);
    assert_string_equal(o.label, "");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k label=Bob\\\"s"), 0);   /* escaped: a quote */
    assert_string_equal(o.label, "Bob\"s");
}

/* Options only one action reads are accepted with another, and said to do nothing. */
static void test_options_that_do_nothing_are_named(void **state)
{
    (void)state;
    log_reset();
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k wake=3 action=off"), 0);
    assert_log_has("note: wake= times the return from a standby or a suspend; with "
                   "action=off it does nothing");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k reset=kbd boot=cold action=survey"), 0);
    assert_log_has("note: reset= is for action=reboot; with action=survey it does nothing");
    assert_log_has("note: boot= is for action=reboot; with action=survey it does nothing");
    log_reset();
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k wake=3 action=standby reset=kbd action=standby"), 0);
    assert_log_lacks("note: wake=");
    assert_log_has("note: reset= is for action=reboot");
}

/* selftest=idle with every IRQ masked would wait for ever: refused with the rest. */
static void test_words_that_do_not_go_together(void **state)
{
    (void)state;
    log_reset();
    assert_int_equal(options_parse(&o, "/k selftest=idle"), 1);
    assert_log_has("error: selftest=idle needs irq=on (or interface=rm)");
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k selftest=idle irq=on"), 0);
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k selftest=idle interface=rm"), 0);
}

/* A key given twice must agree with itself; inject= lists add up. */
static void test_repeated_key(void **state)
{
    (void)state;
    assert_int_equal(options_parse(&o, "/k action=survey action=survey"), 0);
    assert_int_equal(o.action, ACTION_SURVEY);
    assert_int_equal(options_parse(&o, "/k action=survey action=off"), 1);
    assert_log_has("error: action= is given twice with different values");
    log_reset();
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k wait=5 wait=key"), 1);
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k inject=rm-off inject=pm32-off"), 0);
    assert_int_equal(o.inject, INJECT_RM_OFF | INJECT_PM32_OFF);
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_defaults),
        T(test_every_choice),
        T(test_describe_after_parse),
        T(test_describe_truncated),
        T(test_unknown_key),
        T(test_key_must_match_exactly),
        T(test_bad_value_keeps_default),
        T(test_bad_value_keeps_previous),
        T(test_value_with_equals),
        T(test_word_without_equals),
        T(test_empty_key),
        T(test_first_word_is_kernel_path),
        T(test_long_kernel_path),
        T(test_very_long_words),
        T(test_empty_and_null),
        T(test_whitespace),
        T(test_inject_list),
        T(test_inject_bad_items),
        T(test_rejected_count),
        T(test_repeated_key),
        T(test_label),
        T(test_odd_bytes_and_open_quotes),
        T(test_options_that_do_nothing_are_named),
        T(test_words_that_do_not_go_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
