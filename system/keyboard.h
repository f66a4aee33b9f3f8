/* Polled input for "press a key": the PS/2 keyboard controller and COM1. */
#ifndef APMOFF_KEYBOARD_H
#define APMOFF_KEYBOARD_H

#include <stdbool.h>

/* Discards whatever is waiting, so an old keystroke does not end a new wait. */
void input_flush(void);
/* True when a key was pressed (a make code on the keyboard) or a byte arrived on COM1. */
bool input_poll(void);

#endif
