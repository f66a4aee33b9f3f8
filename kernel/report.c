/* Boot report: loader, command line, memory. */
#include "report.h"
#include "console.h"

void report_boot(const struct bootinfo *bi)
{
    say("boot: multiboot %d, loader \"%s\"", bi->protocol,
        bi->loader[0] ? bi->loader : "unknown");
    say("boot: command line \"%s\"", bi->cmdline);
    if (bi->have_mem)
        say("memory: %u KiB conventional, %u KiB extended", (unsigned)bi->mem_lower_kb,
            (unsigned)bi->mem_upper_kb);
    for (unsigned i = 0; i < bi->mmap_count; i++) {
        const struct mmap_entry *e = &bi->mmap[i];
        uint64_t end = e->base + e->length - 1;
        say("memory: %08X%08X-%08X%08X %s", (unsigned)(e->base >> 32), (unsigned)e->base,
            (unsigned)(end >> 32), (unsigned)end, mmap_type_name(e->type));
    }
    if (bi->mmap_truncated)
        say("memory: map truncated to %u entries", BOOTINFO_MMAP_MAX);
    if (bi->malformed)
        say("warning: %u malformed piece(s) of boot information ignored", bi->malformed);
}
