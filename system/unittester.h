/* 86Box's Unit Tester device (86Box's doc/specifications/86box-unit-tester.md): the
 * counterpart of QEMU's isa-debug-exit, present where a configuration enables it
 * ([Other peripherals] unittester_enabled = 1). */
#ifndef APMOFF_UNITTESTER_H
#define APMOFF_UNITTESTER_H

#include <stdbool.h>
#include <stdint.h>

/* Arms the device (its byte sequence on the POST port, interrupts off) and, where it
 * answers, asks it to end 86Box with status. False where no device answered: the
 * caller goes on. 86Box clamps status to 7Fh. */
bool unittester_exit(uint8_t status);

#endif
