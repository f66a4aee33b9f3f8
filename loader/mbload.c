/* The multiboot kernel's load plan: see mbload.h. ELF offsets from the System V ABI
 * (ELF header and program header of ELFCLASS32). */
#include "mbload.h"
#include "../lib/le.h"

#define EI_CLASS        4
#define EI_DATA         5
#define ELFCLASS32      1
#define ELFDATA2LSB     1
#define ET_EXEC         2
#define EM_386          3
#define PT_LOAD         1
#define E_TYPE          16
#define E_MACHINE       18
#define E_ENTRY         24
#define E_PHOFF         28
#define E_PHENTSIZE     42
#define E_PHNUM         44
#define ELF_HEADER      52
#define PH_SIZE         32
#define P_TYPE          0
#define P_OFFSET        4
#define P_PADDR         12
#define P_FILESZ        16
#define P_MEMSZ         20

/* The a.out kludge's words after magic, flags and checksum. */
#define MB_HEADER_ADDR  12
#define MB_LOAD_ADDR    16
#define MB_LOAD_END     20
#define MB_BSS_END      24
#define MB_ENTRY        28
#define MB_AOUT_HEADER  32

static int refuse(const char **why, const char *what)
{
    *why = what;
    return -1;
}

/* Adds a piece, checking that it lies in [min, max) and inside the file. */
static int add(struct mbload_plan *p, uint32_t dest, uint32_t offset, uint32_t file_bytes,
               uint32_t mem_bytes, uint32_t size, uint32_t min, uint32_t max,
               const char **why)
{
    if (file_bytes > mem_bytes || offset > size || file_bytes > size - offset)
        return refuse(why, "a segment runs past the end of the file (a cut-short file?)");
    if (!mem_bytes)
        return 0;
    if (dest < min || dest > max || mem_bytes > max - dest)
        return refuse(why, "a segment lies outside the memory the kernel may have "
                           "(below 1 MiB, or past the machine's memory)");
    if (p->count == MBLOAD_PIECES_MAX)
        return refuse(why, "more loadable segments than the loader takes (8)");
    for (unsigned i = 0; i < p->count; i++) {
        const struct mbload_piece *q = &p->piece[i];
        if (dest < q->dest + q->mem_bytes && q->dest < dest + mem_bytes)
            return refuse(why, "two segments overlap");
    }
    p->piece[p->count++] = (struct mbload_piece){ dest, offset, file_bytes, mem_bytes };
    if (!p->high || dest < p->low)
        p->low = dest;
    if (dest + mem_bytes > p->high)
        p->high = dest + mem_bytes;
    return 0;
}

static int plan_aout(const uint8_t *file, uint32_t size, uint32_t min, uint32_t max,
                     struct mbload_plan *p, const char **why)
{
    const uint8_t *h = file + p->header_offset;
    if (size - p->header_offset < MB_AOUT_HEADER)
        return refuse(why, "its multiboot header is cut short");
    uint32_t header_addr = le32(h + MB_HEADER_ADDR), load = le32(h + MB_LOAD_ADDR);
    uint32_t load_end = le32(h + MB_LOAD_END), bss_end = le32(h + MB_BSS_END);
    if (load > header_addr || header_addr - load > p->header_offset)
        return refuse(why, "its multiboot header's addresses do not fit the file");
    uint32_t offset = p->header_offset - (header_addr - load);
    uint32_t file_bytes = load_end ? load_end - load : size - offset;
    uint32_t end = bss_end ? bss_end : load + file_bytes;
    if ((load_end && load_end < load) || end < load + file_bytes)
        return refuse(why, "its multiboot header's addresses run backwards");
    p->entry = le32(h + MB_ENTRY);
    return add(p, load, offset, file_bytes, end - load, size, min, max, why);
}

static int plan_elf(const uint8_t *file, uint32_t size, uint32_t min, uint32_t max,
                    struct mbload_plan *p, const char **why)
{
    if (size < ELF_HEADER || file[0] != 0x7F || file[1] != 'E' || file[2] != 'L' ||
        file[3] != 'F')
        return refuse(why, "it is neither an ELF file nor has the a.out kludge's addresses");
    if (file[EI_CLASS] != ELFCLASS32 || file[EI_DATA] != ELFDATA2LSB ||
        le16(file + E_TYPE) != ET_EXEC || le16(file + E_MACHINE) != EM_386)
        return refuse(why, "it is not a 32-bit x86 ELF executable");
    uint32_t phoff = le32(file + E_PHOFF), phnum = le16(file + E_PHNUM);
    if (le16(file + E_PHENTSIZE) != PH_SIZE || phoff > size ||
        phnum > (size - phoff) / PH_SIZE)
        return refuse(why, "its program headers run past the end of the file");
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = file + phoff + i * PH_SIZE;
        if (le32(ph + P_TYPE) != PT_LOAD)
            continue;
        if (add(p, le32(ph + P_PADDR), le32(ph + P_OFFSET), le32(ph + P_FILESZ),
                le32(ph + P_MEMSZ), size, min, max, why))
            return -1;
    }
    if (!p->count)
        return refuse(why, "it has nothing to load (no PT_LOAD segment)");
    p->entry = le32(file + E_ENTRY);
    return 0;
}

int mbload_plan(const uint8_t *file, uint32_t size, uint32_t min_addr, uint32_t max_addr,
                struct mbload_plan *p, const char **why)
{
    *p = (struct mbload_plan){ 0 };
    uint32_t search = size < MB1_SEARCH ? size : MB1_SEARCH;
    int found = 0;
    for (uint32_t at = 0; at + 12 <= search && !found; at += 4) {
        uint32_t magic = le32(file + at), flags = le32(file + at + 4);
        if (magic == MB1_HEADER_MAGIC && magic + flags + le32(file + at + 8) == 0) {
            p->header_offset = at;
            p->flags = flags;
            found = 1;
        }
    }
    if (!found)
        return refuse(why, "it is not a multiboot kernel: no multiboot header in its "
                           "first 8 KiB");
    if (p->flags & 0xFFFF & ~MB1_SUPPORTED)
        return refuse(why, (p->flags & MB1_VIDEO_MODE)
                               ? "it asks for a graphics mode, which this loader does not set"
                               : "its multiboot header requires a feature this loader "
                                 "does not have");
    p->aout_kludge = (p->flags & MB1_AOUT_KLUDGE) != 0;
    if ((p->aout_kludge ? plan_aout : plan_elf)(file, size, min_addr, max_addr, p, why))
        return -1;
    for (unsigned i = 0; i < p->count; i++) {
        const struct mbload_piece *q = &p->piece[i];
        if (p->entry >= q->dest && p->entry < q->dest + q->file_bytes)
            return 0;
    }
    return refuse(why, "its entry point lies outside what it loads");
}
