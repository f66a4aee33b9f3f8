/* Values and their lifetimes: creation, reference counts, deep copies, type names. */
#include "amlint.h"
#include "../lib/string.h"

struct aml_object *obj_new(struct aml *a, unsigned type)
{
    struct aml_object *o = heap_alloc(&a->heap, sizeof(*o));

    if (o) {
        o->type = (uint8_t)type;
        o->refs = 1;
    }
    return o;
}

struct aml_object *obj_integer(struct aml *a, uint64_t value)
{
    struct aml_object *o = obj_new(a, AML_TYPE_INTEGER);

    if (o)
        o->u.integer = value;
    return o;
}

struct aml_object *obj_buffer(struct aml *a, uint32_t len)
{
    struct aml_object *o = obj_new(a, AML_TYPE_BUFFER);

    if (o && len) {
        o->u.buf.data = heap_alloc(&a->heap, len);
        if (!o->u.buf.data) {
            heap_free(&a->heap, o);
            return NULL;
        }
        o->u.buf.len = len;
    }
    return o;
}

struct aml_object *obj_string(struct aml *a, const void *s, uint32_t len)
{
    struct aml_object *o = obj_new(a, AML_TYPE_STRING);

    if (!o)
        return NULL;
    o->u.buf.data = heap_alloc(&a->heap, (size_t)len + 1);
    if (!o->u.buf.data) {
        heap_free(&a->heap, o);
        return NULL;
    }
    if (s && len)
        memcpy(o->u.buf.data, s, len);
    o->u.buf.len = len;
    return o;
}

struct aml_object *obj_package(struct aml *a, uint32_t count)
{
    struct aml_object *o = obj_new(a, AML_TYPE_PACKAGE);

    if (o && count) {
        o->u.pkg.elems = heap_alloc(&a->heap, (size_t)count * sizeof(struct aml_object *));
        if (!o->u.pkg.elems) {
            heap_free(&a->heap, o);
            return NULL;
        }
        o->u.pkg.count = count;
    }
    return o;
}

struct aml_object *obj_ref(struct aml *a, unsigned kind)
{
    struct aml_object *o = obj_new(a, OT_REFERENCE);

    if (o)
        o->sub = (uint16_t)kind;
    return o;
}

bool obj_is_field(const struct aml_object *o)
{
    return o && (o->type == OT_REGION_FIELD || o->type == OT_BANK_FIELD ||
                 o->type == OT_INDEX_FIELD || o->type == AML_TYPE_BUFFER_FIELD);
}

/* Packages nest without bound (a loop may store a package into itself's copy), so
 * freeing walks an explicit list of dying objects instead of recursing. */
void obj_put(struct aml *a, struct aml_object *o)
{
    struct aml_object *list = NULL;

#define DIES(x) do { struct aml_object *x_ = (x); \
        if (x_ && !--x_->refs) { x_->dying = list; list = x_; } } while (0)
    DIES(o);
    while (list) {
        struct aml_object *d = list;
        list = d->dying;
        switch (d->type) {
        case AML_TYPE_STRING:
        case AML_TYPE_BUFFER:
            if (!(d->flags & OBJ_STATIC))
                heap_free(&a->heap, d->u.buf.data);
            break;
        case AML_TYPE_PACKAGE:
            for (uint32_t i = 0; i < d->u.pkg.count; i++)
                DIES(d->u.pkg.elems[i]);
            heap_free(&a->heap, d->u.pkg.elems);
            break;
        case OT_REGION_FIELD:
        case OT_BANK_FIELD:
        case OT_INDEX_FIELD:
        case AML_TYPE_BUFFER_FIELD:
            DIES(d->u.field.region);
            DIES(d->u.field.reg);
            DIES(d->u.field.data);
            break;
        case OT_REFERENCE:
            DIES(d->u.ref.target);
            node_put(a, d->u.ref.node);
            break;
        default:
            break;
        }
        heap_free(&a->heap, d);
    }
#undef DIES
}

static int copy_depth(struct aml *a, struct aml_object *src, struct aml_object **out,
                      unsigned depth)
{
    struct aml_object *o;

    *out = NULL;
    if (depth > a->cfg.limits.expression_depth)
        return fail(a, AML_E_DEPTH_LIMIT, "package nesting");
    switch (src->type) {
    case AML_TYPE_INTEGER:
        o = obj_integer(a, src->u.integer);
        break;
    case AML_TYPE_STRING:
        o = obj_string(a, src->u.buf.data, src->u.buf.len);
        break;
    case AML_TYPE_BUFFER:
        o = obj_buffer(a, src->u.buf.len);
        if (o && src->u.buf.len)
            memcpy(o->u.buf.data, src->u.buf.data, src->u.buf.len);
        break;
    case AML_TYPE_PACKAGE:
        o = obj_package(a, src->u.pkg.count);
        for (uint32_t i = 0; o && i < src->u.pkg.count; i++) {
            struct aml_object *e = src->u.pkg.elems[i];
            if (!e)
                continue;
            int st = copy_depth(a, e, &o->u.pkg.elems[i], depth + 1);
            if (st) {
                obj_put(a, o);
                return st;
            }
        }
        break;
    case AML_TYPE_MUTEX:
        o = obj_new(a, src->type);
        if (o)
            o->u.mutex.sync_level = src->u.mutex.sync_level;
        break;
    case AML_TYPE_EVENT:
        o = obj_new(a, src->type);
        break;
    default:
        /* Everything else is a descriptor: the copy shares what it points to. */
        o = obj_new(a, src->type);
        if (!o)
            break;
        o->flags = src->flags;
        o->sub = src->sub;
        o->u = src->u;
        if (obj_is_field(o)) {
            obj_get(o->u.field.region);
            obj_get(o->u.field.reg);
            obj_get(o->u.field.data);
        } else if (o->type == OT_REFERENCE) {
            obj_get(o->u.ref.target);
            if (o->u.ref.node)
                o->u.ref.node->refs++;
        }
        break;
    }
    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    *out = o;
    return AML_OK;
}

int obj_copy(struct aml *a, struct aml_object *src, struct aml_object **out)
{
    return copy_depth(a, src, out, 0);
}

unsigned obj_public_type(const struct aml_object *o)
{
    if (!o)
        return AML_TYPE_ANY;
    switch (o->type) {
    case OT_REGION_FIELD:
    case OT_BANK_FIELD:
    case OT_INDEX_FIELD:
        return AML_TYPE_FIELD_UNIT;
    case OT_REFERENCE:
    case OT_SCOPE:
    case OT_ALIAS:
        return AML_TYPE_ANY;
    default:
        return o->type <= AML_TYPE_DEBUG ? o->type : AML_TYPE_ANY;
    }
}

const char *obj_type_name(unsigned type)
{
    static const char *const names[] = {
        "Uninitialized", "Integer", "String", "Buffer", "Package", "FieldUnit",
        "Device", "Event", "Method", "Mutex", "OperationRegion", "PowerResource",
        "Processor", "ThermalZone", "BufferField", "DDBHandle", "Debug",
    };

    if (type < sizeof(names) / sizeof(names[0]))
        return names[type];
    switch (type) {
    case OT_REGION_FIELD: return "Field";
    case OT_BANK_FIELD: return "BankField";
    case OT_INDEX_FIELD: return "IndexField";
    case OT_REFERENCE: return "Reference";
    case OT_SCOPE: return "Scope";
    case OT_ALIAS: return "Alias";
    default: return "?";
    }
}
