/* Field units: how a Field, IndexField, BankField or buffer field is read and written,
 * datum by datum, with the access width and update rule it declares.
 *
 * This is ACPICA's algorithm (exprep.c, exfldio.c, exfield.c), because the widths,
 * the order and the read-modify-write cycles are what the hardware sees: AnyAcc
 * means byte accesses; a field's first datum is aligned to its access width; a
 * partial datum is merged under the update rule (Preserve reads it first,
 * WriteAsOnes and WriteAsZeros fill the rest); an IndexField writes the datum's byte
 * offset to its index field before each access of its data field; a BankField
 * writes its bank value to its bank field before each access. */
#include "amlint.h"
#include "../lib/div64.h"
#include "../lib/string.h"
#include "../lib/le.h"

#define ACCESS_ANY      0
#define ACCESS_BYTE     1
#define ACCESS_WORD     2
#define ACCESS_DWORD    3
#define ACCESS_QWORD    4
#define ACCESS_BUFFER   5

#define UPDATE_PRESERVE     0
#define UPDATE_WRITE_ONES   1
#define UPDATE_WRITE_ZEROS  2

static uint64_t mask_below(unsigned bits)  /* bits 0..bits-1 clear, the rest set */
{
    return bits >= 64 ? 0 : ~(uint64_t)0 << bits;
}

static uint64_t mask_above(unsigned bits)  /* bits 0..bits-1 set */
{
    return bits >= 64 ? ~(uint64_t)0 : ~(~(uint64_t)0 << bits);
}

void field_prepare(struct aml_object *fo, uint8_t flags, uint8_t attrib, uint32_t bit_pos,
                   uint32_t bit_len)
{
    struct field_common *c = &fo->u.field.c;
    unsigned width;

    switch (flags & 0x0F) {
    case ACCESS_WORD: width = 2; break;
    case ACCESS_DWORD: width = 4; break;
    case ACCESS_QWORD: width = 8; break;
    case ACCESS_ANY:            /* ACPICA: AnyAcc is byte access */
    case ACCESS_BYTE:
    case ACCESS_BUFFER: width = 1; break;
    default: width = 0; break;  /* refused when the field is used */
    }
    /* A buffer field may start on any byte, whatever its width. */
    unsigned align = fo->type == AML_TYPE_BUFFER_FIELD || !width ? 1 : width;
    c->flags = flags;
    c->attrib = attrib;
    c->bit_length = bit_len;
    c->bit_position = bit_pos;
    c->access_bytes = (uint8_t)width;
    c->base_byte = bit_pos / 8 / align * align;
    c->start_bit = (uint8_t)(bit_pos - 8 * c->base_byte);
}

static int insert(struct aml *a, struct aml_object *fo, const uint8_t *buf, uint32_t len);
static int extract(struct aml *a, struct aml_object *fo, uint8_t *buf, uint32_t len);

static bool register_overflow(const struct aml_object *reg, uint64_t value)
{
    uint32_t bits = reg->u.field.c.bit_length;

    return bits < 64 && value >= (uint64_t)1 << bits;
}

/* One datum at byte offset off of the field (ACPICA's AcpiExFieldDatumIo). data
 * holds access_bytes bytes (at least 8). */
static int datum_io(struct aml *a, struct aml_object *fo, uint32_t off, uint8_t *data,
                    bool write)
{
    struct field_common *c = &fo->u.field.c;
    uint64_t value = a->write_value;    /* a bank or index write below changes it */
    uint8_t idx[8];
    int st;

    if (!write)
        memset(data, 0, 8);
    switch (fo->type) {
    case AML_TYPE_BUFFER_FIELD: {
        struct aml_object *b = fo->u.field.data;
        uint64_t at = (uint64_t)c->base_byte + off;
        if (at + c->access_bytes > b->u.buf.len)
            return fail(a, AML_E_BUFFER_LIMIT, NULL);
        if (write)
            memcpy(b->u.buf.data + at, data, c->access_bytes);
        else
            memcpy(data, b->u.buf.data + at, c->access_bytes);
        return AML_OK;
    }
    case OT_BANK_FIELD:
        if (register_overflow(fo->u.field.reg, fo->u.field.value))
            return fail(a, AML_E_REGISTER_LIMIT, "bank value");
        put_le_n(idx, 4, fo->u.field.value);
        st = insert(a, fo->u.field.reg, idx, 4);
        if (st)
            return st;
        __attribute__((fallthrough));   /* then the region, as a plain field */
    case OT_REGION_FIELD: {
        struct aml_object *r = fo->u.field.region;
        uint64_t end = (uint64_t)c->base_byte + off + c->access_bytes;
        if (r->u.region.length < end) {
            /* ACPICA's slack lets an access run to the region's length rounded
             * up to the access width. */
            uint64_t w = c->access_bytes;
            if (!a->cfg.slack || div64(r->u.region.length + w - 1, w, NULL) * w < end)
                return fail(a, AML_E_REGION_LIMIT, NULL);
        }
        a->write_value = value;
        return region_access(a, r, c->base_byte + off, c->access_bytes, write, data);
    }
    case OT_INDEX_FIELD: {
        if (register_overflow(fo->u.field.reg, fo->u.field.value))
            return fail(a, AML_E_REGISTER_LIMIT, "index value");
        uint32_t at = off + (uint32_t)fo->u.field.value;
        put_le_n(idx, 4, at);
        st = insert(a, fo->u.field.reg, idx, 4);
        if (st)
            return st;
        return write ? insert(a, fo->u.field.data, data, 8)
                     : extract(a, fo->u.field.data, data, 8);
    }
    default:
        return fail(a, AML_E_OPERAND_TYPE, "not a field");
    }
}

static int write_datum(struct aml *a, struct aml_object *fo, uint64_t mask, uint64_t value,
                       uint32_t off)
{
    struct field_common *c = &fo->u.field.c;
    uint64_t merged = value;
    uint8_t data[8];
    int st;

    if (mask != ~(uint64_t)0) {
        switch ((c->flags >> 5) & 3) {
        case UPDATE_PRESERVE:
            /* Only when bits of the datum lie outside the field. */
            if (~mask << (64 - 8 * c->access_bytes)) {
                st = datum_io(a, fo, off, data, false);
                if (st)
                    return st;
                merged |= le_n(data, 8) & ~mask;
            }
            break;
        case UPDATE_WRITE_ONES:
            merged |= ~mask;
            break;
        case UPDATE_WRITE_ZEROS:
            merged &= mask;
            break;
        default:
            return fail(a, AML_E_OPERAND_VALUE, "update rule");
        }
    }
    put_le_n(data, 8, merged);
    a->write_value = merged;
    return datum_io(a, fo, off, data, true);
}

/* Reads the field into buf (len bytes, little-endian): ACPICA's
 * AcpiExExtractFromField. */
static int extract(struct aml *a, struct aml_object *fo, uint8_t *buf, uint32_t len)
{
    struct field_common *c = &fo->u.field.c;
    uint8_t data[256];
    int st;

    if (!c->access_bytes)
        return fail(a, AML_E_OPERAND_VALUE, "field access type");
    if (len < (c->bit_length + 7) / 8)
        return fail(a, AML_E_BUFFER_LIMIT, NULL);
    memset(buf, 0, len);
    unsigned bits = 8u * c->access_bytes;
    if (c->start_bit == 0 && c->bit_length == bits) {
        st = datum_io(a, fo, 0, data, false);
        if (!st)
            memcpy(buf, data, len < c->access_bytes ? len : c->access_bytes);
        return st;
    }
    if (c->access_bytes > 8) {      /* the algorithm works in 64-bit data */
        c->access_bytes = 8;
        bits = 64;
    }
    uint32_t datums = (c->bit_length + bits - 1) / bits;
    uint32_t field_datums = (c->bit_length + c->start_bit + bits - 1) / bits;
    uint32_t field_off = 0, buf_off = 0;

    st = datum_io(a, fo, field_off, data, false);
    if (st)
        return st;
    uint64_t raw = le_n(data, 8);
    uint64_t merged = raw >> c->start_bit;
    for (uint32_t i = 1; i < field_datums; i++) {
        field_off += c->access_bytes;
        st = datum_io(a, fo, field_off, data, false);
        if (st)
            return st;
        raw = le_n(data, 8);
        if (bits - c->start_bit < 64)
            merged |= raw << (bits - c->start_bit);
        if (i == datums)
            break;
        put_le_n(buf + buf_off, len - buf_off < c->access_bytes ? len - buf_off
               : c->access_bytes, merged);
        buf_off += c->access_bytes;
        merged = raw >> c->start_bit;
    }
    unsigned tail = c->bit_length % bits;
    if (tail)
        merged &= mask_above(tail);
    put_le_n(buf + buf_off, len - buf_off < c->access_bytes ? len - buf_off : c->access_bytes,
           merged);
    return AML_OK;
}

/* Writes buf (len bytes) into the field: ACPICA's AcpiExInsertIntoField, down to its
 * reuse of the last datum's bytes when the buffer ends inside a datum. */
static int insert(struct aml *a, struct aml_object *fo, const uint8_t *buf, uint32_t len)
{
    struct field_common *c = &fo->u.field.c;
    uint8_t padded[8];
    int st;

    if (!c->access_bytes)
        return fail(a, AML_E_OPERAND_VALUE, "field access type");
    uint32_t need = (c->bit_length + 7) / 8;
    uint8_t *copy = NULL;
    if (len < need) {
        copy = heap_alloc(&a->heap, need);
        if (!copy)
            return fail(a, AML_E_NO_MEMORY, NULL);
        memcpy(copy, buf, len);
        buf = copy;
        len = need;
    }
    if (c->access_bytes > 8)
        c->access_bytes = 8;
    unsigned bits = 8u * c->access_bytes;
    uint64_t width_mask = mask_above(bits);
    uint64_t mask = width_mask & mask_below(c->start_bit);
    uint32_t datums = (c->bit_length + bits - 1) / bits;
    uint32_t field_datums = (c->bit_length + c->start_bit + bits - 1) / bits;
    uint32_t field_off = 0, buf_off = 0;

    memset(padded, 0, sizeof(padded));
    memcpy(padded, buf, len < c->access_bytes ? len : c->access_bytes);
    uint64_t raw = le_n(padded, 8);
    uint64_t merged = raw << c->start_bit;
    for (uint32_t i = 1; i < field_datums; i++) {
        merged &= mask;
        st = write_datum(a, fo, mask, merged, field_off);
        if (st)
            goto out;
        field_off += c->access_bytes;
        merged = bits - c->start_bit < 64 ? raw >> (bits - c->start_bit) : 0;
        mask = width_mask;
        if (i == datums)
            break;
        buf_off += c->access_bytes;
        put_le_n(padded, 8, raw);     /* bytes the copy does not reach stay */
        uint32_t n = len - buf_off < c->access_bytes ? len - buf_off : c->access_bytes;
        memcpy(padded, buf + buf_off, n);
        raw = le_n(padded, 8);
        merged |= raw << c->start_bit;
    }
    unsigned tail = (c->bit_length + c->start_bit) % bits;
    if (tail)
        mask &= mask_above(tail);
    merged &= mask;
    st = write_datum(a, fo, mask, merged, field_off);
out:
    heap_free(&a->heap, copy);
    return st;
}

static unsigned int_bytes(const struct aml *a)
{
    return a->int64 ? 8 : 4;
}

int field_read(struct aml *a, struct aml_object *fo, struct aml_object **out)
{
    struct field_common *c = &fo->u.field.c;
    uint32_t len = (c->bit_length + 7) / 8;
    struct aml_object *o;
    uint8_t buf[8];
    int st;

    *out = NULL;
    if (fo->type == OT_REGION_FIELD) {
        uint8_t space = fo->u.field.region->u.region.space;
        if (space == AML_SPACE_SMBUS || space == AML_SPACE_GSBUS ||
            space == AML_SPACE_IPMI || space == AML_SPACE_GPIO ||
            space == AML_SPACE_PCC)
            return fail(a, AML_E_UNSUPPORTED, aml_space_name(space));
    }
    /* Wider than an Integer, or made by CreateField: a Buffer; else an Integer. */
    if (len > int_bytes(a) || (fo->type == AML_TYPE_BUFFER_FIELD && fo->u.field.create_field)) {
        o = obj_buffer(a, len);
        if (!o)
            return fail(a, AML_E_NO_MEMORY, NULL);
        st = extract(a, fo, o->u.buf.data, len);
    } else {
        o = obj_integer(a, 0);
        if (!o)
            return fail(a, AML_E_NO_MEMORY, NULL);
        st = extract(a, fo, buf, int_bytes(a));
        o->u.integer = le_n(buf, int_bytes(a));
    }
    if (st) {
        obj_put(a, o);
        return st;
    }
    *out = o;
    return AML_OK;
}

int field_write(struct aml *a, struct aml_object *fo, struct aml_object *value)
{
    uint8_t buf[8];

    if (fo->type == OT_REGION_FIELD) {
        uint8_t space = fo->u.field.region->u.region.space;
        if (space == AML_SPACE_SMBUS || space == AML_SPACE_GSBUS ||
            space == AML_SPACE_IPMI || space == AML_SPACE_GPIO ||
            space == AML_SPACE_PCC)
            return fail(a, AML_E_UNSUPPORTED, aml_space_name(space));
    }
    switch (value->type) {
    case AML_TYPE_INTEGER:
        put_le_n(buf, 8, value->u.integer);
        return insert(a, fo, buf, 8);
    case AML_TYPE_BUFFER:
    case AML_TYPE_STRING:
        return insert(a, fo, value->u.buf.data, value->u.buf.len);
    default:
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(value->type));
    }
}
