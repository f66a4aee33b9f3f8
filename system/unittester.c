/* 86Box's Unit Tester device: see unittester.h. */
#include "unittester.h"
#include "io.h"
#include "../lib/pc.h"

/* Two ports no machine of 86Box's decodes (its PSS sound card and Headland chipset sit
 * at 1E4h and 1ECh). Where no device answers, an ISA bus floats and a PCI bus aborts
 * to FFh, and nothing more is written there. */
#define UT_BASE         0x1E0
#define UT_COMMAND      (UT_BASE + 0)   /* write: a command; read: the status */
#define UT_DATA         (UT_BASE + 1)
#define UT_ABSENT       0xFF
#define UT_CMD_EXIT     0x04

bool unittester_exit(uint8_t status)
{
    static const char arm[] = "86Box";

    for (unsigned i = 0; i < sizeof(arm) - 1; i++)
        outb(PORT_POST, (uint8_t)arm[i]);
    outb(PORT_POST, UT_BASE & 0xFF);
    outb(PORT_POST, UT_BASE >> 8);
    if (inb(UT_COMMAND) == UT_ABSENT)
        return false;
    outb(UT_COMMAND, UT_CMD_EXIT);
    outb(UT_DATA, status);
    return true;
}
