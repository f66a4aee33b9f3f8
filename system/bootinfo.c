/* Multiboot 1 and 2 information parsing: see bootinfo.h. Also compiled on the host. */
#include "bootinfo.h"

#include <stddef.h>
#include "../lib/le.h"

#define MB1_MMAP_MAX_BYTES      4096    /* far more than any real map */

/* Multiboot 2 tags. */
#define MB2_TAG_END             0
#define MB2_TAG_CMDLINE         1
#define MB2_TAG_LOADER          2
#define MB2_TAG_BASIC_MEMINFO   4
#define MB2_TAG_MMAP            6
#define MB2_TAG_FRAMEBUFFER     8
#define MB2_FB_TYPE_RGB         1
#define MB2_TAG_EFI32           11
#define MB2_TAG_EFI64           12
#define MB2_TAG_ACPI_OLD        14
#define MB2_TAG_ACPI_NEW        15
#define MB2_TAG_EFI_MMAP        17
#define MB2_TAG_EFI_BS          18
#define MB2_MAX_TOTAL           (64u * 1024)

static const uint8_t *at(uintptr_t mem_base, uint32_t addr)
{
    return (const uint8_t *)(mem_base + addr);
}

/* Copies a NUL-terminated string of at most max bytes; true when it did not fit. The
 * loader's name keeps printable ASCII only ('?' for the rest), so nothing odd reaches
 * the console; the command line keeps its bytes as they are, for app/common/options.c to
 * refuse by name (a '?' there would make "M\xfcller" a label "M?ller"). */
static bool copy_bytes(char *dst, size_t size, const uint8_t *src, size_t max, bool raw)
{
    size_t n = 0, i = 0;
    for (; i < max && src[i] && n + 1 < size; i++)
        dst[n++] = raw || (src[i] >= 0x20 && src[i] < 0x7F) ? (char)src[i] : '?';
    dst[n] = '\0';
    return i < max && src[i];
}

static void add_mmap(struct bootinfo *bi, uint64_t base, uint64_t length, uint32_t type)
{
    if (bi->mmap_count == BOOTINFO_MMAP_MAX) {
        bi->mmap_truncated = true;
        return;
    }
    bi->mmap[bi->mmap_count++] = (struct mmap_entry){ base, length, type };
}

static void parse_mb1(struct bootinfo *bi, const uint8_t *info, uintptr_t mem_base)
{
    uint32_t flags = le32(info + MB1_OFF_FLAGS);

    if (flags & MB1_FLAG_MEM) {
        bi->have_mem = true;
        bi->mem_lower_kb = le32(info + MB1_OFF_MEM_LOWER);
        bi->mem_upper_kb = le32(info + MB1_OFF_MEM_UPPER);
    }
    if ((flags & MB1_FLAG_CMDLINE) && le32(info + MB1_OFF_CMDLINE))
        bi->cmdline_truncated = copy_bytes(bi->cmdline, sizeof(bi->cmdline),
                                            at(mem_base, le32(info + MB1_OFF_CMDLINE)),
                                            BOOTINFO_CMDLINE_MAX, true);
    if ((flags & MB1_FLAG_LOADER) && le32(info + MB1_OFF_LOADER))
        copy_bytes(bi->loader, sizeof(bi->loader),
                   at(mem_base, le32(info + MB1_OFF_LOADER)), BOOTINFO_LOADER_MAX * 4, false);
    if (flags & MB1_FLAG_MMAP) {
        uint32_t length = le32(info + MB1_OFF_MMAP_LENGTH);
        const uint8_t *p = at(mem_base, le32(info + MB1_OFF_MMAP_ADDR));
        if (length > MB1_MMAP_MAX_BYTES) {
            bi->malformed++;
            length = MB1_MMAP_MAX_BYTES;
        }
        /* Each entry: u32 size (not counting itself), u64 base, u64 length, u32 type. */
        for (uint32_t off = 0; off + 24 <= length;) {
            uint32_t size = le32(p + off);
            if (size < 20 || size > 256) {
                bi->malformed++;
                break;
            }
            add_mmap(bi, le64(p + off + 4), le64(p + off + 12), le32(p + off + 20));
            off += size + 4;
        }
    }
}

static void parse_mb2_mmap(struct bootinfo *bi, const uint8_t *tag, uint32_t size)
{
    uint32_t entry_size = size >= 16 ? le32(tag + 8) : 0;
    if (entry_size < 24 || entry_size > 256) {
        bi->malformed++;
        return;
    }
    for (uint32_t off = 16; off + entry_size <= size; off += entry_size)
        add_mmap(bi, le64(tag + off), le64(tag + off + 8), le32(tag + off + 16));
}

/* Tag 8: u64 addr, u32 pitch, width, height, u8 bpp, type, u16 reserved, then for RGB
 * the position and size of each colour's bits. Only what we can draw on is kept. */
/* Tag 17: descriptor size, version, then the descriptors as GetMemoryMap() gave them
 * (lib/efi_mmap.h). Only the runtime regions are kept: the rest is free memory to the
 * kernel by now. */
static void parse_mb2_efi_mmap(struct bootinfo *bi, const uint8_t *tag, uint32_t size)
{
    uint32_t desc_size = size >= 16 ? le32(tag + 8) : 0;

    if (desc_size < EFI_MEMORY_DESCRIPTOR_MIN || desc_size > 4096) {
        bi->malformed++;
        return;
    }
    bi->efi_mmap = true;
    for (uint32_t off = 16; off + desc_size <= size; off += desc_size) {
        const uint8_t *d = tag + off;
        bi->efi_mmap_count++;
        if (!(le64(d + 32) & EFI_MEMORY_RUNTIME))
            continue;
        if (bi->efi_runtime_count == BOOTINFO_EFI_RUNTIME_MAX) {
            bi->efi_runtime_truncated = true;
            continue;
        }
        bi->efi_runtime[bi->efi_runtime_count++] =
            (struct efi_region){ le64(d + 8), le64(d + 24), le32(d) };
    }
}

static void parse_mb2_framebuffer(struct bootinfo *bi, const uint8_t *tag, uint32_t size)
{
    if (size < 38 || tag[29] != MB2_FB_TYPE_RGB) {
        if (size < 38)
            bi->malformed++;
        return;
    }
    struct framebuffer *fb = &bi->fb;
    fb->addr = le64(tag + 8);
    fb->pitch = le32(tag + 16);
    fb->width = le32(tag + 20);
    fb->height = le32(tag + 24);
    fb->bpp = tag[28];
    fb->red_pos = tag[32];
    fb->red_size = tag[33];
    fb->green_pos = tag[34];
    fb->green_size = tag[35];
    fb->blue_pos = tag[36];
    fb->blue_size = tag[37];
    bi->have_fb = (fb->bpp == 32 || fb->bpp == 24 || fb->bpp == 16) && fb->width &&
                  fb->height && fb->pitch >= fb->width * (fb->bpp / 8u) &&
                  fb->addr + (uint64_t)fb->pitch * fb->height <= 0x100000000ull;
}

static void parse_mb2(struct bootinfo *bi, const uint8_t *info)
{
    uint32_t total = le32(info);

    if (total < 16 || total > MB2_MAX_TOTAL) {
        bi->malformed++;
        return;
    }
    for (uint32_t off = 8; off + 8 <= total;) {
        const uint8_t *tag = info + off;
        uint32_t type = le32(tag), size = le32(tag + 4);

        if (type == MB2_TAG_END)
            return;
        if (size < 8 || size > total - off) {
            bi->malformed++;
            return;
        }
        switch (type) {
        case MB2_TAG_CMDLINE:
            bi->cmdline_truncated = copy_bytes(bi->cmdline, sizeof(bi->cmdline), tag + 8,
                                               size - 8, true);
            break;
        case MB2_TAG_LOADER:
            copy_bytes(bi->loader, sizeof(bi->loader), tag + 8, size - 8, false);
            break;
        case MB2_TAG_BASIC_MEMINFO:
            if (size >= 16) {
                bi->have_mem = true;
                bi->mem_lower_kb = le32(tag + 8);
                bi->mem_upper_kb = le32(tag + 12);
            }
            break;
        case MB2_TAG_MMAP:
            parse_mb2_mmap(bi, tag, size);
            break;
        case MB2_TAG_EFI32:
        case MB2_TAG_EFI64:
            bi->efi_system_table = true;
            bi->efi64 = type == MB2_TAG_EFI64;
            if (size >= (type == MB2_TAG_EFI64 ? 16u : 12u))
                bi->efi_system_table_addr = type == MB2_TAG_EFI64 ? le64(tag + 8)
                                                                  : le32(tag + 8);
            break;
        case MB2_TAG_ACPI_OLD:
        case MB2_TAG_ACPI_NEW:
            /* Keep the newer copy when the loader gives both. */
            if (type == MB2_TAG_ACPI_NEW || !bi->rsdp_len) {
                uint32_t n = size - 8;
                if (n > BOOTINFO_RSDP_MAX)
                    n = BOOTINFO_RSDP_MAX;
                for (uint32_t i = 0; i < n; i++)
                    bi->rsdp[i] = tag[8 + i];
                bi->rsdp_len = n;
            }
            break;
        case MB2_TAG_EFI_BS:
            bi->efi_boot_services = true;
            break;
        case MB2_TAG_EFI_MMAP:
            parse_mb2_efi_mmap(bi, tag, size);
            break;
        case MB2_TAG_FRAMEBUFFER:
            parse_mb2_framebuffer(bi, tag, size);
            break;
        }
        off += (size + 7) & ~7u;
    }
}

void bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint32_t info_addr,
                    uintptr_t mem_base)
{
    *bi = (struct bootinfo){ 0 };
    if (magic == MB1_BOOT_MAGIC) {
        bi->protocol = 1;
        parse_mb1(bi, at(mem_base, info_addr), mem_base);
    } else if (magic == MB2_BOOT_MAGIC) {
        bi->protocol = 2;
        parse_mb2(bi, at(mem_base, info_addr));
    }
}

const char *mmap_type_name(uint32_t type)
{
    switch (type) {
    case MMAP_AVAILABLE: return "available";
    case MMAP_RESERVED: return "reserved";
    case MMAP_ACPI_RECLAIMABLE: return "ACPI reclaimable";
    case MMAP_ACPI_NVS: return "ACPI NVS";
    case MMAP_BAD: return "bad";
    default: return "unknown";
    }
}
