/* The expression operators: each exec of the opcode table (opcodes.c) that is not a
 * named-object or control operator. Operands arrive resolved as the table's
 * resolve[] says; each function makes its result, stores it into its Target(s) and
 * hands it back as the operator's value, in ACPICA's order (exoparg1.c, exoparg2.c,
 * exoparg3.c, exoparg6.c, exmisc.c, exconcat.c, exsystem.c, exmutex.c). */
#include "ops.h"
#include "../lib/div64.h"
#include "../lib/format.h"
#include "../lib/string.h"

#define STALL_MAX_US    255     /* ACPI 6.x, 19.6.129: longer is an error in ACPICA */
#define SLEEP_MAX_MS    2000    /* ACPICA's ACPI_MAX_SLEEP: longer Sleeps are cut */
#define WAIT_MAX_MS     2000    /* a Wait no one can Signal: bounded like Sleep */

static uint64_t ival(const struct operand *o)
{
    return o->obj->u.integer;
}

/* Stores result into target (when there is one) and hands it back. */
static int give(struct aml *a, struct frame *f, struct aml_object *result,
                struct operand *target, struct aml_object **out)
{
    if (!result)
        return fail(a, AML_E_NO_MEMORY, NULL);
    if (target) {
        int st = store_to(a, f, target, result, false, false);
        if (st) {
            obj_put(a, result);
            return st;
        }
    }
    *out = result;
    return AML_OK;
}

static int give_fixed(struct aml *a, struct frame *f, struct aml_object *result,
                      struct operand *target, struct aml_object **out)
{
    int st = store_to(a, f, target, result, false, true);

    if (st) {
        obj_put(a, result);
        return st;
    }
    *out = result;
    return AML_OK;
}

static int give_bool(struct aml *a, bool truth, struct aml_object **out)
{
    *out = obj_integer(a, truth ? ones(a) : 0);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

/* ---- Store, CopyObject ------------------------------------------------------------- */

int x_store(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct operand *src = &ops[0];

    if (src->kind == OPD_NODE && ops[1].kind == OPD_DEBUG) {
        if (a->cfg.host.debug) {
            char path[64], line[80];
            aml_node_path(src->node, path, sizeof(path));
            fmt_snprintf(line, sizeof(line), "Debug: [%s] %s", path,
                         obj_type_name(src->node->type));
            a->cfg.host.debug(a->cfg.host.ctx, line);
        }
        return AML_OK;
    }
    if (src->kind != OPD_OBJ)
        return fail(a, AML_E_OPERAND_TYPE, "Store of a name without a value");
    int st = store_to(a, f, &ops[1], src->obj, false, false);
    if (!st)
        *out = obj_get(src->obj);
    return st;
}

int x_copy_object(struct aml *a, struct frame *f, struct operand *ops,
                  struct aml_object **out)
{
    struct aml_object *copy;
    int st = resolve_value(a, f, &ops[0]);

    if (!st && ops[0].kind != OPD_OBJ)
        st = fail(a, AML_E_OPERAND_TYPE, "CopyObject of a name without a value");
    if (!st)
        st = obj_copy(a, ops[0].obj, &copy);
    if (st)
        return st;
    st = store_to(a, f, &ops[1], copy, true, true);
    if (st) {
        obj_put(a, copy);
        return st;
    }
    *out = copy;
    return AML_OK;
}

/* ---- arithmetic and bits ------------------------------------------------------------ */

static uint64_t math(uint16_t op, uint64_t x, uint64_t y)
{
    switch (op) {
    case 0x72: return x + y;
    case 0x74: return x - y;
    case 0x77: return x * y;
    case 0x79: return y >= 64 ? 0 : x << y;
    case 0x7A: return y >= 64 ? 0 : x >> y;
    case 0x7B: return x & y;
    case 0x7C: return ~(x & y);
    case 0x7D: return x | y;
    case 0x7E: return ~(x | y);
    default: return x ^ y;      /* 0x7F */
    }
}

int x_math(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    return give(a, f, obj_integer(a, math(a->err_op, ival(&ops[0]), ival(&ops[1]))), &ops[2],
                out);
}

int x_divide(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    uint64_t rem;

    if (!ival(&ops[1]))
        return fail(a, AML_E_DIVIDE_BY_ZERO, NULL);
    uint64_t q = div64(ival(&ops[0]), ival(&ops[1]), &rem);
    struct aml_object *r = obj_integer(a, rem), *qo = obj_integer(a, q);
    if (!r || !qo) {
        obj_put(a, r);
        obj_put(a, qo);
        return fail(a, AML_E_NO_MEMORY, NULL);
    }
    int st = store_to(a, f, &ops[2], r, false, false);
    obj_put(a, r);
    if (st) {
        obj_put(a, qo);
        return st;
    }
    return give(a, f, qo, &ops[3], out);
}

int x_mod(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    uint64_t rem;

    if (!ival(&ops[1]))
        return fail(a, AML_E_DIVIDE_BY_ZERO, NULL);
    div64(ival(&ops[0]), ival(&ops[1]), &rem);
    return give(a, f, obj_integer(a, rem), &ops[2], out);
}

int x_not(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    return give(a, f, obj_integer(a, ~ival(&ops[0])), &ops[1], out);
}

/* One-based bit numbers, 0 when no bit is set (ACPICA counts over 64 bits). */
int x_find_set_bit(struct aml *a, struct frame *f, struct operand *ops,
                   struct aml_object **out)
{
    uint64_t v = ival(&ops[0]);
    unsigned n = 0;

    if (a->err_op == 0x81) {
        while (v && n < 64) {
            v >>= 1;
            n++;
        }
    } else {
        while (v && n < 64) {
            v <<= 1;
            n++;
        }
        n = n ? 65 - n : 0;
    }
    return give(a, f, obj_integer(a, n), &ops[1], out);
}

int x_bcd(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    uint64_t v = ival(&ops[0]), r = 0, power = 1;
    unsigned nibbles = a->int64 ? 16 : 8;

    if (a->err_op == 0x5B28) {      /* FromBCD */
        for (unsigned i = 0; i < nibbles && v; i++, v >>= 4, power *= 10) {
            if ((v & 0xF) > 9)
                return fail(a, AML_E_OPERAND_VALUE, "BCD digit");
            r += (v & 0xF) * power;
        }
    } else {                        /* ToBCD */
        for (unsigned i = 0; i < nibbles && v; i++) {
            uint64_t d;
            v = div64(v, 10, &d);
            r |= d << (4 * i);
        }
        if (v)
            return fail(a, AML_E_OPERAND_VALUE, "ToBCD overflow");
    }
    return give_fixed(a, f, obj_integer(a, r), &ops[1], out);
}

/* Increment and Decrement read their SuperName as an Integer, then store the result
 * back through it. */
int x_increment(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct operand v = ops[0];

    if (v.kind == OPD_OBJ)
        obj_get(v.obj);
    int st = resolve_as(a, f, &v, 'i');
    if (st) {
        operand_drop(a, &v);
        return st;
    }
    uint64_t x = v.obj->u.integer;
    operand_drop(a, &v);
    return give(a, f, obj_integer(a, a->err_op == 0x75 ? x + 1 : x - 1), &ops[0], out);
}

/* ---- logic ---------------------------------------------------------------------------- */

int x_land_lor(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    bool x = ival(&ops[0]) != 0, y = ival(&ops[1]) != 0;

    return give_bool(a, a->err_op == 0x90 ? x && y : x || y, out);
}

int x_lnot(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    return give_bool(a, !ival(&ops[0]), out);
}

/* LEqual, LGreater, LLess (ACPICA's AcpiExDoLogicalOp): the first operand's type
 * decides, the second is converted to it; strings and buffers compare bytes, then
 * lengths. */
int logical_compare(struct aml *a, uint16_t op, struct aml_object *x, struct aml_object *y,
                    bool *truth)
{
    struct aml_object *c = NULL;
    int st;

    switch (x->type) {
    case AML_TYPE_INTEGER: st = conv_integer(a, y, false, &c); break;
    case AML_TYPE_STRING: st = conv_string(a, y, STR_HEX_IMPLICIT, &c); break;
    case AML_TYPE_BUFFER: st = conv_buffer(a, y, &c); break;
    default: return fail(a, AML_E_OPERAND_TYPE, obj_type_name(x->type));
    }
    if (st)
        return st;
    if (x->type == AML_TYPE_INTEGER) {
        uint64_t p = x->u.integer, q = c->u.integer;
        *truth = op == 0x93 ? p == q : op == 0x94 ? p > q : p < q;
    } else {
        uint32_t n = x->u.buf.len < c->u.buf.len ? x->u.buf.len : c->u.buf.len;
        int cmp = n ? memcmp(x->u.buf.data, c->u.buf.data, n) : 0;
        if (op == 0x93)
            *truth = !cmp && x->u.buf.len == c->u.buf.len;
        else if (cmp)
            *truth = op == 0x94 ? cmp > 0 : cmp < 0;
        else
            *truth = op == 0x94 ? x->u.buf.len > c->u.buf.len : x->u.buf.len < c->u.buf.len;
    }
    obj_put(a, c);
    return AML_OK;
}

int x_compare(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    bool truth;
    (void)f;
    int st = logical_compare(a, a->err_op, ops[0].obj, ops[1].obj, &truth);

    return st ? st : give_bool(a, truth, out);
}

/* ---- strings and buffers ---------------------------------------------------------------- */

static int type_string(struct aml *a, struct operand *o, struct aml_object **out)
{
    char text[40];
    unsigned t = o->kind == OPD_OBJ ? o->obj->type : o->kind == OPD_NODE ?
                 ns_resolve_alias(o->node)->type : AML_TYPE_DEBUG;
    static const char *const acpica_names[] = {
        "Untyped", "Integer", "String", "Buffer", "Package", "FieldUnit", "Device", "Event",
        "Method", "Mutex", "Region", "Power", "Processor", "Thermal", "BufferField",
        "DdbHandle", "DebugObject",
    };
    const char *name = t < sizeof(acpica_names) / sizeof(acpica_names[0]) ? acpica_names[t]
                       : t == OT_REFERENCE ? "Reference" : "RegionField";
    int n = fmt_snprintf(text, sizeof(text), "[%s Object]", name);

    *out = obj_string(a, text, (uint32_t)n);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

int x_concat(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *x = NULL, *y = NULL, *y2 = NULL, *r = NULL;
    int st = AML_OK;

    /* Anything but an Integer, String or Buffer takes part as "[<type> Object]". */
    for (unsigned i = 0; i < 2 && !st; i++) {
        struct aml_object **slot = i ? &y : &x;
        struct operand *o = &ops[i];
        if (o->kind == OPD_OBJ && (o->obj->type == AML_TYPE_INTEGER ||
                                   o->obj->type == AML_TYPE_STRING ||
                                   o->obj->type == AML_TYPE_BUFFER))
            *slot = obj_get(o->obj);
        else
            st = type_string(a, o, slot);
    }
    if (!st) {
        switch (x->type) {
        case AML_TYPE_INTEGER: st = conv_integer(a, y, false, &y2); break;
        case AML_TYPE_BUFFER: st = conv_buffer(a, y, &y2); break;
        default: st = conv_string(a, y, STR_HEX_IMPLICIT, &y2); break;
        }
    }
    if (!st) {
        if (x->type == AML_TYPE_INTEGER) {
            unsigned w = a->int64 ? 8 : 4;
            r = obj_buffer(a, 2 * w);
            for (unsigned i = 0; r && i < w; i++) {
                r->u.buf.data[i] = (uint8_t)(x->u.integer >> (8 * i));
                r->u.buf.data[w + i] = (uint8_t)(y2->u.integer >> (8 * i));
            }
        } else {
            uint32_t n = x->u.buf.len + y2->u.buf.len;
            r = x->type == AML_TYPE_STRING ? obj_string(a, NULL, n) : obj_buffer(a, n);
            if (r && x->u.buf.len)
                memcpy(r->u.buf.data, x->u.buf.data, x->u.buf.len);
            if (r && y2->u.buf.len)
                memcpy(r->u.buf.data + x->u.buf.len, y2->u.buf.data, y2->u.buf.len);
        }
        st = give(a, f, r, &ops[2], out);
    }
    obj_put(a, x);
    obj_put(a, y);
    obj_put(a, y2);
    return st;
}

int x_concat_res(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    uint32_t len[2];

    for (unsigned i = 0; i < 2; i++)
        if (resource_end_tag(ops[i].obj->u.buf.data, ops[i].obj->u.buf.len, &len[i]))
            return fail(a, AML_E_OPERAND_VALUE, "resource template without its end tag");
    struct aml_object *r = obj_buffer(a, len[0] + len[1] + 2);
    if (r) {
        memcpy(r->u.buf.data, ops[0].obj->u.buf.data, len[0]);
        memcpy(r->u.buf.data + len[0], ops[1].obj->u.buf.data, len[1]);
        r->u.buf.data[len[0] + len[1]] = 0x79;  /* End Tag, checksum 0: "ignore" */
    }
    return give(a, f, r, &ops[2], out);
}

int x_to_string(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *b = ops[0].obj;
    uint32_t n = 0;

    while (n < b->u.buf.len && n < ival(&ops[1]) && b->u.buf.data[n])
        n++;
    return give_fixed(a, f, obj_string(a, b->u.buf.data, n), &ops[2], out);
}

int x_mid(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *s = ops[0].obj;
    uint64_t at = ival(&ops[1]), n = ival(&ops[2]);

    if (at >= s->u.buf.len)
        n = 0;
    else if (n > s->u.buf.len - at)
        n = s->u.buf.len - at;
    struct aml_object *r = s->type == AML_TYPE_STRING ? obj_string(a, NULL, (uint32_t)n)
                                                     : obj_buffer(a, (uint32_t)n);
    if (r && n)
        memcpy(r->u.buf.data, s->u.buf.data + at, (size_t)n);
    return give(a, f, r, &ops[3], out);
}

int x_conversion(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *r = NULL;
    int st;

    switch (a->err_op) {
    case 0x96: st = conv_buffer(a, ops[0].obj, &r); break;
    case 0x97: st = conv_string(a, ops[0].obj, STR_DECIMAL, &r); break;
    case 0x98: st = conv_string(a, ops[0].obj, STR_HEX_EXPLICIT, &r); break;
    default: st = conv_integer(a, ops[0].obj, true, &r); break;
    }
    return st ? st : give_fixed(a, f, r, &ops[1], out);
}

/* ---- packages, references ----------------------------------------------------------------- */

int x_index(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *src = ops[0].obj;
    uint64_t i = ival(&ops[1]);
    uint32_t limit = src->type == AML_TYPE_PACKAGE ? src->u.pkg.count : src->u.buf.len;

    if (i >= limit)
        return fail(a, AML_E_INDEX_LIMIT, NULL);
    struct aml_object *r = obj_ref(a, src->type == AML_TYPE_PACKAGE ? REF_INDEX
                                                                     : REF_INDEX_BYTE);
    if (r) {
        r->u.ref.target = obj_get(src);
        r->u.ref.index = (uint32_t)i;
    }
    return give(a, f, r, &ops[2], out);
}

static int match_one(struct aml *a, uint64_t op, struct aml_object *element,
                     struct aml_object *value, bool *hit)
{
    bool t = true;
    int st = AML_OK;
    struct aml_error saved = a->err;

    switch (op) {
    case 0: break;                                                          /* MTR */
    case 1: st = logical_compare(a, 0x93, value, element, &t); break;       /* MEQ */
    case 2: st = logical_compare(a, 0x95, value, element, &t); t = !t; break; /* MLE */
    case 3: st = logical_compare(a, 0x94, value, element, &t); break;       /* MLT */
    case 4: st = logical_compare(a, 0x94, value, element, &t); t = !t; break; /* MGE */
    case 5: st = logical_compare(a, 0x95, value, element, &t); break;       /* MGT */
    default: t = false; break;
    }
    /* An element that does not convert simply does not match (ACPICA). */
    if (st) {
        a->err = saved;
        t = false;
    }
    *hit = t;
    return AML_OK;
}

int x_match(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *pkg = ops[0].obj;
    uint64_t found = ones(a);
    (void)f;

    if (ival(&ops[1]) > 5 || ival(&ops[3]) > 5)
        return fail(a, AML_E_OPERAND_VALUE, "Match operator");
    if (ival(&ops[5]) >= pkg->u.pkg.count)
        return fail(a, AML_E_INDEX_LIMIT, NULL);
    for (uint32_t i = (uint32_t)ival(&ops[5]); i < pkg->u.pkg.count; i++) {
        struct aml_object *e = pkg->u.pkg.elems[i];
        bool h1, h2;
        if (!e)
            continue;
        match_one(a, ival(&ops[1]), e, ops[2].obj, &h1);
        if (!h1)
            continue;
        match_one(a, ival(&ops[3]), e, ops[4].obj, &h2);
        if (h2) {
            found = i;
            break;
        }
    }
    *out = obj_integer(a, found);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

static int refof(struct aml *a, struct operand *o, struct aml_object **out)
{
    if (o->kind == OPD_NODE) {
        struct aml_object *r = obj_ref(a, REF_REFOF);
        if (!r)
            return fail(a, AML_E_NO_MEMORY, NULL);
        r->u.ref.node = ns_resolve_alias(o->node);
        r->u.ref.node->refs++;
        *out = r;
        return AML_OK;
    }
    if (o->kind == OPD_OBJ && o->obj->type == OT_REFERENCE) {
        *out = obj_get(o->obj);
        return AML_OK;
    }
    return fail(a, AML_E_UNSUPPORTED, "RefOf of a LocalX or ArgX");
}

int x_refof(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    return refof(a, &ops[0], out);
}

int x_condrefof(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct aml_object *r;

    if (ops[0].kind == OPD_NONE || (ops[0].kind == OPD_NODE && ops[0].node == a->root))
        return give_bool(a, false, out);
    int st = refof(a, &ops[0], &r);
    if (st)
        return st;
    st = store_to(a, f, &ops[1], r, false, false);
    obj_put(a, r);
    return st ? st : give_bool(a, true, out);
}

/* What a name or reference stands for (ACPICA's AcpiExResolveMultiple): the type,
 * and the object when there is one, following references to the end (a LocalX that
 * holds RefOf(X) is X; an Index into a package is the element). */
static int deref_multiple(struct aml *a, struct frame *f, struct operand *o, unsigned *type,
                          struct aml_object **obj)
{
    struct aml_node *node = NULL;
    struct aml_object *v = NULL;

    *obj = NULL;
    switch (o->kind) {
    case OPD_NODE:
        node = ns_resolve_alias(o->node);
        break;
    case OPD_LOCAL:
    case OPD_ARG:
        v = o->kind == OPD_LOCAL ? f->locals[o->index] : f->args[o->index];
        if (!v) {
            *type = AML_TYPE_ANY;
            return AML_OK;
        }
        break;
    case OPD_DEBUG:
        *type = AML_TYPE_DEBUG;
        return AML_OK;
    case OPD_OBJ:
        v = o->obj;
        break;
    default:
        return fail(a, AML_E_OPERAND_TYPE, NULL);
    }
    for (unsigned hops = 0;; hops++) {
        if (node) {
            v = node->u.obj;
            if (!v || node->type == AML_TYPE_DEVICE || node->type == AML_TYPE_THERMAL) {
                *type = node->type == OT_SCOPE ? AML_TYPE_ANY : node->type;
                *obj = v;
                return AML_OK;
            }
            node = NULL;
        }
        if (v->type != OT_REFERENCE)
            break;
        if (hops > a->cfg.limits.expression_depth)
            return fail(a, AML_E_DEPTH_LIMIT, "references to references");
        switch (v->sub) {
        case REF_NAME:
            if (v->u.ref.name) {        /* not resolved yet: see resolve_value() */
                *type = AML_TYPE_ANY;
                return AML_OK;
            }
            node = ns_resolve_alias(v->u.ref.node);
            break;
        case REF_REFOF:
            node = ns_resolve_alias(v->u.ref.node);
            break;
        case REF_INDEX:
            v = v->u.ref.target->u.pkg.elems[v->u.ref.index];
            if (!v) {
                *type = AML_TYPE_ANY;   /* an uninitialized element */
                return AML_OK;
            }
            break;
        default:                        /* a byte of a buffer or string */
            *type = AML_TYPE_BUFFER_FIELD;
            return AML_OK;
        }
    }
    *type = obj_public_type(v);
    *obj = v;
    return AML_OK;
}

int x_object_type(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    unsigned type;
    struct aml_object *v;
    int st = deref_multiple(a, f, &ops[0], &type, &v);

    if (st)
        return st;
    *out = obj_integer(a, type);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

int x_sizeof(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    unsigned type;
    struct aml_object *v;
    uint64_t n;
    int st = deref_multiple(a, f, &ops[0], &type, &v);

    if (st)
        return st;
    switch (v ? v->type : AML_TYPE_ANY) {
    case AML_TYPE_INTEGER: n = a->int64 ? 8 : 4; break;
    case AML_TYPE_STRING:
    case AML_TYPE_BUFFER: n = v->u.buf.len; break;
    case AML_TYPE_PACKAGE: n = v->u.pkg.count; break;
    default: return fail(a, AML_E_OPERAND_TYPE, obj_type_name(type));
    }
    *out = obj_integer(a, n);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

static int node_value(struct aml *a, struct aml_node *node, struct aml_object **out)
{
    node = ns_resolve_alias(node);
    struct aml_object *v = node->u.obj;

    if (node->type == AML_TYPE_DEVICE || node->type == AML_TYPE_THERMAL || !v) {
        /* A name with no value stands for itself: keep it as a reference. */
        struct aml_object *r = obj_ref(a, REF_REFOF);
        if (!r)
            return fail(a, AML_E_NO_MEMORY, NULL);
        r->u.ref.node = node;
        node->refs++;
        *out = r;
        return AML_OK;
    }
    if (obj_is_field(v))
        return field_read(a, v, out);
    *out = obj_get(v);
    return AML_OK;
}

/* DerefOf: a reference's target, or the object a String names. */
int x_derefof(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    struct operand o = ops[0];
    struct aml_object *v;

    if (o.kind == OPD_NODE) {
        v = ns_resolve_alias(o.node)->u.obj;
        if (!v || (v->type != AML_TYPE_STRING && v->type != OT_REFERENCE))
            return fail(a, AML_E_OPERAND_TYPE, "DerefOf a name that holds no reference");
    } else if (o.kind == OPD_LOCAL || o.kind == OPD_ARG) {
        v = o.kind == OPD_LOCAL ? f->locals[o.index] : f->args[o.index];
        if (!v)
            return fail(a, o.kind == OPD_LOCAL ? AML_E_UNINITIALIZED_LOCAL
                                               : AML_E_UNINITIALIZED_ARG, NULL);
    } else if (o.kind == OPD_OBJ) {
        v = o.obj;
    } else {
        return fail(a, AML_E_OPERAND_TYPE, NULL);
    }
    if (v->type == AML_TYPE_STRING) {
        uint8_t segs[256 * 4];
        struct aml_name n;
        if (!ns_parse_path((const char *)v->u.buf.data, &n, segs, sizeof(segs)))
            return fail(a, AML_E_NOT_FOUND, (const char *)v->u.buf.data);
        struct aml_node *node = ns_find(a, f->scope, &n, NS_SEARCH);
        if (!node)
            return fail(a, AML_E_NOT_FOUND, (const char *)v->u.buf.data);
        return node_value(a, node, out);
    }
    if (v->type != OT_REFERENCE)
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(v->type));
    switch (v->sub) {
    case REF_REFOF:
    case REF_NAME:
        return node_value(a, v->u.ref.node, out);
    case REF_INDEX:
        *out = obj_get(v->u.ref.target->u.pkg.elems[v->u.ref.index]);
        return *out ? AML_OK : fail(a, AML_E_UNINITIALIZED_ELEMENT, NULL);
    default:
        *out = obj_integer(a, v->u.ref.target->u.buf.data[v->u.ref.index]);
        return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
    }
}

/* ---- Notify, timing, synchronisation -------------------------------------------------------- */

int x_notify(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)out;
    struct aml_node *n = ops[0].kind == OPD_NODE ? ns_resolve_alias(ops[0].node) : NULL;
    unsigned t = n ? n->type : 0;

    if (t != AML_TYPE_DEVICE && t != AML_TYPE_PROCESSOR && t != AML_TYPE_THERMAL)
        return fail(a, AML_E_OPERAND_TYPE, "Notify of an object that is no device");
    /* Nobody listens: the operating system's handlers are not here. */
    if (a->cfg.host.debug) {
        char path[64], line[96];
        aml_node_path(n, path, sizeof(path));
        fmt_snprintf(line, sizeof(line), "Notify (%s, 0x%X): no handler", path,
                     (unsigned)ival(&ops[1]));
        a->cfg.host.debug(a->cfg.host.ctx, line);
    }
    return AML_OK;
}

int x_stall(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)out;
    if (ival(&ops[0]) > STALL_MAX_US)
        return fail(a, AML_E_OPERAND_VALUE, "Stall over 255 us");
    if (a->cfg.host.stall_us)
        a->cfg.host.stall_us(a->cfg.host.ctx, (uint32_t)ival(&ops[0]));
    return AML_OK;
}

int x_sleep(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)out;
    uint64_t ms = ival(&ops[0]);

    if (ms > SLEEP_MAX_MS)
        ms = SLEEP_MAX_MS;
    if (a->cfg.host.sleep_ms)
        a->cfg.host.sleep_ms(a->cfg.host.ctx, (uint32_t)ms);
    return AML_OK;
}

int x_timer(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)ops;
    uint64_t t = a->cfg.host.timer_100ns ? a->cfg.host.timer_100ns(a->cfg.host.ctx)
                                         : (uint64_t)a->steps * 10;
    *out = obj_integer(a, t);
    return *out ? AML_OK : fail(a, AML_E_NO_MEMORY, NULL);
}

int x_fatal(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)out;
    /* ACPICA tells the operating system and goes on; so do we. */
    if (a->cfg.host.debug) {
        char line[96];
        fmt_snprintf(line, sizeof(line), "Fatal (type 0x%X, code 0x%X, argument 0x%X)",
                     (unsigned)ival(&ops[0]), (unsigned)ival(&ops[1]),
                     (unsigned)ival(&ops[2]));
        a->cfg.host.debug(a->cfg.host.ctx, line);
    }
    return AML_OK;
}

/* One thread: a mutex is always free unless the SyncLevel order forbids it (ACPICA's
 * AE_AML_MUTEX_ORDER); Acquire therefore never times out. */
int x_acquire(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    struct aml_object *m = ops[0].obj;
    uint8_t level = a->held_count ? a->held[a->held_count - 1]->u.mutex.sync_level : 0;

    if (m->u.mutex.depth) {
        m->u.mutex.depth++;
        return give_bool(a, false, out);
    }
    if (m->u.mutex.sync_level < level)
        return fail(a, AML_E_MUTEX, "Acquire below the current SyncLevel");
    if (a->held_count == sizeof(a->held) / sizeof(a->held[0]))
        return fail(a, AML_E_DEPTH_LIMIT, "mutexes held");
    if (m->u.mutex.global && a->cfg.host.global_lock &&
        a->cfg.host.global_lock(a->cfg.host.ctx, true))
        return give_bool(a, true, out);        /* the firmware holds it: timed out */
    m->u.mutex.depth = 1;
    a->held[a->held_count++] = obj_get(m);
    return give_bool(a, false, out);
}

void release_mutex(struct aml *a, struct aml_object *m)
{
    for (unsigned i = a->held_count; i-- > 0;)
        if (a->held[i] == m) {
            for (unsigned j = i; j + 1 < a->held_count; j++)
                a->held[j] = a->held[j + 1];
            a->held_count--;
            break;
        }
    m->u.mutex.depth = 0;
    if (m->u.mutex.global && a->cfg.host.global_lock)
        a->cfg.host.global_lock(a->cfg.host.ctx, false);
    obj_put(a, m);
}

int x_release(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    (void)out;
    struct aml_object *m = ops[0].obj;

    if (!m->u.mutex.depth)
        return fail(a, AML_E_MUTEX, "Release of a mutex not acquired");
    if (!m->u.mutex.global && a->held_count &&
        a->held[a->held_count - 1]->u.mutex.sync_level != m->u.mutex.sync_level)
        return fail(a, AML_E_MUTEX, "Release out of SyncLevel order");
    if (--m->u.mutex.depth)
        return AML_OK;
    release_mutex(a, m);
    return AML_OK;
}

int x_event(struct aml *a, struct frame *f, struct operand *ops, struct aml_object **out)
{
    (void)f;
    struct aml_object *e = ops[0].obj;

    switch (a->err_op) {
    case 0x5B24:                    /* Signal */
        e->u.event.signals++;
        return AML_OK;
    case 0x5B26:                    /* Reset */
        e->u.event.signals = 0;
        return AML_OK;
    default:                        /* Wait: nobody else can Signal */
        if (e->u.event.signals) {
            e->u.event.signals--;
            return give_bool(a, false, out);
        }
        if (a->cfg.host.sleep_ms) {
            uint64_t ms = ival(&ops[1]);
            a->cfg.host.sleep_ms(a->cfg.host.ctx,
                                 (uint32_t)(ms > WAIT_MAX_MS ? WAIT_MAX_MS : ms));
        }
        return give_bool(a, true, out);
    }
}
