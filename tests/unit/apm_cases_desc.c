/* test_apm cases: the descriptors a protected-mode connect builds (apm/pm_segs.c,
 * encoded by system/segdesc.c), from a 5303h or 5302h answer whose segments and
 * lengths all differ, so a base, limit or D bit taken from the wrong field shows.
 * Emulators cannot catch such a mix-up: SeaBIOS and Bochs' BIOS answer F000h for
 * every segment. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apm_cases.h"
#include "apm_fixture.h"
#include "../../apm/pm_segs.h"

/* The descriptor for `selector` in segs[], encoded as the GDT will hold it. */
static struct seg_desc built(const struct apm_seg *segs, unsigned n, unsigned selector)
{
    for (unsigned i = 0; i < n; i++)
        if (segs[i].selector == selector)
            return seg_desc_make(segs[i].base, segs[i].limit, segs[i].kind);
    fail_msg("no descriptor for selector %02Xh", selector);
    return (struct seg_desc){ 0 };
}

static void assert_desc(struct seg_desc d, uint32_t base, uint32_t limit, bool d_bit,
                        uint8_t access)
{
    assert_int_equal(seg_desc_base(&d), base);
    assert_int_equal(seg_desc_limit(&d), limit);
    assert_int_equal(seg_desc_is_32bit(&d), d_bit);
    assert_int_equal(d.access, access);
    assert_int_equal(d.limit_hi_flags & SEG_FLAG_GRAN_4K, 0);  /* byte granular */
}

#define CODE (SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_CODE_RX)
#define DATA (SEG_ACCESS_PRESENT | SEG_ACCESS_SEGMENT | SEG_ACCESS_DATA_RW)

void test_pm32_descriptors(void **state)
{
    struct apm_seg segs[APM_PM_SEGS_MAX];

    (void)state;
    sim.pm32_answer.eax = 0xF123;       /* 32-bit code segment */
    sim.pm32_answer.ebx = 0x0456;       /* entry */
    sim.pm32_answer.ecx = 0xE456;       /* 16-bit code segment */
    sim.pm32_answer.edx = 0x9789;       /* data segment */
    sim.pm32_answer.esi = 0x1000F000;   /* 16-bit code len : 32-bit code len */
    sim.pm32_answer.edi = 0x0200;       /* data length */
    connect_ok(APM_IFACE_PM32);

    unsigned n = apm_pm_segments(APM_IFACE_PM32, &sim.setup_info, segs);
    assert_int_equal(n, 4);
    /* consecutive, in the order APM 1.2 demands: code32, code16, data */
    assert_int_equal(segs[0].selector, SEL_APM_CODE32);
    assert_int_equal(segs[1].selector, SEL_APM_CODE32 + 8);
    assert_int_equal(segs[2].selector, SEL_APM_CODE32 + 16);
    /* 64 KiB limits whatever the BIOS claimed (apm.c), bases from each segment */
    assert_desc(built(segs, n, SEL_APM_CODE32), 0xF1230, 0xFFFF, true, CODE);
    assert_desc(built(segs, n, SEL_APM_CODE16), 0xE4560, 0xFFFF, false, CODE);
    /* 16-bit data, as RBIL's 5303h asks (B=0: a BIOS stack there uses SP) */
    assert_desc(built(segs, n, SEL_APM_DATA), 0x97890, 0xFFFF, false, DATA);
    /* 40h: the BIOS data area, for BIOSes that load it as real-mode segment 40h */
    assert_desc(built(segs, n, SEL_BIOS_DATA), 0x400, 0xFFFF, false, DATA);
}

void test_pm16_descriptors(void **state)
{
    struct apm_seg segs[APM_PM_SEGS_MAX];

    (void)state;
    sim.pm16_answer.eax = 0xF0A0;       /* 16-bit code segment */
    sim.pm16_answer.ebx = 0x0321;       /* entry */
    sim.pm16_answer.ecx = 0x8B00;       /* data segment */
    sim.pm16_answer.esi = 0x0800;
    sim.pm16_answer.edi = 0x0100;
    connect_ok(APM_IFACE_PM16);

    unsigned n = apm_pm_segments(APM_IFACE_PM16, &sim.setup_info, segs);
    assert_int_equal(n, 3);
    assert_int_equal(segs[0].selector, SEL_APM_CODE16);
    assert_int_equal(segs[1].selector, SEL_APM_DATA);
    assert_desc(built(segs, n, SEL_APM_CODE16), 0xF0A00, 0xFFFF, false, CODE);
    assert_desc(built(segs, n, SEL_APM_DATA), 0x8B000, 0xFFFF, false, DATA);
    assert_desc(built(segs, n, SEL_BIOS_DATA), 0x400, 0xFFFF, false, DATA);
}

/* The encoder itself: every field lands in its byte, and big limits go to 4 KiB
 * granularity (the kernel's flat segments). */
void test_segdesc_encoding(void **state)
{
    (void)state;
    struct seg_desc d = seg_desc_make(0x12345678, 0xABCDE, SEG_CODE16);
    assert_int_equal(d.limit_lo, 0xBCDE);
    assert_int_equal(d.base_lo, 0x5678);
    assert_int_equal(d.base_mid, 0x34);
    assert_int_equal(d.base_hi, 0x12);
    assert_int_equal(d.limit_hi_flags, 0x0A);
    assert_int_equal(d.access, 0x9A);

    d = seg_desc_make(0, 0xFFFFFFFF, SEG_DATA32);
    assert_int_equal(d.limit_lo, 0xFFFF);
    assert_int_equal(d.limit_hi_flags, 0xCF);       /* G, D, limit 19:16 = F */
    assert_int_equal(d.access, 0x92);
    assert_int_equal(seg_desc_limit(&d), 0xFFFFFFFF);

    d = seg_desc_make(0x1000, 0x2067, SEG_TSS32);
    assert_int_equal(d.access, 0x89);
    assert_int_equal(d.limit_hi_flags, 0x00);
}
