/* 86Box's Unit Tester device: see unittester.h. */
#include "unittester.h"
#include "io.h"
#include "../lib/pc.h"

/* Two ports little decodes: in 86Box only the Tandy machines' PSSJ sound chip, which
 * is write-only there, and 1E4h/1ECh (PSS, Headland) lie beside them. A no-op first:
 * the device then reads "idle" (04h), which neither a PCI bus's FFh nor an ISA bus
 * still holding the 00h just written gives; anything else is no Unit Tester, and
 * nothing more is written. */
#define UT_BASE         0x1E0
#define UT_COMMAND      (UT_BASE + 0)   /* write: a command; read: the status */
#define UT_DATA         (UT_BASE + 1)
#define UT_CMD_NOOP     0x00
#define UT_CMD_EXIT     0x04
#define UT_STATUS_IDLE  0x04            /* no command in flight */

bool unittester_exit(uint8_t status)
{
    static const char arm[] = "86Box";

    for (unsigned i = 0; i < sizeof(arm) - 1; i++)
        outb(PORT_POST, (uint8_t)arm[i]);
    outb(PORT_POST, UT_BASE & 0xFF);
    outb(PORT_POST, UT_BASE >> 8);
    outb(UT_COMMAND, UT_CMD_NOOP);
    if (inb(UT_COMMAND) != UT_STATUS_IDLE)
        return false;
    outb(UT_COMMAND, UT_CMD_EXIT);
    outb(UT_DATA, status);
    return true;
}
