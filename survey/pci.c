/* The PCI bus walk: see pci.h. */
#include "pci.h"

static const char *const class_names[] = {
    "unclassified", "mass storage", "network", "display", "multimedia", "memory",
    "bridge", "communication", "system peripheral", "input", "docking station",
    "processor", "serial bus", "wireless", "intelligent I/O", "satellite",
    "encryption", "signal processing", "processing accelerator",
};

const char *pci_class_name(uint8_t class_code)
{
    if (class_code < sizeof(class_names) / sizeof(class_names[0]))
        return class_names[class_code];
    return class_code == 0xFF ? "unassigned" : "other";
}

const struct pci_function *pci_find(const struct pci_survey *sv, uint16_t vendor,
                                    uint16_t device)
{
    for (unsigned i = 0; i < sv->count && i < PCI_MAX_FUNCTIONS; i++)
        if (sv->fn[i].vendor == vendor && sv->fn[i].device == device)
            return &sv->fn[i];
    return 0;
}

/* Buses found (bus 0, bridges' secondary buses, the BIOS's up to its last) and buses
 * walked, a bit each: every bus is walked at most once, lowest pending first. */
struct walk {
    const struct pci_access *acc;
    struct pci_survey *sv;
    uint8_t pending[PCI_BUSES_MAX / 8], walked[PCI_BUSES_MAX / 8];
};

static void enqueue(struct walk *w, uint8_t bus)
{
    w->pending[bus >> 3] |= (uint8_t)(1u << (bus & 7));
}

static uint32_t rd(const struct walk *w, const struct pci_function *f, uint8_t reg)
{
    return w->acc->read32(w->acc->ctx, f->bus, f->dev, f->fn, reg);
}

/* Reads one present function into the next slot; false when there is none left. */
static bool record(struct walk *w, uint8_t bus, uint8_t dev, uint8_t fn, uint32_t id)
{
    struct pci_survey *sv = w->sv;
    if (sv->count >= PCI_MAX_FUNCTIONS) {
        sv->truncated = true;
        return false;
    }
    struct pci_function *f = &sv->fn[sv->count++];
    *f = (struct pci_function){ .bus = bus, .dev = dev, .fn = fn };
    f->vendor = (uint16_t)id;
    f->device = (uint16_t)(id >> 16);
    uint32_t cr = rd(w, f, PCI_CLASS_REV);
    f->revision = (uint8_t)cr;
    f->prog_if = (uint8_t)(cr >> 8);
    f->subclass = (uint8_t)(cr >> 16);
    f->class_code = (uint8_t)(cr >> 24);
    f->header_type = (uint8_t)(rd(w, f, PCI_HEADER_DWORD) >> 16);
    uint32_t irq = rd(w, f, PCI_INTERRUPT);
    f->irq_line = (uint8_t)irq;
    f->irq_pin = (uint8_t)(irq >> 8);

    uint8_t layout = f->header_type & PCI_HEADER_MASK;
    uint32_t sub = 0;
    if (layout == PCI_HEADER_NORMAL)
        sub = rd(w, f, PCI_SUBSYS_TYPE0);
    else if (layout == PCI_HEADER_CARDBUS)
        sub = rd(w, f, PCI_SUBSYS_CARDBUS);
    f->sub_vendor = (uint16_t)sub;
    f->sub_device = (uint16_t)(sub >> 16);
    if (layout == PCI_HEADER_BRIDGE || layout == PCI_HEADER_CARDBUS) {
        f->secondary_bus = (uint8_t)(rd(w, f, PCI_BUSES) >> 8);
        enqueue(w, f->secondary_bus);
    }
    return true;
}

static bool present(uint32_t id)
{
    uint16_t vendor = (uint16_t)id;
    return vendor != PCI_VENDOR_NONE && vendor != 0;
}

/* False when fn[] is full. */
static bool walk_bus(struct walk *w, uint8_t bus)
{
    for (uint8_t dev = 0; dev < PCI_DEVICES; dev++) {
        uint32_t id = w->acc->read32(w->acc->ctx, bus, dev, 0, PCI_ID);
        if (!present(id))
            continue;
        if (!record(w, bus, dev, 0, id))
            return false;
        if (!(w->sv->fn[w->sv->count - 1].header_type & PCI_HEADER_MULTI))
            continue;
        for (uint8_t fn = 1; fn < PCI_FUNCTIONS; fn++) {
            id = w->acc->read32(w->acc->ctx, bus, dev, fn, PCI_ID);
            if (present(id) && !record(w, bus, dev, fn, id))
                return false;
        }
    }
    return true;
}

void pci_walk(const struct pci_access *acc, uint8_t last_bus, struct pci_survey *sv)
{
    struct walk w = { .acc = acc, .sv = sv };
    sv->buses = 0;
    sv->count = 0;
    sv->truncated = false;
    if (!acc || !acc->read32)
        return;
    for (unsigned bus = 0; bus <= last_bus; bus++)
        enqueue(&w, (uint8_t)bus);
    for (unsigned bus = 0; bus < PCI_BUSES_MAX;) {
        uint8_t bit = (uint8_t)(1u << (bus & 7));
        if (!(w.pending[bus >> 3] & bit) || (w.walked[bus >> 3] & bit)) {
            bus++;
            continue;
        }
        w.walked[bus >> 3] |= bit;
        sv->buses++;
        if (!walk_bus(&w, (uint8_t)bus))
            return;
        bus = 0;                        /* a bridge may have named a lower bus */
    }
}
