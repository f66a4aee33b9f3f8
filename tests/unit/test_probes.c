/* app/probe_*.c against a simulated BIOS: what each memory interface, INT 13h and
 * INT 10h answer, including the BIOSes that answer nothing, end E820 with CF, put
 * E801's figures in CX/DX, or know only the equipment word. The simulated BIOS
 * keeps 1 MiB of "low memory", so the buffer the probes hand it is a real address
 * there and the VBE block's far pointers can point into a pretend video ROM. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../app/facts/probes.h"
#include "../../lib/pc.h"

#define LOWMEM          0x100000u
#define BUFFER_SEG      0x9C00u
#define BUFFER_OFF      0x1000u
#define VIDEO_ROM       0xC0000u

static uint8_t mem[LOWMEM];
static struct physmem window;

/* What the simulated BIOS is. */
static struct {
    unsigned e820_entries;          /* 0: no E820 (AH=86h) */
    bool e820_end_with_cf;          /* the last call fails instead of EBX = 0 */
    bool e820_endless;              /* a continuation that never becomes 0 */
    bool e801_in_cxdx;
    bool no_e801, no_88;
    bool cf_untouched;              /* answers by IRET, CF as the caller left it */
    bool iret_only;                 /* knows neither E801h nor 88h: changes nothing */
    unsigned hdds;
    bool edd_on_first;
    enum { VID_VGA_VBE2, VID_VGA_NO_VBE, VID_EGA, VID_MDA, VID_CGA } video;
    unsigned calls;
} bios;

static const struct e820_entry table[] = {
    { 0, 0x9FC00, 1 }, { 0x9FC00, 0x400, 2 }, { 0xF0000, 0x10000, 2 },
    { 0x100000, 0x1F00000, 1 }, { 0xFFFC0000u, 0x40000, 2 },
};

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *at(uint16_t seg, uint32_t off)
{
    return mem + (uint32_t)seg * 16u + (off & 0xFFFF);
}

static void fail_call(struct biosregs *r, uint8_t code)
{
    r->eflags |= X86_EFLAGS_CF;
    r->ah = code;
}

static void int15(struct biosregs *r)
{
    if (r->eax == 0xE820) {
        if (!bios.e820_entries || r->edx != 0x534D4150u)
            return fail_call(r, 0x86);
        unsigned i = r->ebx % 16;
        if (i >= bios.e820_entries)
            return fail_call(r, 0x86);  /* the CF end */
        uint8_t *p = at(r->es, r->edi);
        const struct e820_entry *e = &table[i % (sizeof(table) / sizeof(table[0]))];
        put32(p, (uint32_t)e->base);
        put32(p + 4, (uint32_t)(e->base >> 32));
        put32(p + 8, (uint32_t)e->length);
        put32(p + 12, (uint32_t)(e->length >> 32));
        put32(p + 16, e->type);
        r->eax = 0x534D4150u;
        r->ecx = 20;
        r->eflags &= ~X86_EFLAGS_CF;
        if (bios.e820_endless)
            r->ebx = 1;
        else if (i + 1 == bios.e820_entries && !bios.e820_end_with_cf)
            r->ebx = 0;
        else
            r->ebx = i + 1;
        return;
    }
    if (bios.iret_only && (r->ax == 0xE801 || r->ah == 0x88))
        return;
    if (r->ah == 0x88 && bios.cf_untouched) {
        r->ax = 7168;
        return;
    }
    if (r->ax == 0xE801) {
        if (bios.no_e801)
            return fail_call(r, 0x86);
        r->eflags &= ~X86_EFLAGS_CF;
        if (bios.e801_in_cxdx) {
            r->ax = r->bx = 0;
            r->cx = 15360;
            r->dx = 480;
        } else {
            r->ax = 15360;
            r->bx = 480;
            r->cx = r->dx = 0;
        }
        return;
    }
    if (r->ah == 0x88) {
        if (bios.no_88)
            return fail_call(r, 0x86);
        r->eflags &= ~X86_EFLAGS_CF;
        r->ax = 3072;
        return;
    }
    fail_call(r, 0x86);
}

static void int13(struct biosregs *r)
{
    unsigned n = r->dl - 0x80u;
    if (r->dl < 0x80 || n >= bios.hdds)
        return fail_call(r, 0x01);
    if (r->ah == 0x08) {
        r->eflags &= ~X86_EFLAGS_CF;
        /* 1024 cylinders (max 1023 = 3FFh), 16 heads, 63 sectors; the second disk
         * 615/4/17, a 20 MB disk of AT type 2 */
        unsigned cyl = n ? 614 : 1023, heads = n ? 3 : 15, sectors = n ? 17 : 63;
        r->ch = (uint8_t)cyl;
        r->cl = (uint8_t)(sectors | (cyl >> 2 & 0xC0));
        r->dh = (uint8_t)heads;
        r->dl = (uint8_t)bios.hdds;
        r->ah = 0;
        return;
    }
    if (r->ah == 0x41) {
        if (n || !bios.edd_on_first || r->bx != 0x55AA)
            return fail_call(r, 0x01);
        r->eflags &= ~X86_EFLAGS_CF;
        r->bx = 0xAA55;
        r->ah = 0x30;
        r->cx = 0x0007;
        return;
    }
    if (r->ah == 0x48 && !n && bios.edd_on_first) {
        uint8_t *p = at(r->ds, r->si);
        if (p[0] < 0x1A)
            return fail_call(r, 0x01);
        memset(p + 2, 0, 0x18);
        put32(p + 16, 1032192);         /* 504 MiB */
        p[24] = 0x00;
        p[25] = 0x02;                   /* 512-byte sectors */
        r->eflags &= ~X86_EFLAGS_CF;
        r->ah = 0;
        return;
    }
    fail_call(r, 0x01);
}

static void put_string(uint32_t linear, const char *s)
{
    memcpy(mem + linear, s, strlen(s) + 1);
}

static void int10(struct biosregs *r)
{
    bool vga = bios.video == VID_VGA_VBE2 || bios.video == VID_VGA_NO_VBE;
    if (r->ax == 0x1A00) {
        if (!vga)
            return;                     /* older BIOSes: AL unchanged */
        r->al = 0x1A;
        r->bl = 0x08;
        r->bh = 0x00;
        return;
    }
    if (r->ah == 0x12 && r->bl == 0x10) {
        if (bios.video == VID_EGA || vga) {
            r->bh = 0;
            r->bl = 3;                  /* 256 KiB */
        }
        return;
    }
    if (r->ax == 0x4F00 && bios.video == VID_VGA_VBE2) {
        uint8_t *p = at(r->es, r->di);
        assert_memory_equal(p, "VBE2", 4);
        memset(p, 0, 512);
        memcpy(p, "VESA", 4);
        p[4] = 0x00;
        p[5] = 0x02;                    /* 2.0 */
        put32(p + 6, (VIDEO_ROM >> 4) << 16 | 0x100);   /* OEM string in the ROM */
        p[18] = 64;                     /* 4 MiB */
        /* vendor and product in the block itself, as 2.0 BIOSes put them */
        uint32_t self = (uint32_t)r->es << 16 | (uint16_t)(r->di + 0x100);
        put32(p + 22, self);
        put32(p + 26, self + 0x20);
        put32(p + 30, 0xFFFF0000u | 0xFFF8);           /* past 1 MiB: not followed */
        put_string(VIDEO_ROM + 0x100, "Cirrus Logic GD5446  ");
        memcpy(p + 0x100, "Cirrus", 7);
        memcpy(p + 0x120, "GD5446\x01", 8);
        r->ax = 0x004F;
    }
}

static bool call(uint8_t vector, const struct biosregs *in, struct biosregs *out,
                 const char **why)
{
    struct biosregs r = *in;
    bios.calls++;
    switch (vector) {
    case BIOS_INT_MEMORY: r.ax = 639; break;
    case BIOS_INT_SYSTEM: int15(&r); break;
    case BIOS_INT_DISK: int13(&r); break;
    case BIOS_INT_VIDEO: int10(&r); break;
    case BIOS_INT_EQUIPMENT: r.ax = bios.video == VID_MDA ? 0x0031 : 0x0021; break;
    default: *why = "no such vector"; return false;
    }
    *out = r;
    return true;
}

static uint8_t *buffer(uint16_t *seg, uint16_t *off)
{
    *seg = BUFFER_SEG;
    *off = BUFFER_OFF;
    return at(BUFFER_SEG, BUFFER_OFF);
}

static const struct bios_access sim = { call, buffer };

static int setup(void **state)
{
    (void)state;
    memset(mem, 0xCC, sizeof(mem));
    memset(&bios, 0, sizeof(bios));
    window = (struct physmem){ (uintptr_t)mem, LOWMEM };
    return 0;
}

static void test_e820_walk(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.e820_entries = 5;
    probe_memory(&m, &sim);
    assert_true(m.have_int12);
    assert_int_equal(m.int12_kb, 639);
    assert_true(m.have_e820);
    assert_int_equal(m.e820_count, 5);
    assert_false(m.e820_truncated);
    assert_int_equal(m.e820[3].base, 0x100000);
    assert_int_equal(m.e820[3].length, 0x1F00000);
    assert_int_equal(m.e820[4].base, 0xFFFC0000u);
    assert_int_equal(m.e820[1].type, 2);
    assert_true(m.have_e801);
    assert_int_equal(m.e801_1m_16m_kb, 15360);
    assert_int_equal(m.e801_above_16m_64k, 480);
    assert_true(m.have_88);
    assert_int_equal(m.ext_kb, 3072);
}

/* Phoenix-style: the call after the last entry fails with CF. */
static void test_e820_ends_with_cf(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.e820_entries = 3;
    bios.e820_end_with_cf = true;
    probe_memory(&m, &sim);
    assert_true(m.have_e820);
    assert_int_equal(m.e820_count, 3);
    assert_false(m.e820_truncated);
}

/* A continuation that never ends is cut, and said to be. */
static void test_e820_endless(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.e820_entries = 5;
    bios.e820_endless = true;
    probe_memory(&m, &sim);
    assert_int_equal(m.e820_count, PROBE_E820_MAX);
    assert_true(m.e820_truncated);
    assert_true(bios.calls < 64);
}

/* A 386 BIOS: no E820, no E801, only 88h and INT 12h. */
static void test_old_bios(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.no_e801 = true;
    probe_memory(&m, &sim);
    assert_false(m.have_e820);
    assert_int_equal(m.e820_count, 0);
    assert_false(m.have_e801);
    assert_true(m.have_88);
    assert_int_equal(m.ext_kb, 3072);
}

/* The 1993 Award BIOS of the 86Box 386: 88h answered by IRET, CF left as it was. */
static void test_88_answered_without_cf(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.no_e801 = true;
    bios.cf_untouched = true;
    probe_memory(&m, &sim);
    assert_true(m.have_88);
    assert_int_equal(m.ext_kb, 7168);
}

/* No handler at all: IRET, nothing changed. Not an answer, whatever CF says. */
static void test_iret_only_is_no_answer(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.iret_only = true;
    probe_memory(&m, &sim);
    assert_false(m.have_e801);
    assert_false(m.have_88);
}

static void test_e801_cxdx(void **state)
{
    struct mem_probe m;
    (void)state;
    bios.e801_in_cxdx = true;
    bios.no_88 = true;
    probe_memory(&m, &sim);
    assert_true(m.have_e801);
    assert_int_equal(m.e801_1m_16m_kb, 15360);
    assert_int_equal(m.e801_above_16m_64k, 480);
    assert_false(m.have_88);
}

static void test_disks(void **state)
{
    struct disk_probe d;
    char buf[12];
    (void)state;
    bios.hdds = 2;
    bios.edd_on_first = true;
    probe_disks(&d, &sim, 0x42);
    assert_int_equal(d.floppy_a, 4);
    assert_int_equal(d.floppy_b, 2);
    assert_string_equal(floppy_type_name(d.floppy_a, buf, sizeof(buf)), "1.44M");
    assert_string_equal(floppy_type_name(d.floppy_b, buf, sizeof(buf)), "1.2M");
    assert_int_equal(d.hdd_count, 2);
    assert_int_equal(d.hdd_probed, 2);
    assert_int_equal(d.hdd[0].drive, 0x80);
    assert_int_equal(d.hdd[0].cylinders, 1024);
    assert_int_equal(d.hdd[0].heads, 16);
    assert_int_equal(d.hdd[0].sectors, 63);
    assert_int_equal(d.hdd[0].edd_version, 0x30);
    assert_true(d.hdd[0].have_edd_params);
    assert_int_equal(d.hdd[0].edd_sectors, 1032192);
    assert_int_equal(d.hdd[0].edd_sector_size, 512);
    assert_int_equal(d.hdd[1].drive, 0x81);
    assert_int_equal(d.hdd[1].cylinders, 615);
    assert_int_equal(d.hdd[1].heads, 4);
    assert_int_equal(d.hdd[1].sectors, 17);
    assert_int_equal(d.hdd[1].edd_version, 0);
    assert_false(d.hdd[1].have_edd_params);
}

static void test_no_hard_disk(void **state)
{
    struct disk_probe d;
    char buf[12];
    (void)state;
    probe_disks(&d, &sim, 0x10);
    assert_int_equal(d.hdd_count, 0);
    assert_int_equal(d.hdd_probed, 0);
    assert_string_equal(floppy_type_name(d.floppy_a, buf, sizeof(buf)), "360K");
    assert_string_equal(floppy_type_name(d.floppy_b, buf, sizeof(buf)), "none");
    assert_string_equal(floppy_type_name(9, buf, sizeof(buf)), "type 9");
}

static void test_vga_vbe2(void **state)
{
    struct video_probe v;
    (void)state;
    probe_video(&v, &sim, &window);
    assert_true(v.have_dcc);
    assert_string_equal(v.adapter, "VGA");
    assert_int_equal(v.dcc_active, 0x08);
    assert_true(v.vbe.valid);
    assert_int_equal(v.vbe.version, 0x0200);
    assert_int_equal(v.vbe.memory_64k, 64);
    assert_string_equal(v.vbe.oem, "Cirrus Logic GD5446");      /* trailing spaces go */
    assert_string_equal(v.vbe.vendor, "Cirrus");
    assert_string_equal(v.vbe.product, "GD5446?");              /* control byte shown */
    assert_string_equal(v.vbe.product_rev, "");                 /* outside the window */
}

static void test_vga_without_vbe(void **state)
{
    struct video_probe v;
    (void)state;
    bios.video = VID_VGA_NO_VBE;
    probe_video(&v, &sim, &window);
    assert_string_equal(v.adapter, "VGA");
    assert_false(v.vbe.valid);
}

static void test_ega(void **state)
{
    struct video_probe v;
    (void)state;
    bios.video = VID_EGA;
    probe_video(&v, &sim, &window);
    assert_false(v.have_dcc);
    assert_string_equal(v.adapter, "EGA");
    assert_int_equal(v.ega_memory_64k, 4);
    assert_false(v.ega_mono);
    assert_false(v.vbe.valid);
}

static void test_mda_and_cga(void **state)
{
    struct video_probe v;
    (void)state;
    bios.video = VID_MDA;
    probe_video(&v, &sim, &window);
    assert_string_equal(v.adapter, "MDA");
    bios.video = VID_CGA;
    probe_video(&v, &sim, &window);
    assert_string_equal(v.adapter, "CGA");
}

/* The VBE reader alone: a block that is not one, and one that lies past the window. */
static void test_vbe_parse_refuses(void **state)
{
    struct vbe_info info;
    (void)state;
    memcpy(mem + 0x8000, "VESX", 4);
    assert_false(vbe_parse(&info, &window, 0x8000));
    assert_false(info.valid);
    memcpy(mem + 0x8000, "VESA\x00\x09", 6);                  /* version 9.0 */
    assert_false(vbe_parse(&info, &window, 0x8000));
    assert_false(vbe_parse(&info, &window, LOWMEM - 100));    /* block runs out */
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_e820_walk),
        T(test_e820_ends_with_cf),
        T(test_e820_endless),
        T(test_old_bios),
        T(test_88_answered_without_cf),
        T(test_iret_only_is_no_answer),
        T(test_e801_cxdx),
        T(test_disks),
        T(test_no_hard_disk),
        T(test_vga_vbe2),
        T(test_vga_without_vbe),
        T(test_ega),
        T(test_mda_and_cga),
        T(test_vbe_parse_refuses),
    };
    return cmocka_run_group_tests_name("probes", tests, NULL, NULL);
}
