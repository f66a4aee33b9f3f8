/* The menu a person sees, on the screen and on COM1 at once, with its countdown: any
 * key stops it; a digit or Up/Down picks an entry, Enter boots it, e edits its words
 * first. A countdown of 0 boots the default entry without drawing anything, unless a
 * key is already waiting. */
#ifndef APMOFF_LOADER_MENUUI_H
#define APMOFF_LOADER_MENUUI_H

#include "menu.h"

/* Runs the menu; returns the entry to boot, with its words (perhaps edited) in
 * words[0..size). note: what a person must read before picking (the menu file's first
 * complaint, whose menu has no countdown), on the status line, or 0. */
unsigned menu_run(const struct menu *m, const char *version, const char *note, char *words,
                  unsigned size);

#endif
