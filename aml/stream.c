/* AML encodings (ACPI 6.x, 20.2): PkgLength, NameString, the fixed-size data and the
 * opcode itself. Every read is bounded by the cursor's end, which the caller has set
 * to the end of the enclosing object; nothing here reads past it. */
#include "amlint.h"
#include "../lib/le.h"

#define ROOT_CHAR       0x5C    /* '\' */
#define PARENT_PREFIX   0x5E    /* '^' */
#define DUAL_NAME       0x2E
#define MULTI_NAME      0x2F
#define NULL_NAME       0x00
#define EXT_PREFIX      0x5B

static int need(const struct cursor *c, size_t n)
{
    return (size_t)(c->end - c->p) >= n ? AML_OK : AML_E_BAD_AML;
}

int stream_u8(struct cursor *c, uint8_t *v)
{
    if (need(c, 1))
        return AML_E_BAD_AML;
    *v = *c->p++;
    return AML_OK;
}

int stream_u16(struct cursor *c, uint16_t *v)
{
    if (need(c, 2))
        return AML_E_BAD_AML;
    *v = le16(c->p);
    c->p += 2;
    return AML_OK;
}

int stream_u32(struct cursor *c, uint32_t *v)
{
    if (need(c, 4))
        return AML_E_BAD_AML;
    *v = le32(c->p);
    c->p += 4;
    return AML_OK;
}

int stream_u64(struct cursor *c, uint64_t *v)
{
    uint32_t lo, hi;

    if (stream_u32(c, &lo) || stream_u32(c, &hi))
        return AML_E_BAD_AML;
    *v = (uint64_t)hi << 32 | lo;
    return AML_OK;
}

/* Bits 7-6 of the lead byte count the bytes that follow; with none, bits 5-0 are
 * the length, otherwise bits 3-0 are its low nibble and each following byte eight
 * more bits. The length counts itself, so the object ends at the lead byte plus the
 * length; it may not pass the cursor's end. */
int stream_pkg_length(struct cursor *c, const uint8_t **obj_end)
{
    const uint8_t *start = c->p;
    uint8_t lead;

    if (stream_u8(c, &lead))
        return AML_E_BAD_AML;
    unsigned follow = lead >> 6;
    uint32_t len = follow ? lead & 0x0F : lead & 0x3F;
    for (unsigned i = 0; i < follow; i++) {
        uint8_t b;
        if (stream_u8(c, &b))
            return AML_E_BAD_AML;
        len |= (uint32_t)b << (4 + 8 * i);
    }
    if (len > (size_t)(c->end - start) || len < 1u + follow)
        return AML_E_BAD_AML;
    *obj_end = start + len;
    return AML_OK;
}

static bool lead_char(uint8_t b)
{
    return (b >= 'A' && b <= 'Z') || b == '_';
}

static bool name_char(uint8_t b)
{
    return lead_char(b) || (b >= '0' && b <= '9');
}

bool stream_is_name_start(uint8_t b)
{
    return lead_char(b) || b == ROOT_CHAR || b == PARENT_PREFIX || b == DUAL_NAME ||
           b == MULTI_NAME;
}

/* NameString: a root or parent prefixes, then NullName, a NameSeg, DualNamePrefix
 * and two, or MultiNamePrefix, a count and that many. ACPICA accepts NameSegs of
 * any characters here (some firmware has lower case); so do we, checking only the
 * lead character of the first as the grammar requires of a name's start. */
int stream_name(struct cursor *c, struct aml_name *n)
{
    uint8_t b;

    *n = (struct aml_name){ 0 };
    if (need(c, 1))
        return AML_E_BAD_AML;
    if (*c->p == ROOT_CHAR) {
        n->root = true;
        c->p++;
    } else {
        while (c->p < c->end && *c->p == PARENT_PREFIX) {
            n->up++;
            c->p++;
        }
    }
    if (stream_u8(c, &b))
        return AML_E_BAD_AML;
    switch (b) {
    case NULL_NAME:
        n->count = 0;
        break;
    case DUAL_NAME:
        n->count = 2;
        break;
    case MULTI_NAME:
        if (stream_u8(c, &n->count))
            return AML_E_BAD_AML;
        break;
    default:
        if (!lead_char(b) && !name_char(b))
            return AML_E_BAD_AML;
        c->p--;
        n->count = 1;
        break;
    }
    if (need(c, (size_t)n->count * 4))
        return AML_E_BAD_AML;
    n->segs = c->p;
    c->p += (size_t)n->count * 4;
    return AML_OK;
}

int stream_opcode(struct cursor *c, uint16_t *op)
{
    uint8_t b;

    if (stream_u8(c, &b))
        return AML_E_BAD_AML;
    if (b != EXT_PREFIX) {
        *op = b;
        return AML_OK;
    }
    if (stream_u8(c, &b))
        return AML_E_BAD_AML;
    *op = (uint16_t)(EXT_PREFIX << 8 | b);
    return AML_OK;
}
