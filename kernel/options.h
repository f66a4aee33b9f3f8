/* Kernel command-line options: key=value words, separated by spaces.
 *
 * The keys and values are a public contract (users' GRUB entries and emulator CIs
 * use them): add, never rename. A word that names no option, or a value that is not
 * one of the option's choices, is reported with the valid choices and the default
 * is kept. The first word is skipped when it has no '=': boot loaders put the
 * kernel's file name there. */
#ifndef APMOFF_OPTIONS_H
#define APMOFF_OPTIONS_H

enum action {
    ACTION_OFF,                 /* survey, then power off (the default) */
    ACTION_SURVEY,              /* everything except the power-off call, then halt */
};

enum onfail {
    ONFAIL_HALT,                /* print the reason and halt (the default) */
    ONFAIL_REBOOT,              /* print the reason and reset the machine */
    ONFAIL_EXIT,                /* print the reason and write a code to QEMU's isa-debug-exit */
};

struct options {
    enum action action;
    enum onfail onfail;
};

void options_defaults(struct options *o);

/* Parses cmdline into o (already holding defaults); returns the number of words it
 * rejected, each reported on the console. */
int options_parse(struct options *o, const char *cmdline);

/* The options in force, as "key=value ..." for the report. */
void options_describe(const struct options *o, char *buf, unsigned size);

#endif
