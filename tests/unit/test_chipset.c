/* survey/chipset.c: the soft-off verdict of each table row, the boards they make up,
 * unknown IDs and machines without PCI; survey/softoff.c: method=chipset's table, which
 * must agree with the verdicts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../survey/chipset.h"
#include "../../survey/softoff.h"

static struct pci_survey pci;
static struct chipset_verdict v;

static int setup(void **state)
{
    (void)state;
    memset(&pci, 0, sizeof(pci));
    pci.mech = PCI_MECH_1;
    memset(&v, 0xA5, sizeof(v));
    return 0;
}

static void with(uint16_t vendor, uint16_t device)
{
    assert_true(pci.count < PCI_MAX_FUNCTIONS);
    struct pci_function *f = &pci.fn[pci.count];
    f->dev = (uint8_t)pci.count++;
    f->vendor = vendor;
    f->device = device;
}

/* Every row of the table alone on a bus: the verdict and the name it gives. */
static const struct row {
    uint16_t vendor, device;
    enum chipset_soft_off verdict;
    const char *name;
    char role;                  /* 'h' host, 's' south, 'p' PM function */
} rows[] = {
    { 0x8086, 0x04A3, SOFT_OFF_UNKNOWN, "Intel 430LX/NX", 'h' },
    { 0x8086, 0x0483, SOFT_OFF_UNKNOWN, "Intel 420TX/ZX", 'h' },
    { 0x8086, 0x122D, SOFT_OFF_UNKNOWN, "Intel 430FX", 'h' },
    { 0x8086, 0x1235, SOFT_OFF_UNKNOWN, "Intel 430MX", 'h' },
    { 0x8086, 0x1250, SOFT_OFF_UNKNOWN, "Intel 430HX", 'h' },
    { 0x8086, 0x7030, SOFT_OFF_UNKNOWN, "Intel 430VX", 'h' },
    { 0x8086, 0x7100, SOFT_OFF_UNKNOWN, "Intel 430TX", 'h' },
    { 0x8086, 0x1237, SOFT_OFF_UNKNOWN, "Intel 440FX", 'h' },
    { 0x8086, 0x84C4, SOFT_OFF_UNKNOWN, "Intel 450KX/GX", 'h' },
    { 0x8086, 0x7180, SOFT_OFF_UNKNOWN, "Intel 440LX/EX", 'h' },
    { 0x8086, 0x7190, SOFT_OFF_UNKNOWN, "Intel 440BX/ZX", 'h' },
    { 0x8086, 0x7192, SOFT_OFF_UNKNOWN, "Intel 440BX/ZX", 'h' },
    { 0x8086, 0x71A0, SOFT_OFF_UNKNOWN, "Intel 440GX", 'h' },
    { 0x8086, 0x7194, SOFT_OFF_UNKNOWN, "Intel 440MX", 'h' },
    { 0x8086, 0x7120, SOFT_OFF_UNKNOWN, "Intel 810", 'h' },
    { 0x8086, 0x1130, SOFT_OFF_UNKNOWN, "Intel 815", 'h' },
    { 0x8086, 0x29C0, SOFT_OFF_UNKNOWN, "Intel G33/P35", 'h' },
    { 0x8086, 0x0484, SOFT_OFF_NO, "SIO", 's' },
    { 0x8086, 0x0482, SOFT_OFF_NO, "PCEB", 's' },
    { 0x8086, 0x122E, SOFT_OFF_NO, "PIIX", 's' },
    { 0x8086, 0x7000, SOFT_OFF_NO, "PIIX3", 's' },
    { 0x8086, 0x7110, SOFT_OFF_YES, "PIIX4", 's' },
    { 0x8086, 0x7113, SOFT_OFF_YES, "PIIX4 PM", 'p' },
    { 0x8086, 0x719B, SOFT_OFF_YES, "440MX PM", 'p' },
    { 0x8086, 0x2410, SOFT_OFF_YES, "ICH", 's' },
    { 0x8086, 0x2420, SOFT_OFF_YES, "ICH0", 's' },
    { 0x8086, 0x2440, SOFT_OFF_YES, "ICH2", 's' },
    { 0x8086, 0x244C, SOFT_OFF_YES, "ICH2", 's' },
    { 0x8086, 0x2450, SOFT_OFF_YES, "C-ICH", 's' },
    { 0x8086, 0x2480, SOFT_OFF_YES, "ICH3", 's' },
    { 0x8086, 0x248C, SOFT_OFF_YES, "ICH3", 's' },
    { 0x8086, 0x24C0, SOFT_OFF_YES, "ICH4", 's' },
    { 0x8086, 0x24CC, SOFT_OFF_YES, "ICH4", 's' },
    { 0x8086, 0x24D0, SOFT_OFF_YES, "ICH5", 's' },
    { 0x8086, 0x24DC, SOFT_OFF_YES, "ICH5", 's' },
    { 0x8086, 0x25A1, SOFT_OFF_YES, "6300ESB", 's' },
    { 0x8086, 0x2640, SOFT_OFF_YES, "ICH6", 's' },
    { 0x8086, 0x2641, SOFT_OFF_YES, "ICH6", 's' },
    { 0x8086, 0x2642, SOFT_OFF_YES, "ICH6", 's' },
    { 0x8086, 0x27B0, SOFT_OFF_YES, "ICH7", 's' },
    { 0x8086, 0x27B8, SOFT_OFF_YES, "ICH7", 's' },
    { 0x8086, 0x27B9, SOFT_OFF_YES, "ICH7", 's' },
    { 0x8086, 0x27BD, SOFT_OFF_YES, "ICH7", 's' },
    { 0x8086, 0x2810, SOFT_OFF_YES, "ICH8", 's' },
    { 0x8086, 0x2811, SOFT_OFF_YES, "ICH8", 's' },
    { 0x8086, 0x2812, SOFT_OFF_YES, "ICH8", 's' },
    { 0x8086, 0x2814, SOFT_OFF_YES, "ICH8", 's' },
    { 0x8086, 0x2815, SOFT_OFF_YES, "ICH8", 's' },
    { 0x8086, 0x2912, SOFT_OFF_YES, "ICH9", 's' },
    { 0x8086, 0x2914, SOFT_OFF_YES, "ICH9", 's' },
    { 0x8086, 0x2916, SOFT_OFF_YES, "ICH9", 's' },
    { 0x8086, 0x2917, SOFT_OFF_YES, "ICH9", 's' },
    { 0x8086, 0x2918, SOFT_OFF_YES, "ICH9", 's' },
    { 0x8086, 0x2919, SOFT_OFF_YES, "ICH9", 's' },
    { 0x1106, 0x0585, SOFT_OFF_UNKNOWN, "VIA Apollo VP/VPX", 'h' },
    { 0x1106, 0x0595, SOFT_OFF_UNKNOWN, "VIA Apollo VP2", 'h' },
    { 0x1106, 0x0597, SOFT_OFF_UNKNOWN, "VIA Apollo VP3", 'h' },
    { 0x1106, 0x0598, SOFT_OFF_UNKNOWN, "VIA Apollo MVP3", 'h' },
    { 0x1106, 0x0501, SOFT_OFF_UNKNOWN, "VIA Apollo MVP4", 'h' },
    { 0x1106, 0x0691, SOFT_OFF_UNKNOWN, "VIA Apollo Pro133", 'h' },
    { 0x1106, 0x0693, SOFT_OFF_UNKNOWN, "VIA Apollo Pro Plus", 'h' },
    { 0x1106, 0x0586, SOFT_OFF_UNKNOWN, "VT82C586", 's' },
    { 0x1106, 0x3040, SOFT_OFF_YES, "VT82C586B ACPI", 'p' },
    { 0x1106, 0x0596, SOFT_OFF_YES, "VT82C596", 's' },
    { 0x1106, 0x3050, SOFT_OFF_YES, "VT82C596 PM", 'p' },
    { 0x1106, 0x0686, SOFT_OFF_YES, "VT82C686", 's' },
    { 0x1106, 0x3057, SOFT_OFF_YES, "VT82C686 ACPI", 'p' },
    { 0x1106, 0x8231, SOFT_OFF_YES, "VT8231", 's' },
    { 0x1106, 0x3074, SOFT_OFF_YES, "VT8233", 's' },
    { 0x1106, 0x3147, SOFT_OFF_YES, "VT8233A", 's' },
    { 0x1106, 0x3177, SOFT_OFF_YES, "VT8235", 's' },
    { 0x1106, 0x3227, SOFT_OFF_YES, "VT8237", 's' },
    { 0x1039, 0x0496, SOFT_OFF_NO, "SiS 496/497", 'h' },
    { 0x1039, 0x5511, SOFT_OFF_UNKNOWN, "SiS 5511/5512", 'h' },
    { 0x1039, 0x5571, SOFT_OFF_UNKNOWN, "SiS 5571", 'h' },
    { 0x1039, 0x5591, SOFT_OFF_UNKNOWN, "SiS 5591/5592", 'h' },
    { 0x1039, 0x5597, SOFT_OFF_UNKNOWN, "SiS 5597/5598", 'h' },
    { 0x1039, 0x0008, SOFT_OFF_UNKNOWN, "SiS 85C503/5595", 's' },
    { 0x1039, 0x0009, SOFT_OFF_YES, "SiS 5595 PM", 'p' },
    { 0x1039, 0x0961, SOFT_OFF_YES, "SiS 961", 's' },
    { 0x1039, 0x0962, SOFT_OFF_YES, "SiS 962", 's' },
    { 0x1039, 0x0963, SOFT_OFF_YES, "SiS 963", 's' },
    { 0x10B9, 0x1521, SOFT_OFF_UNKNOWN, "ALi Aladdin III", 'h' },
    { 0x10B9, 0x1531, SOFT_OFF_UNKNOWN, "ALi Aladdin IV", 'h' },
    { 0x10B9, 0x1541, SOFT_OFF_UNKNOWN, "ALi Aladdin V", 'h' },
    { 0x10B9, 0x1533, SOFT_OFF_UNKNOWN, "M1533", 's' },
    { 0x10B9, 0x7101, SOFT_OFF_YES, "M7101 PMU", 'p' },
    { 0x1022, 0x740B, SOFT_OFF_YES, "AMD-756 ACPI", 'p' },
    { 0x1022, 0x7413, SOFT_OFF_YES, "AMD-766 ACPI", 'p' },
    { 0x1022, 0x7443, SOFT_OFF_YES, "AMD-768 ACPI", 'p' },
    { 0x1060, 0x8881, SOFT_OFF_UNKNOWN, "UMC UM8881F", 'h' },
    { 0x1060, 0x8886, SOFT_OFF_NO, "UM8886F", 's' },
    { 0x1060, 0x888A, SOFT_OFF_NO, "UM8886A/BF", 's' },
    { 0x1055, 0x9460, SOFT_OFF_YES, "SLC90E66", 's' },
    { 0x1055, 0x9463, SOFT_OFF_YES, "SLC90E66 ACPI", 'p' },
    { 0x8086, 0x0486, SOFT_OFF_NO, "Intel 420EX", 'h' },
    { 0x1106, 0x8601, SOFT_OFF_UNKNOWN, "VIA Apollo ProMedia", 'h' },
    { 0x1106, 0x0505, SOFT_OFF_NO, "VIA VT82C505", 'h' },
    { 0x1106, 0x8235, SOFT_OFF_YES, "VT8231 PM", 'p' },
    { 0x1039, 0x5600, SOFT_OFF_UNKNOWN, "SiS 5600", 'h' },
    { 0x1039, 0x0406, SOFT_OFF_NO, "SiS 85C501/2", 'h' },
    { 0x10B9, 0x1621, SOFT_OFF_UNKNOWN, "ALi Aladdin Pro II", 'h' },
    { 0x10B9, 0x1489, SOFT_OFF_NO, "ALi FinALi 486", 'h' },
    { 0x1025, 0x1435, SOFT_OFF_NO, "ALi M1435", 'h' },
    { 0x1060, 0x8891, SOFT_OFF_UNKNOWN, "UMC UM8891A", 'h' },
    { 0x1060, 0x0891, SOFT_OFF_UNKNOWN, "UMC UM8891A", 'h' },
    { 0x1060, 0x886A, SOFT_OFF_NO, "UM8886A", 's' },
    { 0x10E0, 0x8849, SOFT_OFF_NO, "IMS 8848/8849", 'h' },
    { 0x1045, 0xC557, SOFT_OFF_UNKNOWN, "OPTi Viper-M", 'h' },
    { 0x1045, 0xC558, SOFT_OFF_NO, "82C558", 's' },
    { 0x1045, 0xC822, SOFT_OFF_NO, "OPTi 82C822", 'h' },
    { 0x1004, 0x0005, SOFT_OFF_UNKNOWN, "VLSI 82C592", 'h' },
    { 0x1004, 0x0007, SOFT_OFF_UNKNOWN, "VLSI 82C594", 'h' },
    { 0x1004, 0x0006, SOFT_OFF_NO, "82C593", 's' },
    { 0x1004, 0x0008, SOFT_OFF_NO, "82C596/7", 's' },
    { 0x100E, 0x0564, SOFT_OFF_UNKNOWN, "STPC Client", 'h' },
    { 0x104A, 0x020A, SOFT_OFF_UNKNOWN, "STPC", 'h' },
    { 0x100E, 0x55CC, SOFT_OFF_NO, "STPC Client ISA", 's' },
    { 0x104A, 0x020B, SOFT_OFF_NO, "STPC Consumer-II ISA", 's' },
    { 0x104A, 0x0210, SOFT_OFF_NO, "STPC Atlas ISA", 's' },
    { 0x104A, 0x021A, SOFT_OFF_NO, "STPC Elite ISA", 's' },
};

static void test_each_row(void **state)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        setup(state);
        with(0x1AF4, 0x1000);           /* an unknown device first */
        with(r->vendor, r->device);
        chipset_identify(&pci, &v);
        assert_int_equal(v.soft_off, r->verdict);
        assert_string_equal(v.name, r->name);
        const char *got = r->role == 'h' ? v.host : r->role == 's' ? v.south : v.pm;
        assert_non_null(got);
        assert_string_equal(got, r->name);
        assert_non_null(strstr(v.explain, r->name));
        assert_true(strlen(v.explain) < CHIPSET_EXPLAIN_MAX - 1);   /* never cut */
    }
}

static void test_430hx(void **state)
{
    (void)state;
    with(0x8086, 0x1250);
    with(0x8086, 0x7000);
    with(0x8086, 0x7010);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "Intel 430HX (PIIX3)");
    assert_string_equal(v.explain, "the PIIX3 south bridge has no soft-off: the BIOS cannot "
                        "cut the power; expected on this board (AT-style power)");
    assert_null(v.pm);
    assert_string_equal(chipset_soft_off_name(v.soft_off), "no");
}

/* QEMU's pc machine: PIIX3 with a PIIX4 ACPI function; the PM function decides. */
static void test_qemu_pc(void **state)
{
    (void)state;
    with(0x8086, 0x1237);
    with(0x8086, 0x7000);
    with(0x8086, 0x7113);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "Intel 440FX (PIIX3, PIIX4 PM)");  /* both chips named */
    assert_string_equal(v.pm, "PIIX4 PM");
    assert_string_equal(v.explain,
                        "the PIIX4 PM function has soft-off: the BIOS can cut an ATX "
                        "supply's power");
    assert_string_equal(chipset_soft_off_name(v.soft_off), "yes");
}

static void test_q35(void **state)
{
    (void)state;
    with(0x8086, 0x29C0);
    with(0x8086, 0x2918);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "Intel G33/P35 (ICH9)");
}

static void test_430tx(void **state)
{
    (void)state;
    with(0x8086, 0x7100);
    with(0x8086, 0x7110);
    with(0x8086, 0x7113);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "Intel 430TX (PIIX4)");
}

static void test_430lx_sio(void **state)
{
    (void)state;
    with(0x8086, 0x04A3);
    with(0x8086, 0x0484);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "Intel 430LX/NX (SIO)");
}

/* The kit's 486 board: SiS 496 and nothing else known. */
static void test_sis496(void **state)
{
    (void)state;
    with(0x1039, 0x0496);
    with(0x1039, 0x0406);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "SiS 496/497");
    assert_string_equal(v.explain, "the SiS 496/497 chipset has no soft-off: the BIOS "
                        "cannot cut the power; expected on this board (AT-style power)");
}

/* One ID for the 586, 586A and 586B: only the ACPI function tells. */
static void test_vt82c586(void **state)
{
    (void)state;
    with(0x1106, 0x0585);
    with(0x1106, 0x0586);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_string_equal(v.explain, "the VT82C586 south bridge: soft-off unknown");
    with(0x1106, 0x3040);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "VIA Apollo VP/VPX (VT82C586)");
}

static void test_sis5595(void **state)
{
    (void)state;
    with(0x1039, 0x5597);
    with(0x1039, 0x0008);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    with(0x1039, 0x0009);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
}

/* 10B9:1533 is the ISA bridge of the M1533, M1535 and M1543: their M7101 PMU decides,
 * and a BIOS may hide it (the GA-5AA in 86Box: Aladdin V, no M7101 on PCI). */
static void test_ali1533(void **state)
{
    (void)state;
    with(0x10B9, 0x1541);
    with(0x10B9, 0x1533);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_string_equal(v.name, "ALi Aladdin V (M1533)");
    assert_null(v.pm);
    assert_string_equal(v.explain, "the M1533 south bridge's M7101 PMU is hidden (disabled "
                        "by the BIOS): soft-off cannot be judged");
    with(0x10B9, 0x7101);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.pm, "M7101 PMU");
    assert_string_equal(v.explain, "the M7101 PMU function has soft-off: the BIOS can cut "
                        "an ATX supply's power");
}

/* Another chip's PM function beside the M1533: it decides, and the M7101 is not said
 * to be hidden. */
static void test_ali1533_with_other_pm(void **state)
{
    (void)state;
    with(0x10B9, 0x1533);
    with(0x8086, 0x7113);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_null(strstr(v.explain, "hidden"));
}

/* UMC's 486 PCI chipset (86Box's MB-84xxUUD-A and ECS UM8810P-AIO): AT power. */
static void test_umc8881(void **state)
{
    (void)state;
    with(0x1060, 0x8881);
    with(0x1060, 0x888A);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "UMC UM8881F (UM8886A/BF)");
    assert_string_equal(v.explain, "the UM8886A/BF south bridge has no soft-off: the BIOS "
                        "cannot cut the power; expected on this board (AT-style power)");
    setup(state);
    with(0x1060, 0x8881);
    with(0x1060, 0x8886);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "UMC UM8881F (UM8886F)");
}

/* SMSC's VictoryBX-66 (86Box's PC Chips M773): a 440BX with the SLC90E66, whose PM
 * function is a PIIX4's; named once, since the function's name starts with the
 * bridge's. */
static void test_victorybx66(void **state)
{
    (void)state;
    with(0x8086, 0x7190);
    with(0x1055, 0x9460);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "Intel 440BX/ZX (SLC90E66)");
    with(0x1055, 0x9463);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "Intel 440BX/ZX (SLC90E66)");
    assert_string_equal(v.pm, "SLC90E66 ACPI");
    assert_string_equal(v.explain, "the SLC90E66 ACPI function has soft-off: the BIOS can "
                        "cut an ATX supply's power");
}

/* SiS's 85C501/2/3: the ISA bridge's ID is the 5595's, whose verdict rests on a PM
 * function this chipset lacks, so the host bridge decides. */
static void test_sis85c50x(void **state)
{
    (void)state;
    with(0x1039, 0x0406);
    with(0x1039, 0x0008);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_NO);
    assert_string_equal(v.name, "SiS 85C501/2 (SiS 85C503/5595)");
    assert_non_null(strstr(v.explain, "the SiS 85C501/2 chipset has no soft-off"));
}

/* The VT8231's PM function has its own ID (8235 in 86Box, as in real dumps). */
static void test_vt8231(void **state)
{
    (void)state;
    with(0x1106, 0x8601);
    with(0x1106, 0x8231);
    with(0x1106, 0x8235);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_YES);
    assert_string_equal(v.name, "VIA Apollo ProMedia (VT8231)");
    assert_string_equal(v.pm, "VT8231 PM");
}

static void test_unknown(void **state)
{
    (void)state;
    with(0x1AF4, 0x1000);
    with(0x8086, 0x1234);               /* MPIIX: not in the table */
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_string_equal(v.name, "");
    assert_null(v.host);
    assert_null(v.south);
    assert_string_equal(v.explain, "chipset not in apmoff's table: soft-off unknown");
    assert_string_equal(chipset_soft_off_name(v.soft_off), "unknown");
}

static void test_host_only(void **state)
{
    (void)state;
    with(0x8086, 0x122D);
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_string_equal(v.name, "Intel 430FX");
    assert_string_equal(v.explain, "the Intel 430FX chipset: soft-off unknown");
}

static void test_no_pci(void **state)
{
    (void)state;
    with(0x8086, 0x7110);               /* ignored: no mechanism answered */
    pci.mech = PCI_MECH_NONE;
    chipset_identify(&pci, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_string_equal(v.explain,
                        "ISA machine: soft-off needs an ATX supply and an APM BIOS that "
                        "drives it");
    assert_string_equal(v.name, "");
    memset(&v, 0xA5, sizeof(v));
    chipset_identify(NULL, &v);
    assert_int_equal(v.soft_off, SOFT_OFF_UNKNOWN);
    assert_null(v.south);
}

/* How the board resets (reset=pci, reset=port92): the south bridge's row decides,
 * the host bridge's where the south bridge's does not know; no PCI, no answer. */
static void test_reset_facts(void **state)
{
    with(0x8086, 0x1237);                       /* QEMU's pc: 440FX, PIIX3 */
    with(0x8086, 0x7000);
    with(0x8086, 0x7113);
    chipset_identify(&pci, &v);
    assert_int_equal(v.reset_cf9, FACT_YES);
    assert_string_equal(v.reset_cf9_by, "PIIX3");
    assert_int_equal(v.port92, FACT_YES);
    assert_string_equal(chipset_fact_name(v.port92), "yes");

    setup(state);                               /* 430LX/NX with the SIO: the PCMC's TRC */
    with(0x8086, 0x04A3);
    with(0x8086, 0x0484);
    chipset_identify(&pci, &v);
    assert_int_equal(v.reset_cf9, FACT_YES);
    assert_string_equal(v.reset_cf9_by, "Intel 430LX/NX");
    assert_int_equal(v.port92, FACT_YES);
    assert_string_equal(v.port92_by, "SIO");

    setup(state);                               /* VIA MVP3 + VT82C586B: port 92h only */
    with(0x1106, 0x0598);
    with(0x1106, 0x0586);
    with(0x1106, 0x3040);
    chipset_identify(&pci, &v);
    assert_int_equal(v.reset_cf9, FACT_UNKNOWN);
    assert_null(v.reset_cf9_by);
    assert_int_equal(v.port92, FACT_YES);

    setup(state);                               /* SiS 496/497: the table does not know */
    with(0x1039, 0x0496);
    chipset_identify(&pci, &v);
    assert_int_equal(v.reset_cf9, FACT_UNKNOWN);
    assert_int_equal(v.port92, FACT_UNKNOWN);

    setup(state);                               /* q35's ICH9 */
    with(0x8086, 0x29C0);
    with(0x8086, 0x2918);
    chipset_identify(&pci, &v);
    assert_int_equal(v.reset_cf9, FACT_YES);
    assert_string_equal(v.reset_cf9_by, "ICH9");

    setup(state);
    pci.mech = PCI_MECH_NONE;
    chipset_identify(NULL, &v);
    assert_int_equal(v.reset_cf9, FACT_UNKNOWN);
    assert_int_equal(v.port92, FACT_UNKNOWN);
    assert_null(v.port92_by);
}

/* Every chip method=chipset would write is one the verdict calls soft-off: the two
 * tables cannot drift apart. */
static void test_softoff_rows_are_soft_off(void **state)
{
    unsigned n;
    const struct softoff_chip *rows = softoff_table(&n);
    struct softoff_plan plan;
    (void)state;
    assert_true(n > 30);
    for (unsigned i = 0; i < n; i++) {
        setup(0);
        with(rows[i].vendor, rows[i].device);
        if (rows[i].vendor == 0x1039)
            with(0x1039, 0x0009);
        chipset_identify(&pci, &v);
        if (v.soft_off != SOFT_OFF_YES)
            fail_msg("%04X:%04X %s: soft-off row, verdict %s", rows[i].vendor,
                     rows[i].device, rows[i].name, chipset_soft_off_name(v.soft_off));
        softoff_find(&pci, &plan);
        assert_ptr_equal(plan.chip, &rows[i]);
        assert_true(rows[i].type_count >= 1 && rows[i].type_count <= SOFTOFF_TYPES_MAX);
        assert_true((rows[i].base_mask & 0x003F) == 0);     /* a block of 64 or more */
    }
}

/* Where the walk found it; an 85C503 (the 5595's ISA bridge ID without its PMU) and an
 * ISA machine have none; the base from each chip's register layout. */
static void test_softoff_find(void **state)
{
    struct softoff_plan plan;
    (void)state;
    with(0x8086, 0x1237);
    with(0x8086, 0x7000);
    with(0x8086, 0x7113);
    pci.fn[2].fn = 3;
    softoff_find(&pci, &plan);
    assert_non_null(plan.chip);
    assert_string_equal(plan.chip->name, "PIIX4 PM");
    assert_int_equal(plan.dev, 2);
    assert_int_equal(plan.fn, 3);
    assert_int_equal(softoff_base(plan.chip, 0x0601), 0x0600);     /* bit 0: I/O space */
    assert_int_equal(plan.chip->types[0], 0);

    setup(0);
    with(0x1039, 0x0406);
    with(0x1039, 0x0008);
    softoff_find(&pci, &plan);
    assert_null(plan.chip);

    setup(0);
    with(0x1106, 0x0586);
    with(0x1106, 0x3040);
    softoff_find(&pci, &plan);
    assert_string_equal(plan.chip->name, "VT82C586B ACPI");
    assert_int_equal(softoff_base(plan.chip, 0x0000E401), 0xE400);  /* 49h:48h, 48h is 01h */

    setup(0);
    with(0x8086, 0x29C0);
    with(0x8086, 0x2918);
    softoff_find(&pci, &plan);
    assert_string_equal(plan.chip->name, "ICH9");
    assert_int_equal(plan.chip->enable_bit, 7);
    assert_int_equal(plan.chip->types[0], 7);
    assert_int_equal(softoff_value(7, true), 0x3C00);

    pci.mech = PCI_MECH_NONE;
    softoff_find(&pci, &plan);
    assert_null(plan.chip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_each_row, setup),
        cmocka_unit_test_setup(test_softoff_rows_are_soft_off, setup),
        cmocka_unit_test_setup(test_softoff_find, setup),
        cmocka_unit_test_setup(test_430hx, setup),
        cmocka_unit_test_setup(test_qemu_pc, setup),
        cmocka_unit_test_setup(test_q35, setup),
        cmocka_unit_test_setup(test_430tx, setup),
        cmocka_unit_test_setup(test_430lx_sio, setup),
        cmocka_unit_test_setup(test_sis496, setup),
        cmocka_unit_test_setup(test_vt82c586, setup),
        cmocka_unit_test_setup(test_sis5595, setup),
        cmocka_unit_test_setup(test_ali1533, setup),
        cmocka_unit_test_setup(test_ali1533_with_other_pm, setup),
        cmocka_unit_test_setup(test_umc8881, setup),
        cmocka_unit_test_setup(test_victorybx66, setup),
        cmocka_unit_test_setup(test_sis85c50x, setup),
        cmocka_unit_test_setup(test_vt8231, setup),
        cmocka_unit_test_setup(test_unknown, setup),
        cmocka_unit_test_setup(test_host_only, setup),
        cmocka_unit_test_setup(test_no_pci, setup),
        cmocka_unit_test_setup(test_reset_facts, setup),
    };
    return cmocka_run_group_tests_name("chipset", tests, NULL, NULL);
}
