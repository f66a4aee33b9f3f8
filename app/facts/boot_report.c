/* Boot report: loader, command line, memory. */
#include "boot_report.h"
#include "../../system/console.h"
#include "../../lib/format.h"

#define ONE_MIB 0x100000u

/* Where the available memory that starts at 1 MiB ends (the loader's "upper" figure
 * counts only that run), and how much of the map above 1 MiB is available in all. */
static uint64_t first_hole(const struct bootinfo *bi, uint64_t *available_above)
{
    uint64_t end = ONE_MIB;
    *available_above = 0;
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        uint64_t top = e->base + e->length;
        if (e->type == MMAP_AVAILABLE && top > ONE_MIB)
            *available_above += top - (e->base > ONE_MIB ? e->base : ONE_MIB);
    }
    for (unsigned pass = 0; pass < bi->mmap_count; pass++) {    /* the map may be unsorted */
        bool grew = false;
        for (unsigned i = 0; i < bi->mmap_count; i++) {
            const struct mmap_entry *e = &bi->mmap[i];
            if (e->type == MMAP_AVAILABLE && e->base <= end && e->base + e->length > end) {
                end = e->base + e->length;
                grew = true;
            }
        }
        if (!grew)
            break;
    }
    return end;
}

/* The command line as the loader gave it, a byte outside printable ASCII as \xNN
 * (app/common/options.c refuses such a line, naming the byte). */
static void say_cmdline(const char *cmdline)
{
    char shown[BOOTINFO_CMDLINE_MAX * 4 + 1];
    size_t n = 0;

    for (const unsigned char *c = (const unsigned char *)cmdline; *c; c++)
        n += (size_t)fmt_snprintf(shown + n, sizeof(shown) - n,
                                  *c >= 0x20 && *c <= 0x7E ? "%c" : "\\x%02X", *c);
    say("boot: command line \"%s\"", shown);
}

void report_boot(const struct bootinfo *bi)
{
    say("boot: multiboot %d, loader \"%s\"", bi->protocol,
        bi->loader[0] ? bi->loader : "unknown");
    say_cmdline(bi->cmdline);
    uint64_t above;
    uint64_t hole = first_hole(bi, &above);
    /* GRUB on UEFI (and any loader on a machine with a hole low in its memory) gives
     * an "upper" figure that stops at the first hole: say so, with the map's total,
     * or the line contradicts the map printed under it (7 MiB on a 512 MiB machine). */
    if (bi->have_mem && bi->mmap_count && above / 1024 > bi->mem_upper_kb)
        say("memory: %u KiB conventional, %u KiB extended up to the first hole at "
            "%08Xh (the loader's map: %u KiB available above 1 MiB)",
            (unsigned)bi->mem_lower_kb, (unsigned)bi->mem_upper_kb, (unsigned)hole,
            (unsigned)(above / 1024));
    else if (bi->have_mem)
        say("memory: %u KiB conventional, %u KiB extended", (unsigned)bi->mem_lower_kb,
            (unsigned)bi->mem_upper_kb);
    if (bi->malformed)
        say("warning: %u malformed piece(s) of boot information ignored", bi->malformed);
}

void report_boot_map(const struct bootinfo *bi)
{
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        uint64_t end = e->base + e->length - 1;
        say("memory: %08X%08X-%08X%08X %s", (unsigned)(e->base >> 32), (unsigned)e->base,
            (unsigned)(end >> 32), (unsigned)end, mmap_type_name(e->type));
    }
    if (bi->mmap_truncated)
        say("memory: map truncated to %u entries", BOOTINFO_MMAP_MAX);
}
