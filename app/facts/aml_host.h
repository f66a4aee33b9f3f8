/* The kernel's side of the AML interpreter (aml/aml.h's struct aml_host): the
 * hardware the firmware's AML may reach, and what apmoff says about it.
 *
 *   SystemIO         the ports, 8-, 16- and 32-bit (64 as two 32)
 *   SystemMemory     physical memory below 4 GiB, except apmoff's own image and the
 *                    interpreter's pool (refused, and said)
 *   PCI_Config       mechanism #1 or #2, segment 0, registers 00h-FFh
 *   EmbeddedControl  the EC's ports (system/acpi_ec.c), once they are known
 *   SystemCMOS       the RTC's 256 bytes (system/cmos.c)
 *   DataTable        the firmware tables apmoff found, read only
 * Anything else is AML_E_NO_HANDLER, which names the space.
 *
 * A live host does the accesses and prints each write as it makes it, with the
 * label of what runs ("acpi: _PTS(5): SystemIO 72h <- DFh"), so that the last line
 * on a machine that hangs names the write. A dry host touches nothing: reads give 0
 * and writes are counted and dropped, which is how the survey and action=check load
 * the AML without changing anything. */
#ifndef APMOFF_AML_HOST_H
#define APMOFF_AML_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "../../aml/aml.h"
#include "../../survey/acpi_tables.h"
#include "../../system/acpi_ec.h"
#include "../../system/freemem.h"

#define AML_HOST_PRINT_MAX  64  /* writes printed for one label; the rest counted */

struct aml_host_state {
    bool live;                  /* false: dry, nothing touched */
    const char *label;          /* printed before each write ("_PTS(5)"); NULL: none */
    unsigned writes;            /* since the label was set */
    unsigned printed;
    unsigned refused;           /* accesses apmoff would not make (said once each) */
    unsigned pci_mech;          /* 1, 2, or 0: no PCI configuration space */
    bool have_ec;
    struct acpi_ec ec;
    const struct acpi_tables *tables;
    struct mem_range own[2];    /* the kernel image, the pool: AML may not touch them */
    unsigned debug_lines;
};

/* The interface over st (which must live as long as the interpreter). */
struct aml_host aml_host_kernel(struct aml_host_state *st);

/* Starts printing writes under a new label (NULL: stop printing); says how many
 * writes the old one made beyond what was printed. */
void aml_host_label(struct aml_host_state *st, const char *label);

#endif
