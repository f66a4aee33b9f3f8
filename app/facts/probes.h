/* What the BIOS itself reports about the machine's memory, disks and video, asked
 * by apmoff rather than taken from the boot loader: each interface separately,
 * because on the 386 and 486 boards without E820 they are all there is, and
 * because they disagree in ways worth seeing. Every probe only reads.
 *
 * Written against struct bios_access, so the host tests run them against a
 * simulated BIOS (tests/unit/test_probes.c). */
#ifndef APMOFF_PROBES_H
#define APMOFF_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/e820.h"
#include "../../realmode/bios.h"
#include "../../survey/physmem.h"
#include "../../survey/vbe.h"

#define PROBE_E820_MAX      24
#define PROBE_HDD_MAX       4

struct mem_probe {
    bool have_int12;
    uint16_t int12_kb;          /* INT 12h: conventional memory */
    bool have_e820;
    bool e820_truncated;        /* more entries than PROBE_E820_MAX */
    unsigned e820_count;
    struct e820_entry e820[PROBE_E820_MAX];
    bool have_e801;
    uint16_t e801_1m_16m_kb;    /* INT 15h E801h: KiB between 1 and 16 MiB ... */
    uint16_t e801_above_16m_64k;/* ... and 64 KiB blocks above 16 MiB */
    bool have_88;
    uint16_t ext_kb;            /* INT 15h AH=88h: KiB above 1 MiB */
};

struct hdd_info {
    uint8_t drive;              /* 80h, 81h, ... */
    uint16_t cylinders;         /* INT 13h AH=08h, as the BIOS translates them */
    uint8_t heads;
    uint8_t sectors;
    uint8_t edd_version;        /* INT 13h AH=41h: 01h, 20h, 21h, 30h; 0 without EDD */
    uint16_t edd_subsets;       /* its CX: 1 fixed-disk access, 2 removable, 4 EDD */
    bool have_edd_params;
    uint64_t edd_sectors;       /* INT 13h AH=48h: total sectors ... */
    uint16_t edd_sector_size;   /* ... and their size */
};

struct disk_probe {
    uint8_t floppy_a, floppy_b; /* CMOS 10h: 0 none, 1 360K, 2 1.2M, 3 720K, 4 1.44M,
                                   5 2.88M (6 on some BIOSes); other values as read */
    unsigned hdd_count;         /* what INT 13h AH=08h DL=80h reports */
    unsigned hdd_probed;
    struct hdd_info hdd[PROBE_HDD_MAX];
};

struct video_probe {
    bool have_dcc;              /* INT 10h AX=1A00h answered (VGA and MCGA BIOSes) */
    uint8_t dcc_active, dcc_alternate;
    const char *adapter;        /* "VGA", "EGA", "CGA", "MDA", "MCGA", "PGA", ... */
    bool ega_mono;              /* EGA: INT 10h AH=12h BL=10h's BH */
    uint8_t ega_memory_64k;     /* EGA: its BL, + 1 */
    struct vbe_info vbe;        /* INT 10h AX=4F00h, asked of VGA-class adapters */
};

void probe_memory(struct mem_probe *m, const struct bios_access *b);
/* cmos_floppy: CMOS register 10h, read by the caller (the probes know no ports). */
void probe_disks(struct disk_probe *d, const struct bios_access *b, uint8_t cmos_floppy);
/* pm reads the VBE block's far pointers (the video ROM, or the block itself). */
void probe_video(struct video_probe *v, const struct bios_access *b,
                 const struct physmem *pm);

/* "360K", "1.2M", "720K", "1.44M", "2.88M", "none" or "type N". */
const char *floppy_type_name(uint8_t type, char *buf, unsigned size);

#endif
