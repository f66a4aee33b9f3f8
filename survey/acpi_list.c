/* The tables a dump archives: see acpi_list.h. */
#include "acpi_list.h"
#include "acpi_tables.h"
#include "../lib/le.h"
#include "../lib/string.h"

static void add(struct acpi_list *out, const struct physmem *pm, uint64_t addr,
                const char *want)
{
    if (!addr || addr >= PHYSMEM_4G || !physmem_ok(pm, addr, ACPI_HEADER_LEN)) {
        out->skipped++;
        return;
    }
    for (unsigned i = 0; i < out->count; i++)
        if (out->table[i].addr == (uint32_t)addr)
            return;                         /* the RSDT and XSDT list the same tables */
    const uint8_t *p = physmem_at(pm, addr);
    /* The FACS has a signature and a length but no standard header after them. */
    uint32_t length = le32(p + 4);
    uint32_t least = want && !memcmp(want, "FACS", 4) ? 64 : ACPI_HEADER_LEN;
    if (length < least || length > ACPI_AML_LEN_MAX || !physmem_ok(pm, addr, length) ||
        out->count == ACPI_LIST_MAX) {
        out->skipped++;
        return;
    }
    if (want && memcmp(p, want, 4)) {
        out->skipped++;
        return;
    }
    struct acpi_listed *t = &out->table[out->count++];
    for (unsigned i = 0; i < 4; i++)
        t->sig[i] = (char)(p[i] >= 0x20 && p[i] < 0x7F ? p[i] : '?');
    t->sig[4] = 0;
    t->addr = (uint32_t)addr;
    t->length = length;
}

/* The DSDT (X_DSDT first) and FACS (X_FIRMWARE_CTRL first) of the FADT at i. */
static void fadt_pointers(struct acpi_list *out, const struct physmem *pm, unsigned i)
{
    const uint8_t *f = physmem_at(pm, out->table[i].addr);
    uint32_t len = out->table[i].length;
    uint64_t facs = le32(f + 36), dsdt = le32(f + 40);
    if (len >= 140 + 8) {
        uint64_t x_facs = le64(f + 132), x_dsdt = le64(f + 140);
        facs = x_facs ? x_facs : facs;
        dsdt = x_dsdt ? x_dsdt : dsdt;
    }
    if (dsdt)
        add(out, pm, dsdt, "DSDT");
    if (facs)
        add(out, pm, facs, "FACS");
}

void acpi_list(struct acpi_list *out, const struct physmem *pm, const struct acpi_rsdp *rsdp)
{
    out->count = out->skipped = 0;
    if (!rsdp->addr || !physmem_ok(pm, rsdp->addr, ACPI_RSDP_V1_LEN))
        return;
    struct acpi_listed *r = &out->table[out->count++];
    r->sig[0] = 'R', r->sig[1] = 'S', r->sig[2] = 'D', r->sig[3] = 'P', r->sig[4] = 0;
    r->addr = rsdp->addr;
    r->length = rsdp->revision >= 2 && rsdp->length >= ACPI_RSDP_LEN_MIN &&
                rsdp->length <= ACPI_RSDP_LEN_MAX ? rsdp->length : ACPI_RSDP_V1_LEN;

    unsigned roots = out->count;
    if (rsdp->have_xsdt)
        add(out, pm, rsdp->xsdt_addr, "XSDT");
    if (rsdp->rsdt_addr)
        add(out, pm, rsdp->rsdt_addr, "RSDT");
    unsigned end_roots = out->count;
    for (unsigned k = roots; k < end_roots; k++) {
        const uint8_t *p = physmem_at(pm, out->table[k].addr);
        unsigned width = p[0] == 'X' ? 8 : 4;
        unsigned n = (out->table[k].length - ACPI_HEADER_LEN) / width;
        if (n > ACPI_ROOT_LIST_ENTRIES) {
            out->skipped += n - ACPI_ROOT_LIST_ENTRIES;
            n = ACPI_ROOT_LIST_ENTRIES;
        }
        for (unsigned e = 0; e < n; e++) {
            const uint8_t *at = p + ACPI_HEADER_LEN + e * width;
            add(out, pm, width == 8 ? le64(at) : le32(at), 0);
        }
    }
    unsigned listed = out->count;
    for (unsigned i = end_roots; i < listed; i++)
        if (!memcmp(out->table[i].sig, "FACP", 4))
            fadt_pointers(out, pm, i);
}
