/* The VBE controller information block: see vbe.h. Offsets from VESA BIOS
 * Extension 3.0, section 4.4 (VbeInfoBlock). */
#include "vbe.h"
#include "../lib/le.h"
#include "../lib/string.h"

#define VBE_OFF_SIGNATURE       0
#define VBE_OFF_VERSION         4
#define VBE_OFF_OEM_STRING      6
#define VBE_OFF_CAPABILITIES    10
#define VBE_OFF_TOTAL_MEMORY    18
#define VBE_OFF_OEM_REVISION    20
#define VBE_OFF_VENDOR          22
#define VBE_OFF_PRODUCT         26
#define VBE_OFF_PRODUCT_REV     30
#define VBE_STRING_SCAN         64      /* a longer string is cut, not followed */

/* A far pointer's string, copied as printable text; "" when it points outside the
 * window or is null. */
static void far_string(char *dst, const struct physmem *pm, const uint8_t *field)
{
    uint32_t segoff = le32(field);
    uint32_t at = (segoff >> 16) * 16u + (segoff & 0xFFFFu);
    dst[0] = '\0';
    if (!segoff || !physmem_ok(pm, at, 1))
        return;
    uint64_t room = pm->limit - at;
    fw_copy_text(dst, VBE_STR_MAX + 1, physmem_at(pm, at),
                 room < VBE_STRING_SCAN ? (size_t)room : VBE_STRING_SCAN);
}

bool vbe_parse(struct vbe_info *info, const struct physmem *pm, uint32_t block)
{
    memset(info, 0, sizeof(*info));
    if (!physmem_ok(pm, block, VBE_INFO_SIZE))
        return false;
    const uint8_t *b = physmem_at(pm, block);
    if (memcmp(b + VBE_OFF_SIGNATURE, "VESA", 4))
        return false;
    info->version = le16(b + VBE_OFF_VERSION);
    if (info->version < 0x0100 || info->version > 0x0300)
        return false;
    info->valid = true;
    info->capabilities = le32(b + VBE_OFF_CAPABILITIES);
    info->memory_64k = le16(b + VBE_OFF_TOTAL_MEMORY);
    far_string(info->oem, pm, b + VBE_OFF_OEM_STRING);
    if (info->version >= 0x0200) {
        info->oem_revision = le16(b + VBE_OFF_OEM_REVISION);
        far_string(info->vendor, pm, b + VBE_OFF_VENDOR);
        far_string(info->product, pm, b + VBE_OFF_PRODUCT);
        far_string(info->product_rev, pm, b + VBE_OFF_PRODUCT_REV);
    }
    return true;
}
