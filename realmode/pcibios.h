/* The PCI BIOS installation check, INT 1Ah AX=B101h (PCI BIOS Specification 2.1,
 * 2.3 "PCI BIOS Present"). */
#ifndef APMOFF_PCIBIOS_H
#define APMOFF_PCIBIOS_H

#include <stdbool.h>
#include <stdint.h>

#define PCIBIOS_FN_PRESENT      0xB101u
#define PCIBIOS_SIGNATURE       0x20494350u     /* EDX: "PCI " */
#define PCIBIOS_MECH1           0x01            /* AL: configuration mechanism #1 */
#define PCIBIOS_MECH2           0x02            /* #2 */
#define PCIBIOS_SPECIAL1        0x10            /* special cycles through #1 */
#define PCIBIOS_SPECIAL2        0x20            /* through #2 */

struct pcibios_info {
    bool present;               /* CF clear, AH 0 and EDX "PCI " */
    uint8_t major, minor;       /* BH.BL, BCD: 02h.10h is 2.1 */
    uint8_t mechs;              /* AL: PCIBIOS_MECH1/2, PCIBIOS_SPECIAL1/2 */
    uint8_t last_bus;           /* CL */
};

/* Calls INT 1Ah AX=B101h. False, with *info cleared, when no PCI BIOS answered or the
 * call could not be made. On a BIOS without PCI support INT 1Ah is the clock's, which
 * ignores AH=B1h: the pre-set CF and the signature tell that apart. */
bool pcibios_detect(struct pcibios_info *info);

#endif
