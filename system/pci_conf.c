/* PCI configuration mechanisms #1 and #2: see pci_conf.h. */
#include "pci_conf.h"
#include "io.h"
#include "../lib/pc.h"

static uint32_t conf1_read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    (void)ctx;
    outl(PCI_CONFIG_ADDRESS, pci_conf1_address(bus, dev, fn, reg));
    return inl(PCI_CONFIG_DATA);
}

/* The window is opened for one read and closed again (CSE 0), so no later port access
 * in C000h-CFFFh lands in configuration space. */
static uint32_t conf2_read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    (void)ctx;
    if (dev >= PCI_MECH2_DEVICES)
        return 0xFFFFFFFFu;
    outb(PCI_MECH2_CSE, pci_conf2_cse(fn));
    outb(PCI_MECH2_FORWARD, bus);
    uint32_t v = inl(pci_conf2_port(PCI_MECH2_BASE, dev, reg));
    outb(PCI_MECH2_CSE, 0);
    return v;
}

/* The port a byte, word or dword at reg goes through, the window opened. */
static bool open_window(unsigned mech, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t reg,
                        unsigned bytes, uint16_t *port)
{
    if (reg > 0xFF || (bytes != 1 && bytes != 2 && bytes != 4) || (reg & 3) + bytes > 4)
        return false;
    if (mech == 1) {
        outl(PCI_CONFIG_ADDRESS, pci_conf1_address(bus, dev, fn, (uint8_t)reg));
        *port = (uint16_t)(PCI_CONFIG_DATA + (reg & 3));
        return true;
    }
    if (mech != 2 || dev >= PCI_MECH2_DEVICES)
        return false;
    outb(PCI_MECH2_CSE, pci_conf2_cse(fn));
    outb(PCI_MECH2_FORWARD, bus);
    *port = (uint16_t)(pci_conf2_port(PCI_MECH2_BASE, dev, (uint8_t)reg) + (reg & 3));
    return true;
}

bool pci_conf_read(unsigned mech, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t reg,
                   unsigned bytes, uint32_t *v)
{
    uint16_t port;

    if (!open_window(mech, bus, dev, fn, reg, bytes, &port))
        return false;
    *v = bytes == 1 ? inb(port) : bytes == 2 ? inw(port) : inl(port);
    if (mech == 2)
        outb(PCI_MECH2_CSE, 0);
    return true;
}

bool pci_conf_write(unsigned mech, uint8_t bus, uint8_t dev, uint8_t fn, uint16_t reg,
                    unsigned bytes, uint32_t v)
{
    uint16_t port;

    if (!open_window(mech, bus, dev, fn, reg, bytes, &port))
        return false;
    if (bytes == 1)
        outb(port, (uint8_t)v);
    else if (bytes == 2)
        outw(port, (uint16_t)v);
    else
        outl(port, v);
    if (mech == 2)
        outb(PCI_MECH2_CSE, 0);
    return true;
}

struct pci_access pci_conf_access(unsigned mech)
{
    return (struct pci_access){ mech == 1 ? conf1_read32 : mech == 2 ? conf2_read32 : 0, 0 };
}

/* Linux's pci_sanity_check(): a latch at CF8h proves nothing by itself (some ISA
 * cards decode it); a real bus 0 has a host bridge, a VGA device, or, on boards whose
 * host bridge has no class code, an Intel or Compaq function. */
static bool bus0_sane(unsigned mech)
{
    struct pci_access a = pci_conf_access(mech);
    for (uint8_t dev = 0; dev < PCI_DEVICES; dev++)
        for (uint8_t fn = 0; fn < PCI_FUNCTIONS; fn++) {
            uint32_t id = a.read32(0, 0, dev, fn, PCI_ID);
            uint16_t class = (uint16_t)(a.read32(0, 0, dev, fn, PCI_CLASS_REV) >> 16);
            if (class == (PCI_CLASS_BRIDGE << 8 | PCI_SUB_HOST) ||
                class == (PCI_CLASS_DISPLAY << 8 | PCI_SUB_VGA) ||
                (uint16_t)id == PCI_VENDOR_INTEL || (uint16_t)id == PCI_VENDOR_COMPAQ)
                return true;
        }
    return false;
}

/* pci_check_type1(): bit 31 of CF8h must read back as written (an ISA machine's
 * floating bus reads FFh bytes); the dword found there is put back either way. */
bool pci_conf1_works(void)
{
    outb(PCI_MECH_SELECT, 0x01);
    uint32_t saved = inl(PCI_CONFIG_ADDRESS);
    outl(PCI_CONFIG_ADDRESS, PCI_CONF1_ENABLE);
    bool ok = inl(PCI_CONFIG_ADDRESS) == PCI_CONF1_ENABLE && bus0_sane(1);
    outl(PCI_CONFIG_ADDRESS, saved);
    return ok;
}

/* pci_check_type2(): CSE and the forward register both read back 0 after 0 is
 * written (the window closed, which is also the state to leave). */
bool pci_conf2_works(void)
{
    outb(PCI_MECH_SELECT, 0x00);
    outb(PCI_MECH2_CSE, 0x00);
    outb(PCI_MECH2_FORWARD, 0x00);
    return inb(PCI_MECH2_CSE) == 0x00 && inb(PCI_MECH2_FORWARD) == 0x00 && bus0_sane(2);
}

unsigned pci_conf_detect(uint8_t bios_mechs)
{
    bool try1 = !bios_mechs || (bios_mechs & 0x01);
    bool try2 = !bios_mechs || (bios_mechs & 0x02);
    if (try1 && pci_conf1_works())
        return 1;
    if (try2 && pci_conf2_works())
        return 2;
    return 0;
}
