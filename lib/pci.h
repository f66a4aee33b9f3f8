/* PCI configuration space: the registers apmoff reads, the two configuration
 * mechanisms' address encodings, and the accessor every reader goes through.
 *
 * Pure (no I/O): the kernel's port-level mechanisms (system/pci_conf.c), the bus
 * walker (survey/pci.c) and its host tests share these numbers. Offsets are those of
 * the PCI Local Bus Specification 2.1, 6.1 (header type 0), and the PCI-to-PCI Bridge
 * Architecture Specification 1.1, 3.2 (type 1); CardBus (type 2) is PC Card 16, 4.5. */
#ifndef APMOFF_PCI_H
#define APMOFF_PCI_H

#include <stdint.h>

/* Dword registers of every header, and the bytes in them. */
#define PCI_ID              0x00    /* vendor (bits 0-15), device (16-31) */
#define PCI_CLASS_REV       0x08    /* revision, prog-if, subclass, class (low to high) */
#define PCI_HEADER_DWORD    0x0C    /* header type in bits 16-23 */
#define PCI_BUSES           0x18    /* types 1 and 2: primary, secondary (19h), subordinate */
#define PCI_SUBSYS_TYPE0    0x2C    /* subsystem vendor (bits 0-15), subsystem (16-31) */
#define PCI_INTERRUPT       0x3C    /* line (3Ch), pin (3Dh) */
#define PCI_SUBSYS_CARDBUS  0x40    /* type 2 */

#define PCI_HEADER_MULTI    0x80    /* header type bit 7: functions 1-7 may exist */
#define PCI_HEADER_MASK     0x7F
#define PCI_HEADER_NORMAL   0
#define PCI_HEADER_BRIDGE   1
#define PCI_HEADER_CARDBUS  2

#define PCI_VENDOR_NONE     0xFFFFu /* what an empty slot's vendor register reads */
#define PCI_VENDOR_INTEL    0x8086u
#define PCI_VENDOR_COMPAQ   0x0E11u

#define PCI_CLASS_DISPLAY   0x03
#define PCI_CLASS_BRIDGE    0x06
#define PCI_SUB_VGA         0x00    /* of PCI_CLASS_DISPLAY */
#define PCI_SUB_HOST        0x00    /* of PCI_CLASS_BRIDGE */
#define PCI_SUB_ISA         0x01

#define PCI_BUSES_MAX       256
#define PCI_DEVICES         32      /* per bus, mechanism #1 */
#define PCI_FUNCTIONS       8
#define PCI_MECH2_DEVICES   16      /* #2 has 4 address bits for the device */

/* Mechanism #1 (PCI 2.1, 3.7.4.1): the dword written to PCI_CONFIG_ADDRESS. Bit 31
 * enables, bits 23-16 bus, 15-11 device, 10-8 function, 7-2 register. */
#define PCI_CONF1_ENABLE    0x80000000u

static inline uint32_t pci_conf1_address(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    return PCI_CONF1_ENABLE | (uint32_t)bus << 16 | (uint32_t)(dev & 31) << 11 |
           (uint32_t)(fn & 7) << 8 | (reg & 0xFCu);
}

/* Mechanism #2 (PCI 2.0, 3.7.4.2): the CSE byte holds a non-zero key in bits 7-4 and
 * the function in bits 3-1 (bit 0, special cycles, stays 0); 0 turns the window off.
 * With it on, device dev's register reg is the port below. */
#define PCI_MECH2_KEY       0xF0u

static inline uint8_t pci_conf2_cse(uint8_t fn)
{
    return (uint8_t)(PCI_MECH2_KEY | (fn & 7) << 1);
}

static inline uint16_t pci_conf2_port(uint16_t base, uint8_t dev, uint8_t reg)
{
    return (uint16_t)(base | (dev & 15) << 8 | (reg & 0xFCu));
}

/* A way to read configuration space, one dword at a time (reg a multiple of 4). A
 * function that is not there reads FFFFFFFFh, as on the bus. */
struct pci_access {
    uint32_t (*read32)(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg);
    void *ctx;
};

#endif
