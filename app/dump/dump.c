/* action=dump: see dump.h. */
#include "dump.h"
#include "entries.h"
#include "../../lib/crc32.h"
#include "../../lib/dumpline.h"
#include "../../lib/format.h"
#include "../../lib/sha256.h"
#include "../../survey/acpi_list.h"
#include "../../survey/bios32.h"
#include "../../survey/flash.h"
#include "../../survey/optionrom.h"
#include "../../system/console.h"

#define BAUD_BYTES_PER_S    11520u          /* 115200 baud, 10 bits a character */
#define LINE_CHARS          (13 + DUMPLINE_MAX - 1 + 2)     /* "apmoff: dump ", CR LF */
#define SEGMENT             0x10000u
_Static_assert(SEGMENT == FLASH_PROBE, "a segment is the flash probe's window");
#define PROGRESS_FROM       0x8000u         /* blocks of 9 s and more show quarters */

struct block {
    const char *kind;                       /* docs/dump.md's kinds */
    uint32_t addr, length;
    const char *what;
};

/* The blocks are found twice, once to plan (how many, how long) and once to send, so
 * that none is kept: a list of every possible block would cost the kernel 12 KiB of
 * BSS, and it must load in 3 MiB. */
static struct {
    bool send;                  /* false: only count */
    unsigned count, total;      /* blocks met in this pass; the plan's count */
    uint32_t bytes, lines;
} walk;
static char flash_note[128];            /* what find_flash() learnt, for the screen */

static void dump_block(unsigned number, const struct block *b);

static void add(const char *kind, uint32_t addr, uint32_t length, const char *what)
{
    if (!length)
        return;
    const struct block b = { kind, addr, length, what };
    walk.count++;
    if (!walk.send) {
        walk.bytes += length;
        walk.lines += (length + DUMPLINE_BYTES - 1) / DUMPLINE_BYTES + 2;
        return;
    }
    say("dump: %u of %u: %s at %08Xh, %u bytes", walk.count, walk.total, kind,
        (unsigned)addr, (unsigned)length);
    dump_block(walk.count, &b);
}

static const uint8_t *at(uint32_t addr)
{
    return (const uint8_t *)(uintptr_t)addr;
}

/* The BIOS as the CPU's reset vector sees it: the whole part where the chipset decodes
 * the 32-bit address space (a machine with PCI), and how F0000h compares with its last
 * 64 KiB (the copy a BIOS runs from is often shadow RAM it has written to). */
static void find_flash(const struct survey *sv, const struct physmem *pm)
{
    struct flash_probe f;
    char end[48], what[64];

    if (!sv->pci.count) {
        fmt_snprintf(flash_note, sizeof(flash_note), "the flash below 4 GiB: not probed: "
                     "no PCI, and a bus before PCI may wrap at 16 MiB onto RAM");
        return;
    }
    if (flash_probe(pm, &f) == FLASH_UNKNOWN) {
        fmt_snprintf(flash_note, sizeof(flash_note), "the flash below 4 GiB: its size "
                     "cannot be known (%s)", flash_end_text(&f, end, sizeof(end)));
        return;
    }
    fmt_snprintf(what, sizeof(what), "the BIOS's flash, %u KiB: %s",
                 (unsigned)(f.size >> 10), flash_end_text(&f, end, sizeof(end)));
    add("rom", f.base, f.size, what);
    unsigned diff = flash_window_differing(at(0xF0000),
                                           at((uint32_t)(PHYSMEM_4G - SEGMENT)));
    if (diff)
        fmt_snprintf(flash_note, sizeof(flash_note), "F0000h-FFFFFh differs from the "
                     "flash's last 64 KiB in %u bytes: shadow RAM the BIOS wrote to", diff);
    else
        fmt_snprintf(flash_note, sizeof(flash_note), "F0000h-FFFFFh equals the flash's "
                     "last 64 KiB");
}

static void find_blocks(const struct survey *sv)
{
    const struct physmem pm = { 0, PHYSMEM_4G };
    struct option_rom roms[OPTIONROM_MAX];     /* on the stack: BSS is what GRUB */
    struct acpi_list acpi;                      /* must find room for in 3 MiB */
    struct bios32 b32;
    char what[64];

    add("rom", 0xF0000, SEGMENT, "system BIOS, F0000h-FFFFFh as mapped");
    if (flash_window_blank(at(0xE0000)) < 0)
        add("rom", 0xE0000, SEGMENT, "E0000h-EFFFFh as mapped: the BIOS's, or RAM");
    find_flash(sv, &pm);
    unsigned n = optionrom_scan(&pm, roms, OPTIONROM_MAX);
    for (unsigned i = 0; i < n; i++) {
        fmt_snprintf(what, sizeof(what), "option ROM, %u bytes by its header, sum %s%s",
                     (unsigned)roms[i].length, roms[i].sum_ok ? "good" : "bad",
                     roms[i].cut ? ", cut at EFFFFh" : "");
        add("optionrom", roms[i].addr, roms[i].length, what);
    }
    acpi_list(&acpi, &pm, &sv->acpi);
    for (unsigned i = 0; i < acpi.count; i++)
        add("acpi", acpi.table[i].addr, acpi.table[i].length, acpi.table[i].sig);
    const struct smbios_info *sm = &sv->smbios;
    if (sm->entry_addr) {
        /* The entry point's own length byte: 1Fh for 2.x, 18h for 3.x; DMI's is 15. */
        const uint8_t *e = (const uint8_t *)(uintptr_t)sm->entry_addr;
        uint32_t len = sm->kind == SMBIOS_ENTRY_3 ? e[6] :
                       sm->kind == SMBIOS_ENTRY_2 ? e[5] : 15;
        add("smbios", sm->entry_addr, len, "SMBIOS entry point");
        if (sm->table_addr && sm->table_addr < PHYSMEM_4G)
            add("smbios", (uint32_t)sm->table_addr, sm->table_len, "SMBIOS structure table");
    }
    if (bios32_find(&pm, &b32)) {
        fmt_snprintf(what, sizeof(what), "BIOS32 directory, revision %u, entry %08Xh",
                     b32.revision, (unsigned)b32.entry);
        add("entry", b32.addr, b32.length, what);
    }
}

/* One block: header, lines of DUMPLINE_BYTES, end with the block's CRC-32 and SHA-256. */
static void dump_block(unsigned number, const struct block *b)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)b->addr;
    static struct sha256 sha;
    uint8_t digest[SHA256_DIGEST];
    char hex[2 * SHA256_DIGEST + 1], line[DUMPLINE_MAX];
    uint32_t crc = 0;

    say_log("dump: block %u: %s at %08Xh, %u bytes: %s", number, b->kind,
            (unsigned)b->addr, (unsigned)b->length, b->what);
    sha256_start(&sha);
    uint32_t quarter = b->length >= PROGRESS_FROM ? b->length / 4 : 0, next = quarter;
    for (uint32_t at = 0; at < b->length; at += DUMPLINE_BYTES) {
        if (quarter && at >= next && next < b->length) {
            /* The screen alone: a person watching a 256 KiB flash go (70 s) sees it
             * move; COM1 keeps only the block's own lines. */
            char progress[64];
            fmt_snprintf(progress, sizeof(progress), "apmoff: dump: block %u: %u%%\n",
                         number, (unsigned)(next / quarter * 25));
            console_screen_write(progress);
            next += quarter;
        }
        /* Each piece is read once, into RAM: the check, the digest and the line are of
         * the same bytes even where the firmware's own change under us. */
        uint8_t piece[DUMPLINE_BYTES];
        unsigned len = b->length - at < DUMPLINE_BYTES ? b->length - at : DUMPLINE_BYTES;
        for (unsigned i = 0; i < len; i++)
            piece[i] = p[at + i];
        crc = crc32(crc, piece, len);
        sha256_feed(&sha, piece, len);
        dumpline_format(line, b->addr + at, piece, len);
        say_log("dump %s", line);
    }
    sha256_finish(&sha, digest);
    sha256_hex(digest, hex);
    say_log("dump: block %u: end, crc32 %08x, sha256 %s", number, (unsigned)crc, hex);
}

/* The blocks, and what sending them takes: "18 blocks, 454355 bytes, about 120 s
 * at 115200 baud". */
static void plan(const struct survey *sv, char *text, unsigned size)
{
    walk.send = false;
    walk.count = walk.bytes = walk.lines = 0;
    find_blocks(sv);
    walk.total = walk.count;
    fmt_snprintf(text, size, "%u blocks, %u bytes, about %u s at 115200 baud", walk.total,
                 (unsigned)walk.bytes, (unsigned)((walk.lines * LINE_CHARS +
                                                   BAUD_BYTES_PER_S - 1) / BAUD_BYTES_PER_S));
}

void dump_prospect(const struct survey *sv)
{
    char text[96];

    plan(sv, text, sizeof(text));
    say("check: dump: action=dump would send %s; %s", text, flash_note);
}

void action_dump(struct survey *sv, struct apm_state *apm)
{
    char text[96];

    facts_need(sv, FACTS_ACPI | FACTS_SMBIOS | FACTS_PCI);
    plan(sv, text, sizeof(text));
    say("dump: %s", flash_note);
    say("dump: %s", text);
    say("dump: note: the SMBIOS table and a ROM may hold serial numbers, UUIDs and asset "
        "tags; apmoff-collect keeps them out of its reports");
    walk.send = true;
    walk.count = 0;
    find_blocks(sv);
    dump_entries(sv, apm);
    say("dump: done: %u blocks", walk.count);
}
