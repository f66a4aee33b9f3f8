/* Floppy drive types and the BIOS's hard disks: see probes.h.
 *
 * INT 13h AH=08h on drive 80h gives the number of hard disks in DL, and each
 * drive's geometry as the BIOS translates it; AH=41h asks for the enhanced disk
 * drive services and AH=48h for the drive's real size. Nothing here reads or
 * writes a sector. */
#include "probes.h"
#include "../../lib/format.h"
#include "../../lib/pc.h"
#include "../../lib/string.h"
#include "../../lib/le.h"

#define INT13_GET_PARAMS    0x08
#define INT13_EDD_CHECK     0x41
#define INT13_EDD_PARAMS    0x48
#define EDD_CHECK_IN        0x55AA
#define EDD_CHECK_OUT       0xAA55
#define EDD_PARAMS_SIZE     0x1A        /* the EDD 1.1 result: enough for the size */
#define HDD_FIRST           0x80

static bool ok(const struct bios_access *b, uint8_t vector, struct biosregs *r)
{
    const char *why;
    return b->call(vector, r, r, &why) && !(r->eflags & X86_EFLAGS_CF);
}

static void probe_edd(struct hdd_info *h, const struct bios_access *b)
{
    struct biosregs r;
    initregs(&r);
    r.ah = INT13_EDD_CHECK;
    r.bx = EDD_CHECK_IN;
    r.dl = h->drive;
    if (!ok(b, BIOS_INT_DISK, &r) || r.bx != EDD_CHECK_OUT)
        return;
    h->edd_version = r.ah;
    h->edd_subsets = r.cx;
    if (!(h->edd_subsets & 1))          /* no fixed-disk access subset: no AH=48h */
        return;

    uint16_t seg, off;
    uint8_t *buf = b->buffer(&seg, &off);
    memset(buf, 0, EDD_PARAMS_SIZE);
    buf[0] = EDD_PARAMS_SIZE;
    initregs(&r);
    r.ah = INT13_EDD_PARAMS;
    r.dl = h->drive;
    r.ds = seg;
    r.si = off;
    if (!ok(b, BIOS_INT_DISK, &r))
        return;
    h->have_edd_params = true;
    h->edd_sectors = le64(buf + 16);
    h->edd_sector_size = le16(buf + 24);
}

void probe_disks(struct disk_probe *d, const struct bios_access *b, uint8_t cmos_floppy)
{
    struct biosregs r;

    memset(d, 0, sizeof(*d));
    d->floppy_a = cmos_floppy >> 4;
    d->floppy_b = cmos_floppy & 0x0F;

    initregs(&r);
    r.ah = INT13_GET_PARAMS;
    r.dl = HDD_FIRST;
    if (!ok(b, BIOS_INT_DISK, &r))
        return;                         /* no hard disk (or no INT 13h for them) */
    d->hdd_count = r.dl;
    for (unsigned i = 0; i < d->hdd_count && i < PROBE_HDD_MAX; i++) {
        struct hdd_info *h = &d->hdd[d->hdd_probed];
        initregs(&r);
        r.ah = INT13_GET_PARAMS;
        r.dl = (uint8_t)(HDD_FIRST + i);
        if (!ok(b, BIOS_INT_DISK, &r))
            continue;
        h->drive = (uint8_t)(HDD_FIRST + i);
        h->cylinders = (uint16_t)((r.ch | (r.cl & 0xC0) << 2) + 1);
        h->sectors = r.cl & 0x3F;
        h->heads = (uint8_t)(r.dh + 1);
        probe_edd(h, b);
        d->hdd_probed++;
    }
}

const char *floppy_type_name(uint8_t type, char *buf, unsigned size)
{
    static const char *const names[] = { "none", "360K", "1.2M", "720K", "1.44M",
                                         "2.88M", "2.88M" };
    if (type < sizeof(names) / sizeof(names[0]))
        return names[type];
    fmt_snprintf(buf, size, "type %u", type);
    return buf;
}
