/* Which of the reset methods (reset=, app/common/options.h) a machine offers, and why not
 * where it does not: what action=reboot skips with its reason, what the survey's
 * JSON and action=check report. Decided from facts the survey read, touching
 * nothing:
 *   kbd     an 8042 answers: its status port 64h reads other than FFh;
 *   pci     the chipset table (survey/chipset.h) says the board's south bridge (or
 *           host bridge) has the reset control register at CF9h;
 *   port92  the same table says it has port 92h: an ISA board, or a chipset the
 *           table does not know, is not tried (on some old boards 92h is another
 *           device; the A20 code keeps off it there for the same reason);
 *   acpi    the FADT has revision 2 or later, the RESET_REG_SUP flag and a
 *           RESET_REG in system I/O, memory below 4 GiB or bus 0's PCI configuration
 *           space (with a PCI mechanism to reach it), as Linux's acpi_reboot() asks;
 *   efi     UEFI ResetSystem is usable (method=efi's test, app/power/efi.h);
 *   triple  always: every PC turns a CPU shutdown into a reset;
 *   bios    a legacy BIOS answers (its reset entry is where POST starts).
 * Pure: the host tests feed it facts. */
#ifndef APMOFF_RESET_OFFER_H
#define APMOFF_RESET_OFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/options.h"
#include "../../lib/json.h"
#include "../../survey/acpi_tables.h"
#include "../../survey/chipset.h"

struct reset_facts {
    bool kbc;                           /* 64h read other than FFh */
    uint8_t kbc_status;
    bool isa;                           /* no PCI configuration mechanism answered */
    unsigned pci_mech;                  /* 1 or 2 when one did */
    const struct chipset_verdict *chipset;
    const struct acpi_fadt *fadt;       /* length 0: no FADT */
    const char *no_fadt;                /* then why (no RSDP, ...) */
    const char *efi_why;                /* NULL: ResetSystem usable */
    const char *bios_why;               /* NULL: a legacy BIOS answers */
};

#define RESET_WHY_MAX 112

struct reset_offer {
    const char *why[RESET_COUNT];       /* NULL: offered; else why not */
    char text[RESET_COUNT][RESET_WHY_MAX];  /* where a reason is made up */
    uint8_t kbc_status;
    uint8_t acpi_space;                 /* the reset register, when acpi is offered */
    uint64_t acpi_addr;
    uint8_t acpi_value;
    unsigned pci_mech;
};

void reset_offer_find(const struct reset_facts *f, struct reset_offer *o);

static inline bool reset_offered(const struct reset_offer *o, enum reset_method m)
{
    return !o->why[m];
}

/* What the method does here, for its "resetting via" line: "8042 command FEh",
 * "RESET_REG I/O CF9h <- 06h" ...; cold: boot=cold (EfiResetCold). */
void reset_offer_describe(const struct reset_offer *o, enum reset_method m, bool cold,
                          char *buf, unsigned size);

/* The acpi register as the JSON gives it: "io:0CF9=06", "mem:FED80004=06",
 * "pci:00:1F.0:44=06". */
void reset_offer_acpi_text(const struct reset_offer *o, char *buf, unsigned size);

/* The methods offered, in reset='s spelling and order, sep between them: the one
 * answer for the survey's line and JSON. Returns the length written. */
unsigned reset_offer_list(const struct reset_offer *o, const char *sep, char *buf,
                          unsigned size);

/* The survey's and check's JSON fields: "reset", the methods offered, in reset='s
 * spelling and order ("kbd,pci,port92,triple,bios": one short string, for the QR
 * code), and "reset_acpi" when acpi is one of them. */
void reset_offer_json(struct json *j, const struct reset_offer *o);

#endif
