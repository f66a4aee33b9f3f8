/* Command-line parsing: see options.h. Table-driven, so that the list of keys and
 * choices printed in a warning is the list the parser accepts. Also compiled on the
 * host for the unit tests. */
#include "options.h"
#include "../../system/console.h"
#include "../../lib/format.h"
#include "../../lib/string.h"

#include <stdbool.h>
#include <stddef.h>

#define WORD_MAX 128

struct choice {
    const char *name;
    int value;
};

/* Where an option's value lives in struct options: an int-sized enum or number, or
 * a bool (whose choices are 0 and 1). */
enum field_kind {
    FIELD_INT,
    FIELD_BOOL,
};

struct option_def {
    const char *key;
    size_t offset;
    enum field_kind kind;
    const struct choice *choices;
    bool is_list;               /* a comma list of choices, or-ed together */
    int max_number;             /* > 0: a whole number 0..max_number is valid too */
    int default_value;          /* what options_defaults() sets: the one place it is said */
    bool is_sequence;           /* an ordered comma list, each choice once (method=) */
    unsigned max_items;         /* a sequence's longest list */
    const char *default_text;   /* a sequence's default, when it is a list of several:
                                   read as the command line's value would be */
};

static const struct choice action_choices[] = {
    { "off", ACTION_OFF },
    { "survey", ACTION_SURVEY },
    { "survey,off", ACTION_SURVEY_OFF },
    { "check", ACTION_CHECK },
    { "standby", ACTION_STANDBY },
    { "suspend", ACTION_SUSPEND },
    { "reboot", ACTION_REBOOT },
    { "dump", ACTION_DUMP },
    { "dump,off", ACTION_DUMP_OFF },
    { 0, 0 },
};

static const struct choice onfail_choices[] = {
    { "halt", ONFAIL_HALT },
    { "reboot", ONFAIL_REBOOT },
    { "exit", ONFAIL_EXIT },
    { 0, 0 },
};

static const struct choice interface_choices[] = {
    { "auto", IFACE_AUTO },
    { "rm", IFACE_RM },
    { "pm32", IFACE_PM32 },
    { "pm16", IFACE_PM16 },
    { 0, 0 },
};

static const struct choice inject_choices[] = {
    { "rm-connect", INJECT_RM_CONNECT },
    { "rm-off", INJECT_RM_OFF },
    { "pm32-connect", INJECT_PM32_CONNECT },
    { "pm32-off", INJECT_PM32_OFF },
    { "pm16-connect", INJECT_PM16_CONNECT },
    { "pm16-off", INJECT_PM16_OFF },
    { "efi-fault", INJECT_EFI_FAULT },
    { "efi-nmi", INJECT_EFI_NMI },
    { 0, 0 },
};

static const struct choice method_choices[] = {
    { "apm", METHOD_APM },
    { "acpi", METHOD_ACPI },
    { "efi", METHOD_EFI },
    { "chipset", METHOD_CHIPSET },
    { 0, 0 },
};

static const struct choice reset_choices[] = {
    { "kbd", RESET_KBD },
    { "pci", RESET_PCI },
    { "port92", RESET_PORT92 },
    { "acpi", RESET_ACPI },
    { "efi", RESET_EFI },
    { "triple", RESET_TRIPLE },
    { "bios", RESET_BIOS },
    { 0, 0 },
};

static const struct choice boot_choices[] = {
    { "warm", BOOT_WARM },
    { "cold", BOOT_COLD },
    { 0, 0 },
};

static const struct choice wake_choices[] = {
    { "key", WAKE_KEY },
    { 0, 0 },
};

static const struct choice switch_choices[] = {
    { "off", false },
    { "on", true },
    { 0, 0 },
};

static const struct choice bioscall_choices[] = {
    { "trampoline", BIOSCALL_TRAMPOLINE },
    { "v86", BIOSCALL_V86 },
    { "auto", BIOSCALL_AUTO },
    { 0, 0 },
};

static const struct choice v86test_choices[] = {
    { "off", V86TEST_OFF },
    { "movcr0", V86TEST_MOVCR0 },
    { "hlt", V86TEST_HLT },
    { "compare", V86TEST_COMPARE },
    { "a20", V86TEST_A20 },
    { "insns", V86TEST_INSNS },
    { 0, 0 },
};

static const struct choice wait_choices[] = {
    { "key", WAIT_KEY },
    { 0, 0 },
};

static const struct choice check_choices[] = {
    { "safe", false },
    { "strict", true },
    { 0, 0 },
};

static const struct choice selftest_choices[] = {
    { "off", SELFTEST_OFF },
    { "exception", SELFTEST_EXCEPTION },
    { "idle", SELFTEST_IDLE },
    { "clock", SELFTEST_CLOCK },
    { 0, 0 },
};

#define WAIT_MAX_SECONDS 3600

/* One choice; a bool's choices are 0 and 1. */
#define INT_OPTION(key, member, choices, dflt) \
    { key, offsetof(struct options, member), FIELD_INT, choices, false, 0, dflt, false, 0, 0 }
#define BOOL_OPTION(key, member, choices, dflt) \
    { key, offsetof(struct options, member), FIELD_BOOL, choices, false, 0, dflt, false, 0, 0 }
/* A choice, or a whole number 0..most. */
#define NUMBER_OPTION(key, member, choices, most, dflt) \
    { key, offsetof(struct options, member), FIELD_INT, choices, false, most, dflt, false, 0, 0 }
/* A comma list of choices, or-ed together; none by default. */
#define LIST_OPTION(key, member, choices) \
    { key, offsetof(struct options, member), FIELD_INT, choices, true, 0, 0, false, 0, 0 }
/* An ordered comma list of up to `most` choices, each once; the default as written. */
#define SEQUENCE_OPTION(key, member, choices, most, dflt_text) \
    { key, offsetof(struct options, member), FIELD_INT, choices, false, 0, 0, true, most, \
      dflt_text }

static const struct option_def option_defs[] = {
    INT_OPTION("action", action, action_choices, ACTION_OFF),
    INT_OPTION("interface", interface, interface_choices, IFACE_AUTO),
    LIST_OPTION("inject", inject, inject_choices),
    INT_OPTION("onfail", onfail, onfail_choices, ONFAIL_HALT),
    SEQUENCE_OPTION("method", methods, method_choices, METHODS_MAX, "apm"),
    BOOL_OPTION("irq", irq, switch_choices, false),
    INT_OPTION("bioscall", bioscall, bioscall_choices, BIOSCALL_AUTO),
    INT_OPTION("v86test", v86test, v86test_choices, V86TEST_OFF),
    NUMBER_OPTION("wait", wait, wait_choices, WAIT_MAX_SECONDS, WAIT_KEY),
    INT_OPTION("selftest", selftest, selftest_choices, SELFTEST_OFF),
    BOOL_OPTION("check", check_strict, check_choices, false),
    BOOL_OPTION("pts", pts, switch_choices, true),
    SEQUENCE_OPTION("reset", resets, reset_choices, RESETS_MAX, RESET_DEFAULT_ORDER),
    INT_OPTION("boot", boot, boot_choices, BOOT_WARM),
    NUMBER_OPTION("wake", wake, wake_choices, WAKE_MAX_SECONDS, WAKE_KEY),
};

_Static_assert(sizeof(enum action) == sizeof(int), "enum options are stored as int");

#define N_OPTIONS (sizeof(option_defs) / sizeof(option_defs[0]))
#define LABEL_SEEN (1u << N_OPTIONS)    /* in set_once()'s bit set, after the table's */

static int get(const struct options *o, const struct option_def *d)
{
    const char *at = (const char *)o + d->offset;
    return d->kind == FIELD_BOOL ? *(const bool *)at : *(const int *)at;
}

static void set(struct options *o, const struct option_def *d, int value)
{
    char *at = (char *)o + d->offset;
    if (d->kind == FIELD_BOOL)
        *(bool *)at = value != 0;
    else
        *(int *)at = value;
}

static int sequence_value(const struct option_def *d, char *items, int *value);

/* An option's default value: the table's number, or its list read from the text. */
static int default_of(const struct option_def *d)
{
    char text[WORD_MAX];
    int value = d->default_value;

    if (d->default_text) {
        fmt_snprintf(text, sizeof(text), "%s", d->default_text);
        sequence_value(d, text, &value);    /* test_options checks that it parses */
    }
    return value;
}

void options_defaults(struct options *o)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        set(o, &option_defs[i], default_of(&option_defs[i]));
    o->label[0] = '\0';
}

static const char *choice_name(const struct choice *c, int value)
{
    for (; c->name; c++)
        if (c->value == value)
            return c->name;
    return "?";
}

const char *options_action_name(int action)
{
    return choice_name(action_choices, action);
}

const char *reset_method_name(enum reset_method m)
{
    return choice_name(reset_choices, m);
}

static void list_choices(char *buf, size_t size, const struct choice *c)
{
    size_t n = 0;
    for (; c->name && n < size; c++)
        n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s", n ? ", " : "", c->name);
}

static void list_keys(char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < N_OPTIONS && n < size; i++)
        n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                                  option_defs[i].key);
    if (n < size)
        fmt_snprintf(buf + n, size - n, ", label");
}

/* label=TEXT: free text, so not in the table of choices. */
static int apply_label(struct options *o, const char *value, unsigned *seen)
{
    size_t n = strlen(value);
    if (!n || n > LABEL_MAX) {
        say("error: label= takes 1 to %u characters (quote it when it has spaces)",
            LABEL_MAX);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (value[i] < 0x20 || value[i] > 0x7E) {
            say("error: label= takes printable ASCII only");
            return 1;
        }
    if (*seen & LABEL_SEEN && strcmp(o->label, value)) {
        say("error: label= is given twice with different values");
        return 1;
    }
    *seen |= LABEL_SEEN;
    memcpy(o->label, value, n + 1);
    return 0;
}

/* A decimal number 0..max, digits only. */
static int parse_number(const char *s, int max, int *out)
{
    int v = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (*s - '0');
        if (v > max)
            return 0;
    }
    *out = v;
    return 1;
}

static const struct choice *find_choice(const struct choice *c, const char *name)
{
    for (; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return 0;
}

/* key=a,b,c: every item must be a choice; a bad item is reported and skipped, the
 * others still apply. Returns the number of bad items. */
static int apply_list(struct options *o, const struct option_def *d, char *items)
{
    char valid[160];
    int bad = 0;

    while (*items) {             /* a second key=... word adds to the first */
        char *item = items;
        while (*items && *items != ',')
            items++;
        if (*items)
            *items++ = '\0';
        if (!*item)
            continue;
        const struct choice *c = find_choice(d->choices, item);
        if (c) {
            set(o, d, get(o, d) | c->value);
            continue;
        }
        list_choices(valid, sizeof(valid), d->choices);
        say("error: %s=%s is not valid (choices, comma-separated: %s)", d->key, item, valid);
        bad++;
    }
    return bad;
}

static int set_once(struct options *o, const struct option_def *d, int value,
                    unsigned *seen);

/* key=a,b,c in this order, each choice at most once, up to the option's max_items,
 * as one number (list_at()). Returns the number of problems, each said. */
static int sequence_value(const struct option_def *d, char *items, int *value)
{
    char valid[160];
    unsigned n = 0;

    *value = 0;
    list_choices(valid, sizeof(valid), d->choices);
    for (bool more = true; more;) {
        char *item = items;
        while (*items && *items != ',')
            items++;
        more = *items == ',';
        *items++ = '\0';
        const struct choice *c = find_choice(d->choices, item);
        if (!c) {
            /* The table's order is no order of trial: name the default one apart. */
            char order[96];
            size_t k = 0;
            int dflt = default_of(d);
            order[0] = '\0';
            for (unsigned i = 0; i < d->max_items && list_at(dflt, i) && k < sizeof(order); i++)
                k += (size_t)fmt_snprintf(order + k, sizeof(order) - k, "%s%s", i ? "," : "",
                                          choice_name(d->choices, (int)list_at(dflt, i)));
            say("error: %s=%s is not valid: the names are %s, given comma-separated in "
                "the order to try them (the default: %s=%s)", d->key, item, valid, d->key,
                order);
            return 1;
        }
        for (unsigned i = 0; i < n; i++)
            if (list_at(*value, i) == (unsigned)c->value) {
                say("error: %s= names %s twice", d->key, item);
                return 1;
            }
        if (n == d->max_items) {
            say("error: %s= takes at most %u names", d->key, d->max_items);
            return 1;
        }
        *value |= c->value << (LIST_BITS * n++);
    }
    return 0;
}

/* key=a,b,c: a sequence, set once like a single choice. */
static int apply_sequence(struct options *o, const struct option_def *d, char *items,
                          unsigned *seen)
{
    int value;

    if (sequence_value(d, items, &value))
        return 1;
    return set_once(o, d, value, seen);
}

/* Sets a single-valued option; a second word for the same key must agree with the
 * first (which of two different values was meant cannot be known). */
static int set_once(struct options *o, const struct option_def *d, int value,
                    unsigned *seen)
{
    unsigned bit = 1u << (d - option_defs);
    if ((*seen & bit) && get(o, d) != value) {
        say("error: %s= is given twice with different values", d->key);
        return 1;
    }
    *seen |= bit;
    set(o, d, value);
    return 0;
}

/* One key=value word; returns 0 when accepted. */
static int apply_word(struct options *o, char *word, unsigned *seen)
{
    char valid[160];
    char *value = word;

    while (*value && *value != '=')
        value++;
    if (!*value) {
        list_keys(valid, sizeof(valid));
        say("error: '%s' is not key=value (options: %s)", word, valid);
        return 1;
    }
    *value++ = '\0';

    if (!strcmp(word, "label"))
        return apply_label(o, value, seen);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const struct option_def *d = &option_defs[i];
        if (strcmp(d->key, word))
            continue;
        if (d->is_list)
            return apply_list(o, d, value);
        if (d->is_sequence)
            return apply_sequence(o, d, value, seen);
        const struct choice *c = find_choice(d->choices, value);
        if (c)
            return set_once(o, d, c->value, seen);
        int number;
        if (d->max_number && parse_number(value, d->max_number, &number))
            return set_once(o, d, number, seen);
        list_choices(valid, sizeof(valid), d->choices);
        if (d->max_number) {
            size_t n = strlen(valid);
            fmt_snprintf(valid + n, sizeof(valid) - n, ", or 0-%d", d->max_number);
        }
        say("error: %s=%s is not valid (choices: %s)", word, value, valid);
        return 1;
    }
    list_keys(valid, sizeof(valid));
    say("error: unknown option '%s' (options: %s)", word, valid);
    return 1;
}

/* Words that are each valid but do not go together, refused as a whole: the run
 * would stop later, after calls a refused command line must not make. */
static bool given(unsigned seen, const char *key)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (!strcmp(option_defs[i].key, key))
            return seen & (1u << i);
    return false;
}

/* Options that only some actions read: given with another action, they are said to do
 * nothing there, so that a person does not believe they took effect. */
static void note_unused(const struct options *o, unsigned seen)
{
    const char *action = choice_name(action_choices, o->action);
    if (given(seen, "wake") && o->action != ACTION_STANDBY && o->action != ACTION_SUSPEND)
        say("note: wake= times the return from a standby or a suspend; with action=%s "
            "it does nothing", action);
    if (o->action != ACTION_REBOOT)
        for (const char *const *k = (const char *const[]){ "reset", "boot", 0 }; *k; k++)
            if (given(seen, *k))
                say("note: %s= is for action=reboot; with action=%s it does nothing", *k,
                    action);
}

/* Bytes a command line may hold: printable ASCII and the tab. Anything else is
 * refused before a word is read, so that no odd byte reaches a message, the screen
 * or the survey line (a label of "M\xc3\xbcller" is refused, not mangled). */
static int check_bytes(const char *cmdline)
{
    for (size_t i = 0; cmdline[i]; i++) {
        unsigned char c = (unsigned char)cmdline[i];
        if ((c < 0x20 && c != '\t') || c > 0x7E) {
            say("error: the command line holds byte %02Xh at position %u, which is not "
                "printable ASCII: every key and value is (label= too)", c,
                (unsigned)i + 1);
            return 1;
        }
    }
    return 0;
}

static int check_together(const struct options *o)
{
    if (o->selftest == SELFTEST_IDLE && !o->irq && o->interface != IFACE_RM) {
        say("error: selftest=idle needs irq=on (or interface=rm): the protected-mode "
            "calls mask every IRQ, and 5305h waits for one");
        return 1;
    }
    return 0;
}

int options_parse(struct options *o, const char *cmdline)
{
    char word[WORD_MAX];
    int rejected = 0;
    int first = 1;
    unsigned seen = 0;

    if (!cmdline)
        return 0;
    if (check_bytes(cmdline))
        return 1;
    while (*cmdline) {
        size_t n = 0, len = 0;
        int has_eq = 0;

        while (*cmdline == ' ' || *cmdline == '\t')
            cmdline++;
        if (!*cmdline)
            break;
        /* A double-quoted stretch keeps its spaces and the quotes are dropped; a
         * backslash keeps the next character as it is, itself dropped. GRUB writes an
         * argument with a space as "label=Bob\'s 486" (quoted, a backslash before ',
         * " and \), QEMU's -append passes label="Bob's 486" as typed, the floppy
         * loader passes its menu's words as written: all three read Bob's 486. */
        int quoted = 0;
        while (cmdline[len] && (quoted || (cmdline[len] != ' ' && cmdline[len] != '\t'))) {
            if (cmdline[len] == '"') {
                quoted = !quoted;
                len++;
                continue;
            }
            if (cmdline[len] == '\\' && cmdline[len + 1])
                len++;
            if (cmdline[len] == '=')
                has_eq = 1;
            if (n < sizeof(word) - 1)
                word[n++] = cmdline[len];
            len++;
        }
        word[n] = '\0';
        cmdline += len;
        if (quoted) {
            say("error: %s has a quote (\") that is not closed", word);
            rejected++;
            continue;
        }

        if (first && !has_eq) {         /* the boot loader's path to the kernel */
            first = 0;
            continue;
        }
        first = 0;
        if (len >= sizeof(word)) {
            say("error: option '%s...' is too long", word);
            rejected++;
            continue;
        }
        rejected += apply_word(o, word, &seen);
    }
    if (!rejected)
        note_unused(o, seen);
    return rejected + check_together(o);
}

static void describe(const struct options *o, char *buf, unsigned size, bool changed_only)
{
    size_t n = 0;

    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < N_OPTIONS && n < size; i++) {
        const struct option_def *d = &option_defs[i];
        int value = get(o, d);
        const char *sep = n ? " " : "";
        if (changed_only && value == default_of(d))
            continue;
        if (d->max_number && value >= 0) {
            n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s=%d", sep, d->key, value);
            continue;
        }
        if (d->is_sequence) {
            n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s=", sep, d->key);
            for (unsigned k = 0; k < d->max_items && list_at(value, k) && n < size; k++)
                n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s", k ? "," : "",
                                          choice_name(d->choices, (int)list_at(value, k)));
            continue;
        }
        if (!d->is_list) {
            n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s=%s", sep, d->key,
                                      choice_name(d->choices, value));
            continue;
        }
        if (!value)             /* an empty list is the default: leave it out */
            continue;
        n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s=", sep, d->key);
        const char *comma = "";
        for (const struct choice *c = d->choices; c->name && n < size; c++) {
            if (value & c->value) {
                n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s", comma, c->name);
                comma = ",";
            }
        }
    }
}

void options_describe(const struct options *o, char *buf, unsigned size)
{
    describe(o, buf, size, false);
}

void options_describe_changed(const struct options *o, char *buf, unsigned size)
{
    describe(o, buf, size, true);
}
