/* The multiboot information block: see mbinfo.h. */
#include "mbinfo.h"
#include "../lib/string.h"

#define MEG 0x100000u

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

uint32_t mbinfo_upper_from_map(const struct mbinfo_range *map, unsigned count)
{
    uint64_t end = MEG;
    for (int grew = 1; grew;) {         /* ranges may come in any order */
        grew = 0;
        for (unsigned i = 0; i < count; i++)
            if (map[i].type == E820_AVAILABLE && map[i].base <= end &&
                map[i].base + map[i].length > end) {
                end = map[i].base + map[i].length;
                grew = 1;
            }
    }
    end = (end - MEG) / 1024;
    return end > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)end;
}

static uint8_t *map_entry(uint8_t *p, uint64_t base, uint64_t length, uint32_t type)
{
    wr32(p, MB1_MMAP_ENTRY_SIZE);
    wr64(p + 4, base);
    wr64(p + 12, length);
    wr32(p + 20, type);
    return p + MB1_MMAP_ENTRY;
}

uint32_t mbinfo_build(const struct mbinfo_in *in, uint8_t *buf, uint32_t size, uint32_t base)
{
    unsigned entries = in->map_count ? in->map_count : 2;
    uint32_t cmd_len = (uint32_t)strlen(in->cmdline) + 1;
    uint32_t name_len = (uint32_t)strlen(in->loader) + 1;
    uint32_t need = MB1_INFO_SIZE + entries * MB1_MMAP_ENTRY + cmd_len + name_len;

    if (need > size || entries > MBINFO_MAP_MAX)
        return 0;
    memset(buf, 0, MB1_INFO_SIZE);
    uint8_t *map = buf + MB1_INFO_SIZE, *p = map;
    if (in->map_count) {
        for (unsigned i = 0; i < in->map_count; i++)
            p = map_entry(p, in->map[i].base, in->map[i].length, in->map[i].type);
    } else {
        p = map_entry(p, 0, (uint64_t)in->lower_kb * 1024, E820_AVAILABLE);
        p = map_entry(p, MEG, (uint64_t)in->upper_kb * 1024, E820_AVAILABLE);
    }
    char *cmd = (char *)p, *name = cmd + cmd_len;
    memcpy(cmd, in->cmdline, cmd_len);
    memcpy(name, in->loader, name_len);

    wr32(buf + MB1_OFF_FLAGS, MB1_FLAG_MEM | MB1_FLAG_BOOT_DEVICE | MB1_FLAG_CMDLINE |
                                  MB1_FLAG_MMAP | MB1_FLAG_LOADER);
    wr32(buf + MB1_OFF_MEM_LOWER, in->lower_kb);
    wr32(buf + MB1_OFF_MEM_UPPER, in->upper_kb);
    /* The drive, then "no partition" three times: a diskette has none. */
    wr32(buf + MB1_OFF_BOOT_DEVICE, (uint32_t)in->drive << 24 | 0xFFFFFFu);
    wr32(buf + MB1_OFF_CMDLINE, base + (uint32_t)((uint8_t *)cmd - buf));
    wr32(buf + MB1_OFF_MMAP_LENGTH, (uint32_t)(p - map));
    wr32(buf + MB1_OFF_MMAP_ADDR, base + MB1_INFO_SIZE);
    wr32(buf + MB1_OFF_LOADER, base + (uint32_t)((uint8_t *)name - buf));
    return need;
}
