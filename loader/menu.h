/* The boot menu file (MENU.CFG on the floppy): what the loader offers and what each
 * entry passes to the kernel. iso/mkmenu.py writes it from a GRUB menu; a person may
 * edit it with any DOS editor. One statement a line, '#' starts a comment line:
 *
 *     timeout 5                      seconds of countdown to the default; 0 boots at once
 *     default 1                      the entry the countdown boots, counted from 1
 *     kernel /boot/apmoff.lz4        the kernel file: a multiboot ELF, or one LZ4-packed
 *     title apmoff 0.3: power off    an entry's title; the words lines after it are its
 *     words action=off               the kernel's words, passed as they are written
 *
 * Pure: menu_parse() works on text in memory, in place (it cuts the lines), so the
 * loader and the host tests run the same code. */
#ifndef APMOFF_LOADER_MENU_H
#define APMOFF_LOADER_MENU_H

#include <stddef.h>

#define MENU_ENTRIES_MAX    20
#define MENU_TIMEOUT_MAX    3600
#define MENU_FILE_MAX       4096    /* the largest menu file read */
#define MENU_WORDS_MAX      1023    /* the kernel's limit; with the path, main.c checks */
#define MENU_TITLE_MAX      76      /* what the screen shows of a title */

struct menu_entry {
    const char *title;
    const char *words;          /* "" when the entry has no words line */
};

struct menu {
    unsigned timeout;           /* seconds */
    unsigned chosen;            /* the default entry, from 0 */
    const char *kernel;
    unsigned count;
    struct menu_entry entry[MENU_ENTRIES_MAX];
    unsigned errors;            /* lines refused (each one told to complain()) */
    int hold;                   /* show the menu and wait for a person, no countdown */
};

/* Called once for each line that is refused, with its number (from 1) and why. */
typedef void (*menu_complaint)(void *ctx, unsigned line, const char *why);

/* Parses the NUL-terminated text in place (NULs replace the line ends); a refused
 * line is reported (line 0: the menu as a whole) and skipped, the rest still count.
 * An entry's title and words point into text. Returns the number of entries. */
unsigned menu_parse(struct menu *m, char *text, menu_complaint complain, void *ctx);

#endif
