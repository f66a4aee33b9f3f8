/* loader_main: the floppy loader's whole run, as a list of named steps.
 *
 * Called by loader/head.asm in real mode with every segment at 0 and unreal mode on,
 * the boot drive as argument. The boot sector at 7C00h still holds the medium's BPB.
 * Memory below 1 MiB: loader/layout.h. Every failure is named on
 * the screen and COM1 and ends in loader_halt(): never a reset, never a silent hang. */
#include "bios.h"
#include "console.h"
#include "disk.h"
#include "fat.h"
#include "layout.h"
#include "lz4.h"
#include "mbinfo.h"
#include "mbload.h"
#include "memory.h"
#include "menu.h"
#include "menuui.h"
#include "version.h"
#include "../lib/format.h"
#include "../lib/multiboot.h"
#include "../lib/pc.h"
#include "../lib/string.h"

void loader_main(uint32_t drive) __attribute__((noreturn));

#define MEG             0x100000u
#define RUNS_MAX        64

static struct fat_volume vol;
static uint8_t *fat;
static struct menu menu;
static char words[MENU_WORDS_MAX + 1];
static char cmdline[APMOFF_CMDLINE_MAX];
static struct memory mem;
static char loader_name[40];

static void __attribute__((noreturn, format(printf, 1, 2))) halt(const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    fmt_vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    say("halted: %s", why);
    loader_halt();
}

/* fat_find()'s way to the disk: a failure is 1, told apart from fat_find()'s own -1. */
static int read_sectors(void *ctx, uint32_t lba, unsigned count, void *dest)
{
    return disk_read(lba, count, dest, ctx) ? 1 : 0;
}

static void __attribute__((noreturn)) read_failed(const char *what, const struct disk_error *e)
{
    halt("cannot read %s: sector %u (cylinder %u, head %u, sector %u): error %02Xh, %s, "
         "after 5 tries", what, (unsigned)e->lba, e->cylinder, e->head, e->sector,
         e->status, disk_status_name(e->status));
}

static const char *format_name(uint32_t sectors)
{
    switch (sectors) {
    case 720: return "360 KB";
    case 1440: return "720 KB";
    case 2400: return "1.2 MB";
    case 2880: return "1.44 MB";
    case 5760: return "2.88 MB";
    }
    return "unusual";
}

/* Tenths of a second since a tick count, for the lines that say how long a step took. */
static unsigned tenths_since(uint32_t start)
{
    return (unsigned)((ticks() - start) * 100 / BIOS_TICKS_PER_10S);
}

static void open_disk(uint8_t drive)
{
    const char *why;
    struct disk_error e;
    if (fat_mount(&vol, phys(LOADER_BOOT_SECTOR), &why))
        halt("the boot disk's file system: %s", why);
    disk_open(drive, &vol);
    fat = phys(LOADER_FAT_BUFFER);
    if (serial_kind())
        say("drive %02Xh: a %s disk (%u sectors a track, %u heads), COM1 %s at %Xh",
            drive, format_name(vol.total_sectors), vol.track_sectors, vol.heads,
            serial_kind(), serial_base());
    else
        say("drive %02Xh: a %s disk (%u sectors a track, %u heads), COM1 absent", drive,
            format_name(vol.total_sectors), vol.track_sectors, vol.heads);
    uint8_t handed = *(const uint8_t *)phys(LOADER_BOOT_SECTOR + BOOT_BIOS_DRIVE);
    if (handed != drive)
        say("drive %02Xh: the BIOS handed DL=%02Xh, no drive number: the disk's own "
            "instead", drive, handed);
    if (disk_read(vol.fat_lba, vol.fat_sectors, fat, &e))
        read_failed("the FAT", &e);
}

/* A file's sectors, as runs of consecutive sectors; returns its size. */
static uint32_t find_file(const char *path, uint32_t max, struct fat_run *runs,
                          unsigned *count)
{
    struct fat_file f;
    struct disk_error e;
    const char *why = "";

    int err = fat_find(&vol, fat, read_sectors, &e, path, &f, &why);
    if (err > 0)
        read_failed(path, &e);
    if (err)
        halt("%s: %s", path, why);
    if (f.size > max)
        halt("%s: %u bytes, more than the %u the loader has room for", path,
             (unsigned)f.size, (unsigned)max);
    if (fat_runs(&vol, fat, &f, runs, RUNS_MAX, count, &why))
        halt("%s: %s", path, why);
    return f.size;
}

/* Reads a file whole to dest; returns its size. */
static uint32_t read_file(const char *path, uint8_t *dest, uint32_t max)
{
    struct fat_run runs[RUNS_MAX];
    struct disk_error e;
    unsigned count;
    uint32_t size = find_file(path, max, runs, &count);
    for (unsigned i = 0; i < count; i++) {
        if (disk_read(runs[i].lba, runs[i].count, dest, &e))
            read_failed(path, &e);
        dest += runs[i].count * FAT_SECTOR;
    }
    return size;
}

/* A file, where it lies in the disk's mirror when it lies there in one run (the
 * kernel, as iso/mkfloppy.sh writes it); else read to LOADER_FILE_BUFFER, the mirror's
 * memory, which is given up for it. */
static const uint8_t *map_file(const char *path, uint32_t max, uint32_t *size)
{
    struct fat_run runs[RUNS_MAX];
    struct disk_error e;
    unsigned count;
    *size = find_file(path, max, runs, &count);
    if (count == 1) {
        const uint8_t *where = disk_map(runs[0].lba, runs[0].count, &e);
        if (where)
            return where;
    }
    disk_mirror_off();
    read_file(path, phys(LOADER_FILE_BUFFER), max);
    return phys(LOADER_FILE_BUFFER);
}

/* The menu file's first complaint, for the menu's status line: the menu clears the
 * screen, and a person must see why it does not count down. */
static char first_complaint[80];

static void complain(void *ctx, unsigned line, const char *why)
{
    (void)ctx;
    if (line)
        say("/boot/menu.cfg, line %u: %s; the line is left out", line, why);
    else
        say("/boot/menu.cfg: %s", why);
    if (first_complaint[0])
        return;
    if (line)
        fmt_snprintf(first_complaint, sizeof(first_complaint), "MENU.CFG line %u left out: %s",
                     line, why);
    else
        fmt_snprintf(first_complaint, sizeof(first_complaint), "MENU.CFG: %s", why);
}

static void read_menu(void)
{
    char *menu_text = phys(LOADER_MENU_BUFFER);
    uint32_t size = read_file("/boot/menu.cfg", (uint8_t *)menu_text, MENU_FILE_MAX);
    menu_text[size] = '\0';
    if (!menu_parse(&menu, menu_text, complain, 0))
        halt("/boot/menu.cfg has no entry to boot");
    menu.hold = menu.errors > 0;        /* a person must see the complaints: no countdown */
}

/* The kernel file, read and, when LZ4-packed, unpacked; returns where it lies. */
static const uint8_t *load_kernel_file(uint32_t *size)
{
    uint32_t start = ticks(), n;
    const uint8_t *file = map_file(menu.kernel, LOADER_FILE_MAX, &n);
    const struct disk_stats *st = disk_stats();
    unsigned t = tenths_since(start);
    say("%s: %u bytes in %u.%u s (%u tracks read, %u retries)", menu.kernel, (unsigned)n,
        t / 10, t % 10, (unsigned)st->tracks, (unsigned)st->retries);
    if (!lz4_magic(file, n)) {
        *size = n;
        return file;
    }
    const char *why;
    uint8_t *out = phys(LOADER_UNPACK_BUFFER);
    start = ticks();
    if (lz4_unpack(file, n, out, mem.ebda - LOADER_UNPACK_BUFFER, size, &why))
        halt("%s is not what lz4 wrote (a damaged or cut-short file): %s", menu.kernel, why);
    t = tenths_since(start);
    say("unpacked: %u bytes in %u.%u s, its XXH32 checksum and length as lz4 wrote them",
        (unsigned)*size, t / 10, t % 10);
    return out;
}

void loader_main(uint32_t drive)
{
    console_init();
    say("version %s", loader_version);
    open_disk((uint8_t)drive);
    read_menu();

    unsigned chosen = menu_run(&menu, loader_version,
                               first_complaint[0] ? first_complaint : 0, words, sizeof(words));
    /* The kernel refuses a command line that does not fit its buffer; say so here,
     * where the entry can still be edited shorter next time. */
    size_t length = strlen(menu.kernel) + 1 + strlen(words);
    if (length >= APMOFF_CMDLINE_MAX)
        halt("entry %u's words and the kernel's path make a %u-byte command line; the "
             "kernel takes at most %u", chosen + 1, (unsigned)length,
             APMOFF_CMDLINE_MAX - 1);
    fmt_snprintf(cmdline, sizeof(cmdline), "%s %s", menu.kernel, words);
    say("booting %u, \"%s\": %s", chosen + 1, menu.entry[chosen].title, words);

    memory_detect(&mem);
    say("memory: %u KiB + %u KiB (%s%s)", (unsigned)mem.lower_kb, (unsigned)mem.upper_kb,
        mem.upper_from, mem.map_count ? "" : mem.map_dropped
        ? "; the E820h map has no memory at 1 MiB: one made of the sizes"
        : "; no E820h map: one made of the sizes");
    uint32_t size;
    const uint8_t *file = load_kernel_file(&size);

    struct mbload_plan plan;
    const char *why;
    /* Memory past 4 GiB is of no use to a 32-bit kernel: the top stops below it. */
    uint32_t top = mem.upper_kb < (0xFFFFF000u - MEG) / 1024 ? MEG + mem.upper_kb * 1024
                                                             : 0xFFFFF000u;
    if (mbload_plan(file, size, MEG, top, &plan, &why))
        halt("%s: %s", menu.kernel, why);
    const char *a20 = a20_enable();
    if (!a20)
        halt("the A20 gate will not open (BIOS 2401h, the 8042 and port 92h tried): "
             "memory above 1 MiB cannot be reached");
    for (unsigned i = 0; i < plan.count; i++) {
        const struct mbload_piece *p = &plan.piece[i];
        memcpy(phys(p->dest), file + p->offset, p->file_bytes);
        memset(phys(p->dest + p->file_bytes), 0, p->mem_bytes - p->file_bytes);
    }

    fmt_snprintf(loader_name, sizeof(loader_name), "apmoff loader %s", loader_version);
    struct mbinfo_in in = {
        .lower_kb = mem.lower_kb, .upper_kb = mem.upper_kb, .map_count = mem.map_count,
        .map = mem.map, .drive = (uint8_t)drive, .cmdline = cmdline, .loader = loader_name,
    };
    if (!mbinfo_build(&in, phys(LOADER_INFO_BUFFER), LOADER_INFO_MAX, LOADER_INFO_BUFFER))
        halt("the multiboot information does not fit its %u bytes", LOADER_INFO_MAX);
    say("A20 %s; the kernel at %08Xh-%08Xh, entry %08Xh", a20, (unsigned)plan.low,
        (unsigned)plan.high, (unsigned)plan.entry);
    boot_kernel(plan.entry, LOADER_INFO_BUFFER);
}
