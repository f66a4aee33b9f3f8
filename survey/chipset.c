/* The chipset table and the soft-off verdict: see chipset.h.
 *
 * Every ID below is in the pci.ids database (Debian's pci.ids package) under the name
 * the row gives, or, where a row's comment says so, in 86Box's model of the chip only.
 * A row's soft-off column rests on the datasheet named in its comment;
 * the Linux function named beside some rows (drivers/pci/quirks.c) is one that knows
 * the same function as the home of the ACPI/power-management I/O block. */
#include "chipset.h"
#include "../lib/string.h"

enum role {
    ROLE_HOST,                  /* host bridge: names the chipset */
    ROLE_SOUTH,                 /* PCI-to-ISA/LPC bridge */
    ROLE_PM,                    /* a separate power-management function */
};

/* Eight bytes a row: the kernel must stay small. */
struct chip {
    uint16_t device;
    uint8_t vendor;             /* index in vendor_ids[] */
    uint8_t role : 2, soft_off : 2;     /* enum role, enum chipset_soft_off */
    uint8_t cf9 : 2, port92 : 2;        /* enum chipset_fact: the resets it has */
    const char *name;
};
_Static_assert((int)SOFT_OFF_UNKNOWN == (int)FACT_UNKNOWN && (int)SOFT_OFF_YES == (int)FACT_YES &&
               (int)SOFT_OFF_NO == (int)FACT_NO, "one encoding for the table's columns");

/* ACER: Acer Labs' first ID, before ALi's own (10B9). */
enum { INTEL, VIA, SIS, ALI, AMD, UMC, SMSC, ACER, IMS, OPTI, ST, WEITEK, VLSI };
static const uint16_t vendor_ids[] = {
    [INTEL] = 0x8086, [VIA] = 0x1106, [SIS] = 0x1039, [ALI] = 0x10B9, [AMD] = 0x1022,
    [UMC] = 0x1060, [SMSC] = 0x1055, [ACER] = 0x1025, [IMS] = 0x10E0, [OPTI] = 0x1045,
    [ST] = 0x104A, [WEITEK] = 0x100E, [VLSI] = 0x1004,
};

/* The columns: soft-off, then the reset control register at CF9h and port 92h's
 * fast-reset bit (reset=pci and reset=port92 are tried only where a row says YES).
 * Intel's south bridges have both: the PIIX and PIIX3 (290550: RC at CF9h, Port 92h),
 * the PIIX4 (290562: the same), the ICH family (RST_CNT at CF9h; port 92h's bit 0,
 * INIT_NOW); the 430LX/NX host bridge has CF9h too (the 82434LX/NX PCMC's TRC, beside
 * the SIO's port 92h). VIA's south bridges have port 92h (VT82C586B and on: System
 * Control, fast reset); their CF9h is not known here, nor are SiS's and ALi's. */
#define ROW(v, d, role, off, cf9, p92, name) \
    { d, v, ROLE_##role, SOFT_OFF_##off, FACT_##cf9, FACT_##p92, name }
#define HOST(v, d, name)        ROW(v, d, HOST, UNKNOWN, UNKNOWN, UNKNOWN, name)
#define SOUTH(v, d, off, name)  ROW(v, d, SOUTH, off, UNKNOWN, UNKNOWN, name)
#define INTEL_SB(d, off, name)  ROW(INTEL, d, SOUTH, off, YES, YES, name)
#define VIA_SB(d, off, name)    ROW(VIA, d, SOUTH, off, UNKNOWN, YES, name)
#define PM(v, d, name)          ROW(v, d, PM, YES, UNKNOWN, UNKNOWN, name)

static const struct chip chips[] = {
    /* Intel host bridges (the north bridges' datasheets; names only). */
    ROW(INTEL, 0x04A3, HOST, UNKNOWN, YES, UNKNOWN, "Intel 430LX/NX"),
                                                /* 82434LX/NX PCMC (Mercury/Neptune):
                                                   TRC, the turbo-reset control, at
                                                   CF9h */
    HOST(INTEL, 0x0483, "Intel 420TX/ZX"),      /* 82424TX/ZX CDC (Saturn) */
    ROW(INTEL, 0x0486, HOST, NO, UNKNOWN, UNKNOWN, "Intel 420EX"),
                                                /* 82425EX PSC with its 82426EX ISA
                                                   bridge, no PCI function of its own:
                                                   SMM, no power-off (the 486 era's AT
                                                   supplies; 86Box's model has none) */
    HOST(INTEL, 0x122D, "Intel 430FX"),         /* 82437FX TSC (Triton) */
    HOST(INTEL, 0x1235, "Intel 430MX"),         /* 82437MX MTSC */
    HOST(INTEL, 0x1250, "Intel 430HX"),         /* 82439HX TXC */
    HOST(INTEL, 0x7030, "Intel 430VX"),         /* 82437VX TVX */
    HOST(INTEL, 0x7100, "Intel 430TX"),         /* 82439TX MTXC */
    HOST(INTEL, 0x1237, "Intel 440FX"),         /* 82441FX PMC (Natoma) */
    HOST(INTEL, 0x84C4, "Intel 450KX/GX"),      /* 82454KX/GX PB (Orion) */
    HOST(INTEL, 0x7180, "Intel 440LX/EX"),      /* 82443LX/EX PAC */
    HOST(INTEL, 0x7190, "Intel 440BX/ZX"),      /* 82443BX/ZX/DX */
    HOST(INTEL, 0x7192, "Intel 440BX/ZX"),      /* the same, AGP disabled */
    HOST(INTEL, 0x71A0, "Intel 440GX"),         /* 82443GX */
    HOST(INTEL, 0x7194, "Intel 440MX"),         /* 82440MX */
    HOST(INTEL, 0x7120, "Intel 810"),           /* 82810 GMCH */
    HOST(INTEL, 0x1130, "Intel 815"),           /* 82815 GMCH */
    HOST(INTEL, 0x29C0, "Intel G33/P35"),       /* 82G33/P35 MCH (QEMU's q35) */

    /* Intel south bridges. */
    ROW(INTEL, 0x0484, SOUTH, NO, UNKNOWN, YES, "SIO"),
                                                /* 82378ZB SIO / 82379AB SIO.A: SMI and
                                                   APM registers, no suspend-off state */
    SOUTH(INTEL, 0x0482, NO, "PCEB"),           /* 82375EB/SB PCEB (EISA, with the
                                                   82374 ESC): no power control */
    INTEL_SB(0x122E, NO, "PIIX"),               /* 82371FB PIIX datasheet (290550): SMI
                                                   and APMC/APMS only, no soft-off */
    INTEL_SB(0x7000, NO, "PIIX3"),              /* 82371SB PIIX3, same datasheet: no
                                                   soft-off */
    INTEL_SB(0x7110, YES, "PIIX4"),             /* 82371AB/EB/MB PIIX4 datasheet
                                                   (290562): PMCNTRL SUS_TYP/SUS_EN */
    PM(INTEL, 0x7113, "PIIX4 PM"),/* its function 3; quirk_piix4_acpi */
    PM(INTEL, 0x719B, "440MX PM"),/* 82440MX, PIIX4-like; quirk_piix4_acpi */
    /* ICH family, LPC bridge (function 0 holds PMBASE): the 82801 datasheets'
     * PM1_CNT SLP_TYP (S5 = soft-off); quirk_ich4_lpc_acpi, quirk_ich6_lpc. */
    INTEL_SB(0x2410, YES, "ICH"),               /* 82801AA */
    INTEL_SB(0x2420, YES, "ICH0"),              /* 82801AB */
    INTEL_SB(0x2440, YES, "ICH2"),              /* 82801BA */
    INTEL_SB(0x244C, YES, "ICH2"),              /* 82801BAM */
    INTEL_SB(0x2450, YES, "C-ICH"),             /* 82801E */
    INTEL_SB(0x2480, YES, "ICH3"),              /* 82801CA */
    INTEL_SB(0x248C, YES, "ICH3"),              /* 82801CAM */
    INTEL_SB(0x24C0, YES, "ICH4"),              /* 82801DB/DBL */
    INTEL_SB(0x24CC, YES, "ICH4"),              /* 82801DBM */
    INTEL_SB(0x24D0, YES, "ICH5"),              /* 82801EB/ER */
    INTEL_SB(0x24DC, YES, "ICH5"),              /* 82801EB */
    INTEL_SB(0x25A1, YES, "6300ESB"),
    INTEL_SB(0x2640, YES, "ICH6"),              /* 82801FB/FR */
    INTEL_SB(0x2641, YES, "ICH6"),              /* 82801FBM */
    INTEL_SB(0x2642, YES, "ICH6"),              /* 82801FW/FRW */
    INTEL_SB(0x27B0, YES, "ICH7"),              /* 82801GH */
    INTEL_SB(0x27B8, YES, "ICH7"),              /* 82801GB/GR */
    INTEL_SB(0x27B9, YES, "ICH7"),              /* 82801GBM */
    INTEL_SB(0x27BD, YES, "ICH7"),              /* 82801GHM */
    INTEL_SB(0x2810, YES, "ICH8"),              /* 82801HB/HR */
    INTEL_SB(0x2811, YES, "ICH8"),              /* 82801HEM */
    INTEL_SB(0x2812, YES, "ICH8"),              /* 82801HH */
    INTEL_SB(0x2814, YES, "ICH8"),              /* 82801HO */
    INTEL_SB(0x2815, YES, "ICH8"),              /* 82801HM */
    INTEL_SB(0x2912, YES, "ICH9"),              /* 82801IH */
    INTEL_SB(0x2914, YES, "ICH9"),              /* 82801IO */
    INTEL_SB(0x2916, YES, "ICH9"),              /* 82801IR */
    INTEL_SB(0x2917, YES, "ICH9"),
    INTEL_SB(0x2918, YES, "ICH9"),              /* 82801IB (QEMU's q35) */
    INTEL_SB(0x2919, YES, "ICH9"),

    /* VIA (the VT82C5xx/VT82C6xx/VT823x datasheets). */
    HOST(VIA, 0x0585, "VIA Apollo VP/VPX"),     /* VT82C585VP */
    HOST(VIA, 0x0595, "VIA Apollo VP2"),        /* VT82C595 */
    HOST(VIA, 0x0597, "VIA Apollo VP3"),        /* VT82C597 */
    HOST(VIA, 0x0598, "VIA Apollo MVP3"),       /* VT82C598 */
    HOST(VIA, 0x0501, "VIA Apollo MVP4"),       /* VT8501 */
    HOST(VIA, 0x0691, "VIA Apollo Pro133"),     /* VT82C693A/694x */
    HOST(VIA, 0x0693, "VIA Apollo Pro Plus"),   /* VT82C693 */
    HOST(VIA, 0x8601, "VIA Apollo ProMedia"),   /* VT8601 (PLE133) */
    ROW(VIA, 0x0505, HOST, NO, UNKNOWN, UNKNOWN, "VIA VT82C505"),
                                                /* the VL-to-PCI bridge beside a 486
                                                   VL chipset (VT82C496G): the ISA
                                                   side is off PCI, AT power */
    VIA_SB(0x0586, UNKNOWN, "VT82C586"),        /* 586/586A/586B share the ID; only the
                                                   586B has the ACPI function below */
    PM(VIA, 0x3040, "VT82C586B ACPI"),          /* function 3, PM I/O sleep type;
                                                   quirk_vt82c586_acpi */
    VIA_SB(0x0596, YES, "VT82C596"),            /* with its PM function 3050 */
    PM(VIA, 0x3050, "VT82C596 PM"),
    VIA_SB(0x0686, YES, "VT82C686"),            /* 686A/B, with its ACPI function 3057 */
    PM(VIA, 0x3057, "VT82C686 ACPI"),           /* quirk_vt82c686_acpi */
    VIA_SB(0x8231, YES, "VT8231"),
    PM(VIA, 0x8235, "VT8231 PM"),               /* function 4; pci.ids files the ID
                                                   as "VT8235 ACPI" */
    VIA_SB(0x3074, YES, "VT8233"),              /* ACPI in function 0 */
    VIA_SB(0x3147, YES, "VT8233A"),
    VIA_SB(0x3177, YES, "VT8235"),              /* quirk_vt8235_acpi */
    VIA_SB(0x3227, YES, "VT8237"),

    /* SiS. */
    ROW(SIS, 0x0496, HOST, NO, UNKNOWN, UNKNOWN, "SiS 496/497"),
                                                /* 85C496 PCM; its 85C497 AT bus
                                                   controller is no PCI function and has
                                                   no soft-off */
    HOST(SIS, 0x5511, "SiS 5511/5512"),
    HOST(SIS, 0x5571, "SiS 5571"),
    HOST(SIS, 0x5591, "SiS 5591/5592"),
    HOST(SIS, 0x5597, "SiS 5597/5598"),
    HOST(SIS, 0x5600, "SiS 5600"),              /* with the 5595, which decides */
    ROW(SIS, 0x0406, HOST, NO, UNKNOWN, UNKNOWN, "SiS 85C501/2"),
                                                /* 1993's first Pentium chipset; its
                                                   85C503 ISA bridge shares the 5595's
                                                   ID below, but has no PM function:
                                                   this row decides, AT power */
    SOUTH(SIS, 0x0008, UNKNOWN, "SiS 85C503/5595"), /* the ISA bridge ID of the 85C503
                                                   and the 5595: the PM function tells */
    PM(SIS, 0x0009, "SiS 5595 PM"),             /* 5595 datasheet: ACPI PM */
    SOUTH(SIS, 0x0961, YES, "SiS 961"),         /* MuTIOL south bridges, ACPI */
    SOUTH(SIS, 0x0962, YES, "SiS 962"),
    SOUTH(SIS, 0x0963, YES, "SiS 963"),

    /* ALi (Acer Labs). */
    HOST(ALI, 0x1521, "ALi Aladdin III"),       /* M1521 */
    HOST(ALI, 0x1531, "ALi Aladdin IV"),        /* M1531 */
    HOST(ALI, 0x1541, "ALi Aladdin V"),         /* M1541 */
    HOST(ALI, 0x1621, "ALi Aladdin Pro II"),    /* M1621, with an M1533/M1543 */
    ROW(ALI, 0x1489, HOST, NO, UNKNOWN, UNKNOWN, "ALi FinALi 486"),
                                                /* M1489, whose M1487 ISA side is off
                                                   PCI: a 486 board, AT power */
    ROW(ACER, 0x1435, HOST, NO, UNKNOWN, UNKNOWN, "ALi M1435"),
                                                /* the VL-to-PCI bridge beside an
                                                   M1429 486 chipset: AT power */
    SOUTH(ALI, 0x1533, UNKNOWN, "M1533"),       /* the ISA bridge ID of the M1533, M1535
                                                   and M1543; their ACPI PMU is the M7101
                                                   function, which decides. A BIOS may
                                                   leave it disabled, off PCI (i2c-ali15x3's
                                                   notes name Gigabyte's GA-5AX; the sweep
                                                   met the GA-5AA): see hidden_pm[] */
    PM(ALI, 0x7101, "M7101 PMU"),               /* M7101 PMU; quirk_ali7101_acpi */

    /* UMC. No datasheet at hand: NO rests on the boards (486 PCI, AT supplies) and
     * on 86Box's model, whose PMU has SMI and IRQ triggers and no power-off. */
    HOST(UMC, 0x8881, "UMC UM8881F"),
    HOST(UMC, 0x8891, "UMC UM8891A"),           /* the UM8890's Pentium host bridge */
    HOST(UMC, 0x0891, "UMC UM8891A"),           /* the same, as 86Box's other model
                                                   revision answers */
    SOUTH(UMC, 0x8886, NO, "UM8886F"),
    SOUTH(UMC, 0x886A, NO, "UM8886A"),
    SOUTH(UMC, 0x888A, NO, "UM8886A/BF"),       /* pci.ids: UM8886A; 86Box's UM8886BF
                                                   answers with it too */

    /* SMSC (Efar): the SLC90E66 (Victory66) of the VictoryBX-66, with a 440BX; a
     * PIIX4 work-alike whose function 3 is the PIIX4's PM function (PMCNTRL
     * SUS_TYP/SUS_EN): Linux's i2c-piix4 drives 1055:9463 beside 8086:7113, and
     * 86Box's PC Chips M773 powered off through it in the sweep (docs/86box.md). */
    SOUTH(SMSC, 0x9460, YES, "SLC90E66"),
    PM(SMSC, 0x9463, "SLC90E66 ACPI"),

    /* The rest of 86Box's PCI chipsets of the 486 and Pentium: no datasheet at hand,
     * and 86Box's models have no power-off, so their south bridges (or host bridges
     * where the ISA side is not on PCI) say NO, as the boards' AT supplies do. */
    ROW(IMS, 0x8849, HOST, NO, UNKNOWN, UNKNOWN, "IMS 8848/8849"),
                                                /* 486 PCI, ISA built in */
    HOST(OPTI, 0xC557, "OPTi Viper-M"),         /* 82C557 */
    SOUTH(OPTI, 0xC558, NO, "82C558"),
    ROW(OPTI, 0xC822, HOST, NO, UNKNOWN, UNKNOWN, "OPTi 82C822"),
                                                /* VL-to-PCI bridge of a 486 chipset */
    HOST(VLSI, 0x0005, "VLSI 82C592"),          /* SuperCore 590 */
    HOST(VLSI, 0x0007, "VLSI 82C594"),          /* Wildcat */
    SOUTH(VLSI, 0x0006, NO, "82C593"),
    SOUTH(VLSI, 0x0008, NO, "82C596/7"),
    /* ST's STPC systems-on-chip: the north bridge, then the ISA bridge. The Client's
     * two IDs and the Elite's ISA bridge are 86Box's model's, not in pci.ids. */
    HOST(WEITEK, 0x0564, "STPC Client"),
    HOST(ST, 0x020A, "STPC"),                   /* Atlas, Consumer-S, Consumer-II */
    SOUTH(WEITEK, 0x55CC, NO, "STPC Client ISA"),
    SOUTH(ST, 0x020B, NO, "STPC Consumer-II ISA"),
    SOUTH(ST, 0x0210, NO, "STPC Atlas ISA"),
    SOUTH(ST, 0x021A, NO, "STPC Elite ISA"),

    /* AMD south bridges' ACPI functions. */
    PM(AMD, 0x740B, "AMD-756 ACPI"),
    PM(AMD, 0x7413, "AMD-766 ACPI"),
    PM(AMD, 0x7443, "AMD-768 ACPI"),
};

#define CHIPS (sizeof(chips) / sizeof(chips[0]))

/* A south bridge whose verdict rests on a power-management function that the BIOS
 * can hide from PCI: found without that function, the explanation says so instead
 * of ": soft-off unknown". */
static const struct {
    uint16_t device;
    uint8_t vendor;
    const char *text;
} hidden_pm[] = {
    { 0x1533, ALI, "'s M7101 PMU is hidden (disabled by the BIOS): soft-off cannot be "
      "judged" },
};

static const char *const verdict_names[] = {
    [SOFT_OFF_UNKNOWN] = "unknown",
    [SOFT_OFF_YES] = "yes",
    [SOFT_OFF_NO] = "no",
};

const char *chipset_soft_off_name(enum chipset_soft_off v)
{
    return (unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0])
           ? verdict_names[v] : "?";
}

const char *chipset_fact_name(enum chipset_fact f)
{
    return chipset_soft_off_name((enum chipset_soft_off)f);
}

/* A reset column: the south bridge's row where it knows, else the host bridge's. */
static enum chipset_fact reset_fact(const struct chip *south, const struct chip *host,
                                    bool cf9, const char **by)
{
    const struct chip *const rows[] = { south, host };

    for (unsigned i = 0; i < 2; i++) {
        unsigned fact = rows[i] ? (cf9 ? rows[i]->cf9 : rows[i]->port92) : FACT_UNKNOWN;
        if (fact != FACT_UNKNOWN) {
            *by = rows[i]->name;
            return (enum chipset_fact)fact;
        }
    }
    *by = 0;
    return FACT_UNKNOWN;
}

/* Joins up to four strings (NULL ones skipped) into buf, cut to fit its size. */
static void join(char *buf, unsigned size, const char *a, const char *b, const char *c,
                 const char *d)
{
    const char *const parts[] = { a, b, c, d };
    unsigned n = 0;
    for (unsigned i = 0; i < 4; i++)
        for (const char *s = parts[i]; s && *s && n < size - 1;)
            buf[n++] = *s++;
    buf[n] = '\0';
}

/* The first row of each role found among the walked functions, table order. */
static const struct chip *find(const struct pci_survey *pci, enum role role)
{
    for (unsigned i = 0; i < CHIPS; i++)
        if (chips[i].role == role &&
            pci_find(pci, vendor_ids[chips[i].vendor], chips[i].device))
            return &chips[i];
    return 0;
}

static const char *const role_words[] = {
    [ROLE_HOST] = " chipset", [ROLE_SOUTH] = " south bridge", [ROLE_PM] = " function",
};

static const char *const verdict_text[] = {
    [SOFT_OFF_UNKNOWN] = ": soft-off unknown",
    [SOFT_OFF_YES] = " has soft-off: the BIOS can cut an ATX supply's power",
    [SOFT_OFF_NO] = (" has no soft-off: the BIOS cannot cut the power; expected on this "
                     "board (AT-style power)"),
};

void chipset_identify(const struct pci_survey *pci, struct chipset_verdict *out)
{
    *out = (struct chipset_verdict){ .soft_off = SOFT_OFF_UNKNOWN };
    if (!pci || pci->mech == PCI_MECH_NONE) {
        join(out->explain, sizeof(out->explain), "ISA machine: soft-off needs an ATX "
             "supply and an APM BIOS that drives it", 0, 0, 0);
        return;
    }
    const struct chip *host = find(pci, ROLE_HOST), *south = find(pci, ROLE_SOUTH),
                      *pm = find(pci, ROLE_PM);
    out->host = host ? host->name : 0;
    out->south = south ? south->name : 0;
    out->pm = pm ? pm->name : 0;
    out->reset_cf9 = reset_fact(south, host, true, &out->reset_cf9_by);
    out->port92 = reset_fact(south, host, false, &out->port92_by);
    /* "Intel 430HX (PIIX3)": the host bridge, then the south bridge or, without a
     * known one, the power-management function. A PM function of another chip than
     * the south bridge is named too (QEMU's pc: a PIIX3 with a PIIX4's function 3),
     * since the verdict below may rest on it. */
    const char *second = out->south ? out->south : out->pm;
    char parts[CHIPSET_NAME_MAX];
    if (out->south && out->pm && strncmp(out->pm, out->south, strlen(out->south))) {
        join(parts, sizeof(parts), out->south, ", ", out->pm, 0);
        second = parts;
    }
    if (host && second)
        join(out->name, sizeof(out->name), host->name, " (", second, ")");
    else
        join(out->name, sizeof(out->name), out->host, second, 0, 0);

    /* The most specific evidence decides: a power-management function, then the
     * south bridge, then the host bridge (which has a verdict only where the chipset
     * has no south bridge on PCI); with none of them known, the name alone. */
    const struct chip *by = pm;
    if (!by && south && south->soft_off != SOFT_OFF_UNKNOWN)
        by = south;
    if (!by && host && host->soft_off != SOFT_OFF_UNKNOWN)
        by = host;
    if (!by)
        by = south ? south : host;
    if (!by) {
        join(out->explain, sizeof(out->explain),
             "chipset not in apmoff's table: soft-off unknown", 0, 0, 0);
        return;
    }
    out->soft_off = by->soft_off;
    const char *verdict = verdict_text[by->soft_off];
    for (unsigned i = 0; i < sizeof(hidden_pm) / sizeof(hidden_pm[0]); i++)
        if (by == south && !pm && hidden_pm[i].device == by->device &&
            hidden_pm[i].vendor == by->vendor)
            verdict = hidden_pm[i].text;
    join(out->explain, sizeof(out->explain), "the ", by->name, role_words[by->role],
         verdict);
}
