/* Which reset methods the machine offers: see reset_offer.h. Also compiled on the
 * host for the unit tests. */
#include "offer.h"
#include "../../lib/format.h"
#include "../../lib/acpi_pm1.h"

#define FADT_RESET_REVISION 2   /* RESET_REG came with ACPI 2.0's FADT */
#define FOUR_GIB 0x100000000ull

static const char *made(struct reset_offer *o, enum reset_method m, const char *fmt,
                        const char *a, const char *b)
{
    fmt_snprintf(o->text[m], RESET_WHY_MAX, fmt, a, b);
    return o->text[m];
}

/* reset=pci and reset=port92: what the chipset table says of the board. */
static const char *chipset_says(struct reset_offer *o, const struct reset_facts *f,
                                enum reset_method m)
{
    const struct chipset_verdict *cs = f->chipset;
    bool cf9 = m == RESET_PCI;
    const char *what = cf9 ? "reset control register at CF9h" : "port 92h";

    if (f->isa || !cs)
        return made(o, m, cf9 ? "ISA machine: no %s known here%s"
                              : "ISA machine: %s is not known here%s", what,
                    cf9 ? "" : " (on some old boards 92h is another device)");
    enum chipset_fact fact = cf9 ? cs->reset_cf9 : cs->port92;
    const char *by = cf9 ? cs->reset_cf9_by : cs->port92_by;
    if (fact == FACT_YES)
        return 0;
    if (fact == FACT_NO)
        return made(o, m, "the %s has no %s", by, what);
    return made(o, m, cf9 ? "%s: not known to have a %s" : "%s: not known to have %s",
                cs->name[0] ? cs->name : "a chipset not in apmoff's table", what);
}

/* reset=acpi: the FADT's RESET_REG, as Linux's acpi_reboot() takes it. */
static const char *fadt_says(struct reset_offer *o, const struct reset_facts *f)
{
    const struct acpi_fadt *fadt = f->fadt;
    char rev[24];

    if (!fadt || !fadt->length)
        return made(o, RESET_ACPI, "no ACPI reset register: %s",
                    f->no_fadt ? f->no_fadt : "no FADT", 0);
    if (fadt->revision < FADT_RESET_REVISION) {
        fmt_snprintf(rev, sizeof(rev), "%u", fadt->revision);
        return made(o, RESET_ACPI, "no ACPI reset register: FADT revision %s", rev, 0);
    }
    if (!fadt->have_reset)
        return "no ACPI reset register: the FADT ends before RESET_REG";
    if (!(fadt->flags & ACPI_FADT_RESET_REG_SUP))
        return "no ACPI reset register: the FADT's RESET_REG_SUP flag is clear";
    const struct acpi_gas *g = &fadt->reset_reg;
    if (!g->addr)
        return "no ACPI reset register: RESET_REG's address is 0";
    switch (g->space) {
    case ACPI_SPACE_IO:
        if (g->addr > 0xFFFF)
            return "the ACPI reset register lies above I/O port FFFFh";
        break;
    case ACPI_SPACE_MEMORY:
        if (g->addr >= FOUR_GIB)
            return "the ACPI reset register lies above 4 GiB";
        break;
    case ACPI_SPACE_PCI_CONFIG:
        if (!ACPI_GAS_PCI_VALID(g->addr))
            return "the ACPI reset register's PCI address names no function of bus 0";
        if (f->isa)
            return "the ACPI reset register is in PCI configuration space, and no PCI "
                   "mechanism answers";
        break;
    default:
        fmt_snprintf(rev, sizeof(rev), "%u", g->space);
        return made(o, RESET_ACPI, "the ACPI reset register is in address space %s, "
                    "which apmoff does not write", rev, 0);
    }
    o->acpi_space = g->space;
    o->acpi_addr = g->addr;
    o->acpi_value = fadt->reset_value;
    return 0;
}

void reset_offer_find(const struct reset_facts *f, struct reset_offer *o)
{
    char status[8];

    *o = (struct reset_offer){ .kbc_status = f->kbc_status, .pci_mech = f->pci_mech };
    fmt_snprintf(status, sizeof(status), "%02Xh", f->kbc_status);
    o->why[RESET_KBD] = f->kbc ? 0 : made(o, RESET_KBD, "no 8042: its status port 64h "
                                          "reads %s", status, 0);
    o->why[RESET_PCI] = chipset_says(o, f, RESET_PCI);
    o->why[RESET_PORT92] = chipset_says(o, f, RESET_PORT92);
    o->why[RESET_ACPI] = fadt_says(o, f);
    o->why[RESET_EFI] = f->efi_why ? made(o, RESET_EFI, "no UEFI ResetSystem: %s",
                                          f->efi_why, 0) : 0;
    o->why[RESET_TRIPLE] = 0;
    o->why[RESET_BIOS] = f->bios_why ? made(o, RESET_BIOS, "no BIOS reset entry: %s",
                                            f->bios_why, 0) : 0;
}

void reset_offer_acpi_text(const struct reset_offer *o, char *buf, unsigned size)
{
    uint64_t a = o->acpi_addr;

    if (o->acpi_space == ACPI_SPACE_IO)
        fmt_snprintf(buf, size, "io:%04X=%02X", (unsigned)a, o->acpi_value);
    else if (o->acpi_space == ACPI_SPACE_MEMORY)
        fmt_snprintf(buf, size, "mem:%08X=%02X", (unsigned)a, o->acpi_value);
    else
        fmt_snprintf(buf, size, "pci:00:%02X.%u:%02X=%02X", ACPI_GAS_PCI_DEVICE(a),
                     ACPI_GAS_PCI_FUNCTION(a), ACPI_GAS_PCI_REGISTER(a), o->acpi_value);
}

void reset_offer_describe(const struct reset_offer *o, enum reset_method m, bool cold,
                          char *buf, unsigned size)
{
    char reg[40];

    switch (m) {
    case RESET_KBD:
        fmt_snprintf(buf, size, "8042 command FEh");
        break;
    case RESET_PCI:
        fmt_snprintf(buf, size, "reset control register CF9h: 02h, then 06h");
        break;
    case RESET_PORT92:
        fmt_snprintf(buf, size, "port 92h fast-reset bit 0");
        break;
    case RESET_ACPI:
        if (o->acpi_space == ACPI_SPACE_IO)
            fmt_snprintf(reg, sizeof(reg), "I/O port %Xh", (unsigned)o->acpi_addr);
        else if (o->acpi_space == ACPI_SPACE_MEMORY)
            fmt_snprintf(reg, sizeof(reg), "memory %08Xh", (unsigned)o->acpi_addr);
        else
            fmt_snprintf(reg, sizeof(reg), "PCI 00:%02X.%u register %02Xh",
                         ACPI_GAS_PCI_DEVICE(o->acpi_addr),
                         ACPI_GAS_PCI_FUNCTION(o->acpi_addr),
                         ACPI_GAS_PCI_REGISTER(o->acpi_addr));
        fmt_snprintf(buf, size, "FADT RESET_REG: %02Xh to %s", o->acpi_value, reg);
        break;
    case RESET_EFI:
        fmt_snprintf(buf, size, "UEFI ResetSystem, %s", cold ? "EfiResetCold" : "EfiResetWarm");
        break;
    case RESET_TRIPLE:
        fmt_snprintf(buf, size, "an empty IDT and INT3: a triple fault");
        break;
    case RESET_BIOS:
        fmt_snprintf(buf, size, "a jump to F000:FFF0 from real mode");
        break;
    default:
        fmt_snprintf(buf, size, "?");
        break;
    }
}

unsigned reset_offer_list(const struct reset_offer *o, const char *sep, char *buf,
                          unsigned size)
{
    unsigned n = 0;

    if (size)
        buf[0] = '\0';
    for (int m = RESET_NONE + 1; m < RESET_COUNT; m++)
        if (!o->why[m] && n < size)
            n += (unsigned)fmt_snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                        reset_method_name((enum reset_method)m));
    return n;
}

void reset_offer_json(struct json *j, const struct reset_offer *o)
{
    char here[64], reg[40];

    reset_offer_list(o, ",", here, sizeof(here));
    json_string(j, "reset", here);
    if (!o->why[RESET_ACPI]) {
        reset_offer_acpi_text(o, reg, sizeof(reg));
        json_string(j, "reset_acpi", reg);
    }
}
