/* The soft-off table: see softoff.h.
 *
 * Each row names the datasheet register it rests on, and where 86Box's model
 * (src/chipset/, src/acpi.c) or QEMU's (hw/acpi/) reads the same register another
 * way, that too: an emulator's soft-off type is the one a sweep of its machines
 * proves, the datasheet's the one a real board needs, and where they differ both
 * are tried, the datasheet's first. A type that is not soft-off on a chip is a
 * sleep state that wakes by itself or does nothing (S0); none is a write that
 * could harm the machine. */
#include "softoff.h"

/* The ICH family's LPC bridges (function 0 of device 1Fh): PMBASE at 40h (bits
 * 15:7), ACPI_CNTL at 44h. ACPI_EN is bit 4 up to the ICH5 (82801AA-EB datasheets,
 * LPC I/F D31:F0 "ACPI_CNTL"), bit 7 from the ICH6 on. PM1_CNT's SLP_TYP 111b is S5
 * (soft off) in every one; QEMU's ICH9 (hw/acpi/core.c acpi_pm1_cnt_write) powers
 * off on type 0 only and ignores 7 (its q35 \_S5_ says 0), so 0 follows: on a real
 * ICH, type 0 is S0 and changes nothing. */
#define ICH(d, name, bit) \
    { 0x8086, d, name, 0x40, 0xFF80, 0x44, bit, { 7, 0 }, 2, \
      "82801 datasheet, LPC D31:F0 PMBASE 40h, ACPI_CNTL 44h, PM1_CNT SLP_TYP 111b = S5; " \
      "QEMU's ICH9 takes 0 for soft-off" }
#define ICH_OLD(d, name) ICH(d, name, 4)
#define ICH_NEW(d, name) ICH(d, name, 7)

/* PIIX4 and its kin, function 3: PMBA at 40h (bits 15:6), PMIOSE (PMREGMISC 80h bit
 * 0), PMCNTRL SUS_TYP 000b = soft off (82371AB datasheet 290562, 11.2-11.3; QEMU's
 * piix4 and 86Box's intel_piix agree). */
#define PIIX4(v, d, name) \
    { v, d, name, 0x40, 0xFFC0, 0x80, 0, { 0 }, 1, \
      "82371AB PIIX4 datasheet (290562), function 3: PMBA 40h, PMREGMISC 80h PMIOSE, " \
      "PMCNTRL SUS_TYP 000b = soft off" }

static const struct softoff_chip chips[] = {
    PIIX4(0x8086, 0x7113, "PIIX4 PM"),
    PIIX4(0x8086, 0x719B, "440MX PM"),
    /* SMSC's SLC90E66 (Victory66) copies the PIIX4, its PM function too (86Box
     * builds it from intel_piix.c). */
    PIIX4(0x1055, 0x9463, "SLC90E66 PM"),
    /* VIA VT82C586B, function 3: the base in 49h only (48h reads 01h), decode on with
     * 41h bit 7; SLP_TYP 000b is soft off (86Box's VEN_VIA: 0 off, 2 suspend). */
    { 0x1106, 0x3040, "VT82C586B ACPI", 0x48, 0xFF00, 0x41, 7, { 0 }, 1,
      "VT82C586B datasheet, function 3: PM I/O base 48h, 41h bit 7; PM1_CNT SLP_TYP "
      "000b = soft off" },
    /* VT82C596/596B and VT82C686: the base at 48h (bits 15:7), 41h bit 7; SLP_TYP
     * 010b is soft off (VT82C686A datasheet, PM1_CNT; 86Box's VEN_VIA_596B agrees). */
    { 0x1106, 0x3050, "VT82C596 PM", 0x48, 0xFF80, 0x41, 7, { 2 }, 1,
      "VT82C596B datasheet, function 3: PM I/O base 48h, 41h bit 7; PM1_CNT SLP_TYP "
      "010b = soft off" },
    { 0x1106, 0x3057, "VT82C686 ACPI", 0x48, 0xFF80, 0x41, 7, { 2 }, 1,
      "VT82C686A datasheet, function 4: PM I/O base 48h, 41h bit 7; PM1_CNT SLP_TYP "
      "010b = soft off" },
    /* SiS 5595: the ACPI block is decoded by the ISA bridge (1039:0008) at 90h (bits
     * 15:6), on with 40h bit 7; S5 is type 100b (86Box's sis_5513_p2i.c and acpi.c
     * VEN_SIS_5595, which also takes 101b). The 85C503 shares the bridge's ID but
     * has no PM function: the row wants the 5595's PMU (1039:0009) beside it. */
    { 0x1039, 0x0008, "SiS 5595", 0x90, 0xFFC0, 0x40, 7, { 4, 5 }, 2,
      "SiS 5595 datasheet, ISA bridge ACPI base 90h, 40h bit 7; PM1_CNT SLP_TYP 100b "
      "= S5 (86Box's model: 100b or 101b)" },
    /* ALi M7101 PMU: the ACPI block's base at 10h (bits 15:6), decoded when the
     * function's I/O space is on (command 04h bit 0). 86Box's M7101 (acpi.c VEN_ALI)
     * takes 000b and 001b as soft-off, and 101b and 111b, "undocumented", because the
     * ASUS P5A's and the Gigabyte GA-5AX's \_S5_ write them: 000b, then 111b. */
    { 0x10B9, 0x7101, "M7101 PMU", 0x10, 0xFFC0, 0x04, 0, { 0, 7 }, 2,
      "ALi M7101 datasheet, ACPI I/O base 10h, command 04h I/O space; PM1_CNT SLP_TYP "
      "000b = soft off (86Box's model), 111b as the GA-5AX's \\_S5_" },
    ICH_OLD(0x2410, "ICH"), ICH_OLD(0x2420, "ICH0"), ICH_OLD(0x2440, "ICH2"),
    ICH_OLD(0x244C, "ICH2"), ICH_OLD(0x2450, "C-ICH"), ICH_OLD(0x2480, "ICH3"),
    ICH_OLD(0x248C, "ICH3"), ICH_OLD(0x24C0, "ICH4"), ICH_OLD(0x24CC, "ICH4"),
    ICH_OLD(0x24D0, "ICH5"), ICH_OLD(0x24DC, "ICH5"),
    ICH_NEW(0x2640, "ICH6"), ICH_NEW(0x2641, "ICH6"), ICH_NEW(0x2642, "ICH6"),
    ICH_NEW(0x27B0, "ICH7"), ICH_NEW(0x27B8, "ICH7"), ICH_NEW(0x27B9, "ICH7"),
    ICH_NEW(0x27BD, "ICH7"), ICH_NEW(0x2810, "ICH8"), ICH_NEW(0x2811, "ICH8"),
    ICH_NEW(0x2812, "ICH8"), ICH_NEW(0x2814, "ICH8"), ICH_NEW(0x2815, "ICH8"),
    ICH_NEW(0x2912, "ICH9"), ICH_NEW(0x2914, "ICH9"), ICH_NEW(0x2916, "ICH9"),
    ICH_NEW(0x2917, "ICH9"), ICH_NEW(0x2918, "ICH9"), ICH_NEW(0x2919, "ICH9"),
};

const struct softoff_chip *softoff_table(unsigned *count)
{
    *count = sizeof(chips) / sizeof(chips[0]);
    return chips;
}

static bool present(const struct pci_survey *pci, uint16_t vendor, uint16_t device)
{
    for (unsigned i = 0; i < pci->count; i++)
        if (pci->fn[i].vendor == vendor && pci->fn[i].device == device)
            return true;
    return false;
}

void softoff_find(const struct pci_survey *pci, struct softoff_plan *out)
{
    *out = (struct softoff_plan){ 0 };
    if (!pci || pci->mech == PCI_MECH_NONE)
        return;
    for (unsigned i = 0; i < pci->count; i++) {
        const struct pci_function *f = &pci->fn[i];
        for (unsigned r = 0; r < sizeof(chips) / sizeof(chips[0]); r++) {
            const struct softoff_chip *c = &chips[r];
            if (f->vendor != c->vendor || f->device != c->device)
                continue;
            if (c->vendor == 0x1039 && !present(pci, 0x1039, 0x0009))
                continue;               /* an 85C503, not a 5595 */
            *out = (struct softoff_plan){ c, f->bus, f->dev, f->fn };
            return;
        }
    }
}
