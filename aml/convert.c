/* Conversions between Integer, String and Buffer, as ACPICA makes them
 * (exconvrt.c, utstrtoul64.c, utstrsuppt.c): the implicit ones an operator applies
 * to its operands, and the explicit ones of ToInteger, ToHexString,
 * ToDecimalString and ToBuffer. */
#include "amlint.h"
#include "../lib/div64.h"
#include "../lib/string.h"

static bool is_space(uint8_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int hex_value(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Digits are taken until the first that is not one, or until the next would not
 * fit the integer width: the value so far is the answer (ACPICA stops there too). */
static uint64_t accumulate(const uint8_t *s, const uint8_t *end, unsigned base, bool int64)
{
    uint64_t v = 0, limit = int64 ? ~(uint64_t)0 : 0xFFFFFFFFu;

    for (; s < end && *s; s++) {
        int d = hex_value(*s);
        if (d < 0 || (unsigned)d >= base)
            break;
        uint64_t q = div64(limit, base, NULL);
        if (v > q)
            break;
        uint64_t p = v * base;
        if ((uint64_t)d > limit - p)
            break;
        v = p + (unsigned)d;
    }
    return v;
}

uint64_t str_to_integer(const uint8_t *s, uint32_t len, bool explicit_, bool int64)
{
    const uint8_t *end = s + len;
    unsigned base = 16;

    while (s < end && is_space(*s))
        s++;
    if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    else if (explicit_)
        base = 10;                  /* ToInteger: decimal unless 0x */
    while (s < end && *s == '0')
        s++;
    return accumulate(s, end, base, int64);
}

int conv_integer(struct aml *a, struct aml_object *o, bool explicit_, struct aml_object **out)
{
    uint64_t v = 0;

    switch (o->type) {
    case AML_TYPE_INTEGER:
        *out = obj_get(o);
        return AML_OK;
    case AML_TYPE_STRING:
        v = str_to_integer(o->u.buf.data, o->u.buf.len, explicit_, a->int64);
        break;
    case AML_TYPE_BUFFER: {
        uint32_t n = o->u.buf.len;
        if (!n)
            return fail(a, AML_E_BUFFER_LIMIT, "an empty Buffer as an Integer");
        if (n > (a->int64 ? 8u : 4u))
            n = a->int64 ? 8 : 4;
        for (uint32_t i = n; i-- > 0;)
            v = v << 8 | o->u.buf.data[i];
        break;
    }
    default:
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(o->type));
    }
    *out = obj_integer(a, v);
    if (!*out)
        return fail(a, AML_E_NO_MEMORY, NULL);
    truncate_integer(a, *out);
    return AML_OK;
}

int conv_buffer(struct aml *a, struct aml_object *o, struct aml_object **out)
{
    struct aml_object *b;

    switch (o->type) {
    case AML_TYPE_BUFFER:
        *out = obj_get(o);
        return AML_OK;
    case AML_TYPE_INTEGER: {
        unsigned n = a->int64 ? 8 : 4;
        b = obj_buffer(a, n);
        if (b)
            for (unsigned i = 0; i < n; i++)
                b->u.buf.data[i] = (uint8_t)(o->u.integer >> (8 * i));
        break;
    }
    case AML_TYPE_STRING:           /* the bytes and the NUL after them */
        b = obj_buffer(a, o->u.buf.len + 1);
        if (b)
            memcpy(b->u.buf.data, o->u.buf.data, o->u.buf.len);
        break;
    default:
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(o->type));
    }
    if (!b)
        return fail(a, AML_E_NO_MEMORY, NULL);
    *out = b;
    return AML_OK;
}

/* value in base 10 without leading zeros, or in base 16 with exactly digits digits. */
static uint32_t to_ascii(uint64_t value, unsigned base, unsigned digits, uint8_t *out)
{
    static const char hex[] = "0123456789ABCDEF";
    uint8_t tmp[24];
    uint32_t n = 0;

    if (base == 16) {
        for (unsigned i = digits; i-- > 0;)
            out[n++] = (uint8_t)hex[(value >> (4 * i)) & 0xF];
        return n;
    }
    do {
        uint64_t r;
        value = div64(value, 10, &r);
        tmp[n++] = (uint8_t)('0' + r);
    } while (value);
    for (uint32_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

int conv_string(struct aml *a, struct aml_object *o, unsigned how, struct aml_object **out)
{
    struct aml_object *s;
    uint8_t text[24];

    switch (o->type) {
    case AML_TYPE_STRING:
        *out = obj_get(o);
        return AML_OK;
    case AML_TYPE_INTEGER: {
        unsigned bytes = a->int64 ? 8 : 4;
        uint64_t v = a->int64 ? o->u.integer : (uint32_t)o->u.integer;
        uint32_t n = to_ascii(v, how == STR_DECIMAL ? 10 : 16, 2 * bytes, text);
        s = obj_string(a, text, n);
        break;
    }
    case AML_TYPE_BUFFER: {
        /* Hex: "0x01 0x02" (implicit) or "0x01,0x02" (ToHexString); decimal: "1,2". */
        uint32_t len = 0;
        for (uint32_t i = 0; i < o->u.buf.len; i++) {
            uint8_t b = o->u.buf.data[i];
            len += how != STR_DECIMAL ? 5 : b >= 100 ? 4 : b >= 10 ? 3 : 2;
        }
        if (len)
            len--;
        s = obj_string(a, NULL, len);
        if (!s)
            break;
        uint8_t *p = s->u.buf.data;
        for (uint32_t i = 0; i < o->u.buf.len; i++) {
            if (how != STR_DECIMAL) {
                *p++ = '0';
                *p++ = 'x';
                p += to_ascii(o->u.buf.data[i], 16, 2, p);
            } else {
                p += to_ascii(o->u.buf.data[i], 10, 0, p);
            }
            if (i + 1 < o->u.buf.len)
                *p++ = how == STR_HEX_IMPLICIT ? ' ' : ',';
        }
        break;
    }
    default:
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(o->type));
    }
    if (!s)
        return fail(a, AML_E_NO_MEMORY, NULL);
    *out = s;
    return AML_OK;
}
