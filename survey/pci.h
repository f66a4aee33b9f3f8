/* The PCI bus walk: every bus, device and function, read through an abstract
 * configuration-space accessor (struct pci_access, lib/pci.h), so the same code walks
 * the kernel's ports (system/pci_conf.c) and the host tests' simulated buses.
 *
 * Bounded on any bus, sane or not. The buses walked are bus 0, every bus up to the
 * PCI BIOS's last bus (peer host bridges' buses, as Linux's pcibios_last_bus finds
 * them) and every bus a PCI-to-PCI or CardBus bridge names as its secondary (header
 * offset 19h), lowest number first; each of the 256 bus numbers at most once, so a
 * bridge pointing back to a walked bus ends nothing but itself. Functions 1-7 are
 * read only when function 0's header type has bit 7 set (many single-function devices
 * answer every function number). A vendor of FFFFh or 0000h is an empty slot. At
 * most PCI_MAX_FUNCTIONS functions are kept; then the walk stops and says it was cut
 * short. Worst case: 256 buses x 32 devices x 8 functions, a few reads each. */
#ifndef APMOFF_SURVEY_PCI_H
#define APMOFF_SURVEY_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/pci.h"

#define PCI_MAX_FUNCTIONS   48

enum pci_mech {
    PCI_MECH_NONE,              /* no configuration mechanism answered: no PCI */
    PCI_MECH_1,                 /* CF8h/CFCh */
    PCI_MECH_2,                 /* CF8h/CFAh and C000h-CFFFh */
};

struct pci_function {
    uint8_t bus, dev, fn;
    uint8_t header_type;        /* as read: bit 7 multi-function, bits 0-6 the layout */
    uint16_t vendor, device;
    uint8_t class_code, subclass, prog_if, revision;
    uint16_t sub_vendor, sub_device;    /* 0 when the header type has none (bridges) */
    uint8_t irq_line, irq_pin;  /* 3Ch, 3Dh: pin 0 none, 1-4 INTA#-INTD# */
    uint8_t secondary_bus;      /* bridges (header types 1 and 2): the bus behind */
};

struct pci_survey {
    bool bios_present;          /* INT 1Ah B101h answered (realmode/pcibios.h) */
    uint8_t bios_major, bios_minor, bios_mechs, bios_last_bus;
    enum pci_mech mech;
    unsigned buses;             /* buses walked */
    unsigned count;
    struct pci_function fn[PCI_MAX_FUNCTIONS];
    bool truncated;             /* more functions than fit in fn[] */
};

/* Walks the buses through acc and fills sv's mech-independent part: buses, count,
 * fn[], truncated (bios_* and mech are the caller's, read before). last_bus is the
 * PCI BIOS's (0 without one). */
void pci_walk(const struct pci_access *acc, uint8_t last_bus, struct pci_survey *sv);

/* The first function with this vendor and device, or NULL. */
const struct pci_function *pci_find(const struct pci_survey *sv, uint16_t vendor,
                                    uint16_t device);

/* The PCI base class's name ("bridge", "display", ...; PCI Code and ID Assignment
 * Specification 1.x, classes 00h-12h), "other" beyond them, "unassigned" for FFh. */
const char *pci_class_name(uint8_t class_code);

#endif
