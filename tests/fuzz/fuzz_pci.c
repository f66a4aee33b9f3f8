/* libFuzzer target: survey/pci.c and survey/chipset.c over a hostile bus.
 *
 * Byte 0 is the PCI BIOS's last bus; the rest is configuration space, 0x44 bytes a
 * function (the registers the walker reads, CardBus's 40h included), function
 * (bus, dev, fn) at slot (bus * 256 + dev * 8 + fn) mod the number of slots, so every
 * bus number a bridge names has contents and loops come easily. Registers past 43h
 * read FFFFFFFFh, as does everything when there is no slot. The walk must stay
 * within its bounds whatever the bytes say. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../survey/chipset.h"

#define SLOT    0x44u

struct space {
    const uint8_t *p;
    size_t slots;
    unsigned long reads;
};

static uint32_t read32(void *ctx, uint8_t bus, uint8_t dev, uint8_t fn, uint8_t reg)
{
    struct space *s = ctx;
    s->reads++;
    if (dev >= 32 || fn >= 8 || (reg & 3))
        abort();
    if (!s->slots || reg >= SLOT)
        return 0xFFFFFFFFu;
    const uint8_t *q = s->p + ((bus * 256u + dev * 8u + fn) % s->slots) * SLOT + reg;
    return q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct pci_survey sv;
    struct chipset_verdict v;

    if (size < 1)
        return 0;
    size_t n = size - 1;
    uint8_t *m = malloc(n ? n : 1);     /* exactly the input: ASan sees any overrun */
    memcpy(m, data + 1, n);
    struct space s = { m, n / SLOT, 0 };
    struct pci_access acc = { read32, &s };

    memset(&sv, 0xA5, sizeof(sv));
    sv.mech = PCI_MECH_1;
    pci_walk(&acc, data[0], &sv);
    if (sv.count > PCI_MAX_FUNCTIONS || sv.buses > PCI_BUSES_MAX ||
        (sv.truncated && sv.count != PCI_MAX_FUNCTIONS))
        abort();
    /* Every bus at most once: 32 ID reads a bus, at most 8 functions a device with
     * 5 more reads each. */
    if (s.reads > PCI_BUSES_MAX * PCI_DEVICES * (1 + 8 * 6ul))
        abort();
    for (unsigned i = 0; i < sv.count; i++) {
        const struct pci_function *f = &sv.fn[i];
        if (f->dev >= 32 || f->fn >= 8 || f->vendor == 0xFFFF || f->vendor == 0)
            abort();
        for (unsigned j = 0; j < i; j++)
            if (sv.fn[j].bus == f->bus && sv.fn[j].dev == f->dev && sv.fn[j].fn == f->fn)
                abort();
        (void)pci_class_name(f->class_code);
    }
    chipset_identify(&sv, &v);
    if (v.soft_off > SOFT_OFF_NO || strnlen(v.name, sizeof(v.name)) >= sizeof(v.name) ||
        strnlen(v.explain, sizeof(v.explain)) >= sizeof(v.explain))
        abort();
    free(m);
    return 0;
}
