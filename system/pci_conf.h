/* PCI configuration mechanisms #1 and #2 at the ports (lib/pc.h, lib/pci.h): finding
 * which one the board has, and reading configuration space through it.
 *
 * The probes are Linux's (arch/x86/pci/direct.c, pci_check_type1/type2), safe on an
 * ISA-only machine: each port test writes only CF8h-CFBh, restores CF8h's dword
 * after #1's, and is followed by a sanity check that bus 0 holds a host bridge, a VGA
 * device or an Intel or Compaq function, since a stray ISA card can latch a dword.
 * "No PCI" is an answer. Called with interrupts off (the kernel never enables them
 * outside a BIOS call), so nothing else touches CF8h between a write and its read. */
#ifndef APMOFF_PCI_CONF_H
#define APMOFF_PCI_CONF_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/pci.h"

/* Which mechanism to use: with a PCI BIOS (bios_mechs = INT 1Ah B101h's AL, bit 0
 * #1, bit 1 #2) the ones it names, #1 first; without one (bios_mechs 0) #1 then #2,
 * as Linux probes. Returns 1, 2, or 0 when neither passed its test. */
unsigned pci_conf_detect(uint8_t bios_mechs);

/* The port-level tests alone, each with its sanity check. */
bool pci_conf1_works(void);
bool pci_conf2_works(void);

/* An accessor for mechanism 1 or 2 (a struct pci_access with a NULL read32 for any
 * other number). Mechanism #2 reads FFFFFFFFh for devices 16-31, which it cannot
 * address. */
struct pci_access pci_conf_access(unsigned mech);

/* Reads or writes bytes (1, 2 or 4, not crossing a dword) at register reg of a
 * function through mechanism mech (1 or 2). For the firmware's AML, whose
 * PCI_Config regions write as well as read. Returns false for a mechanism or an
 * address it cannot reach (register 100h and up, device 16 and up on #2). */
bool pci_conf_read(unsigned mech, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t reg,
                   unsigned bytes, uint32_t *v);
bool pci_conf_write(unsigned mech, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t reg,
                    unsigned bytes, uint32_t v);

#endif
