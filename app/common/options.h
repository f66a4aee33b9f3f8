/* Kernel command-line options: key=value words, separated by spaces.
 *
 * The keys and values are a public contract (users' GRUB entries and emulator CIs
 * use them): add, never rename. A word that names no option, a value that is not one
 * of the option's choices, a key given twice with different values, or a word that
 * is not key=value is reported as an error with the valid choices; the kernel then
 * does nothing (a mistyped word must never power a machine off). The first word is
 * skipped when it has no '=': boot loaders put the kernel's file name there. */
#ifndef APMOFF_OPTIONS_H
#define APMOFF_OPTIONS_H

#include <stdbool.h>

#include "../../system/halt.h"
#include "../../realmode/v86test.h"

enum action {
    ACTION_OFF,                 /* survey, then power off (the default) */
    ACTION_SURVEY,              /* everything except the power-off call, then halt */
    ACTION_SURVEY_OFF,          /* the survey and its QR code, wait, then power off */
    ACTION_CHECK,               /* the APM conformance checks, then halt */
    ACTION_STANDBY,             /* request standby, report the return and the events */
    ACTION_SUSPEND,             /* request suspend, likewise */
    ACTION_REBOOT,              /* reset the machine, each reset= method in turn */
    ACTION_DUMP,                /* the firmware's bytes over COM1, then halt */
    ACTION_DUMP_OFF,            /* the same, then power off */
};

#define WAIT_KEY (-1)           /* wait=key: until a key press (the survey default) */
#define WAKE_KEY (-1)           /* wake=key: standby and suspend end at the resume key */
#define WAKE_MAX_SECONDS 86399  /* under a day: the clock's alarm knows no date */

enum iface_choice {
    IFACE_AUTO,                 /* rm, then pm32, then pm16, as the BIOS offers them */
    IFACE_RM,
    IFACE_PM32,
    IFACE_PM16,
};

/* inject= bits: the named step fails as if the BIOS had failed it. */
enum inject_bits {
    INJECT_RM_CONNECT = 1 << 0,
    INJECT_RM_OFF = 1 << 1,
    INJECT_PM32_CONNECT = 1 << 2,
    INJECT_PM32_OFF = 1 << 3,
    INJECT_PM16_CONNECT = 1 << 4,
    INJECT_PM16_OFF = 1 << 5,
    INJECT_EFI_FAULT = 1 << 6,  /* method=efi calls UD2 instead of ResetSystem */
    INJECT_EFI_NMI = 1 << 7,    /* ... or a wait for an NMI (the harness sends one) */
};

enum bioscall {
    BIOSCALL_TRAMPOLINE,        /* leave protected mode for each BIOS call */
    BIOSCALL_V86,               /* run the BIOS under the v86 monitor */
    BIOSCALL_AUTO,              /* the v86 monitor, which ends a BIOS that halts or
                                   loops; the trampoline where the monitor cannot run
                                   the BIOS, and for an off call that came back */
};

/* selftest=: test support, proves a mechanism the normal run never exercises. */
enum selftest {
    SELFTEST_OFF,
    SELFTEST_EXCEPTION,         /* raise #UD: the register dump must appear, no reboot */
    SELFTEST_IDLE,              /* APM CPU-idle calls: irq=on must let the timer end them */
    SELFTEST_CLOCK,             /* spans of the RTC's seconds that read nothing else */
};

/* method=: how the power goes off, an ordered list of up to METHODS_MAX names, each
 * at most once (method=apm,acpi: APM, then ACPI S5 if APM leaves the machine on).
 * Stored as a number: method i of the list in bits 4i..4i+3, METHOD_NONE ends it. */
enum method {
    METHOD_NONE,
    METHOD_APM,                 /* the APM BIOS, 5307h (the default) */
    METHOD_ACPI,                /* ACPI S5: SLP_TYP|SLP_EN written to PM1a/PM1b_CNT */
    METHOD_EFI,                 /* UEFI runtime services, ResetSystem(EfiResetShutdown) */
    METHOD_CHIPSET,             /* the south bridge's own soft-off (survey/softoff.h) */
    METHOD_COUNT,
};

/* An ordered list of names (method=, reset=) as a number: item i in bits 4i..4i+3, 0
 * after the last. */
#define LIST_BITS 4
#define LIST_ITEMS_MAX 7        /* 28 bits of an int */

static inline unsigned list_at(int list, unsigned i)
{
    return i < LIST_ITEMS_MAX ? ((unsigned)list >> (LIST_BITS * i)) & 15 : 0;
}

#define METHODS_MAX 4
#define METHOD_BITS LIST_BITS
#define METHOD_LIST_1(m) ((int)(m))

static inline enum method method_at(int methods, unsigned i)
{
    return i < METHODS_MAX ? (enum method)list_at(methods, i) : METHOD_NONE;
}

static inline bool methods_include(int methods, enum method m)
{
    for (unsigned i = 0; i < METHODS_MAX; i++)
        if (method_at(methods, i) == m)
            return true;
    return false;
}

/* reset=: the ways action=reboot resets the machine, an ordered list like method=,
 * each at most once (app/reset/resets.h tries them, app/reset/offer.h says which are
 * there). The default is Linux's order (reboot=acpi, then kbd, then efi; cf9 where
 * the chipset has it) with port 92h, then the triple fault, which never comes back,
 * last; bios (which never comes back either) only when named. */
enum reset_method {
    RESET_NONE,
    RESET_KBD,                  /* the 8042's pulse-reset command, FEh */
    RESET_PCI,                  /* the reset control register at CF9h */
    RESET_PORT92,               /* port 92h's fast-reset bit */
    RESET_ACPI,                 /* the FADT's RESET_REG and RESET_VALUE */
    RESET_EFI,                  /* UEFI ResetSystem, EfiResetCold or EfiResetWarm */
    RESET_TRIPLE,               /* an empty IDT and an exception */
    RESET_BIOS,                 /* a jump to F000:FFF0 from real mode */
    RESET_COUNT,
};

#define RESETS_MAX (RESET_COUNT - 1)
#define RESET_DEFAULT_ORDER "acpi,kbd,efi,pci,port92,triple"
_Static_assert(RESETS_MAX <= LIST_ITEMS_MAX, "every reset method fits the list");

static inline enum reset_method reset_at(int resets, unsigned i)
{
    return i < RESETS_MAX ? (enum reset_method)list_at(resets, i) : RESET_NONE;
}

/* As reset= spells it: "kbd", "port92" ... */
const char *reset_method_name(enum reset_method m);
/* "off", "survey,off", "reboot"...: the word action= takes for it. */
const char *options_action_name(int action);

/* boot=: the warm-boot flag at 40:72h that every reset method leaves for the BIOS. */
enum boot_kind {
    BOOT_WARM,                  /* 1234h: POST skips the memory test (the default: the
                                   record for the next run survives it) */
    BOOT_COLD,                  /* 0000h: POST as at power-on (Linux's default) */
};

#define LABEL_MAX 48            /* label=: printable ASCII, quoted when it has spaces */

struct options {
    enum action action;
    enum onfail onfail;
    enum iface_choice interface;
    int inject;                 /* enum inject_bits, or-ed */
    bool irq;                   /* irq=on: BIOS calls with interrupts enabled */
    int methods;                /* method=: the ordered list (see enum method) */
    enum bioscall bioscall;
    enum v86test v86test;
    int wait;                   /* seconds the survey screen stays, or WAIT_KEY */
    enum selftest selftest;
    bool pts;                   /* pts=on (the default): method=acpi runs the firmware's
                                   AML, \_PTS(5) among it, before S5; pts=off: no AML
                                   runs, \_S5_ is read by the byte-level reader */
    bool check_strict;          /* check=strict: also 5307h with a reserved state
                                   (error 0Ah expected); check=safe (the default):
                                   no call that could change the power state */
    char label[LABEL_MAX + 1];  /* the user's own name for the machine, or "" */
    int resets;                 /* reset=: the ordered list (enum reset_method) */
    enum boot_kind boot;        /* boot=: warm or cold after a reset */
    int wake;                   /* wake=: seconds before standby or suspend ends by
                                   itself, or WAKE_KEY (0 too: no timer) */
};

void options_defaults(struct options *o);

/* Parses cmdline into o (already holding defaults); returns the number of problems,
 * each reported on the console. */
int options_parse(struct options *o, const char *cmdline);

/* The options in force, as "key=value ..." for the report. */
void options_describe(const struct options *o, char *buf, unsigned size);
/* The same with only the options that differ from their defaults (for the survey). */
void options_describe_changed(const struct options *o, char *buf, unsigned size);

#endif
