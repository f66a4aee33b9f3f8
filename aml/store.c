/* Storing a result: Store, CopyObject and the Target of every operator (ACPICA's
 * exstore.c, exstoren.c, exstorob.c, dsmthdat.c).
 *
 *   LocalX           takes the value as it is; a copy if anyone else holds it.
 *   ArgX             the same, unless it holds a RefOf: then through the reference.
 *   a named Integer, String or Buffer
 *                    keeps its type: the value is converted to it (Store and the
 *                    operators; a To* operator's target or CopyObject replaces it).
 *   a named field    is written, converted as the field needs.
 *   a named Package  takes only a Package (Store), copied.
 *   Index of a package element
 *                    takes a copy; of a buffer or string byte, the low byte.
 *   Debug            is shown through the host.
 *   a Device, Mutex, Region, ... refuses (only CopyObject may replace it). */
#include "amlint.h"
#include "../lib/format.h"
#include "../lib/string.h"

static int store_local(struct aml *a, struct aml_object **slot, struct aml_object *v)
{
    struct aml_object *nv = v;

    if (*slot == v)
        return AML_OK;
    if (v->refs > 1) {
        int st = obj_copy(a, v, &nv);
        if (st)
            return st;
    } else {
        obj_get(nv);
    }
    obj_put(a, *slot);
    *slot = nv;
    return AML_OK;
}

static int store_direct(struct aml *a, struct aml_node *node, struct aml_object *v)
{
    struct aml_object *copy;
    int st = obj_copy(a, v, &copy);

    if (st)
        return st;
    ns_attach(a, node, copy);
    obj_put(a, copy);
    return AML_OK;
}

/* A Buffer target keeps its length: the value is cut to it or padded with zeros. */
static int buffer_into_buffer(struct aml *a, struct aml_object *t, struct aml_object *s)
{
    if (s == t)
        return AML_OK;
    if (!t->u.buf.len) {
        uint8_t *d = s->u.buf.len ? heap_alloc(&a->heap, s->u.buf.len) : NULL;
        if (s->u.buf.len && !d)
            return fail(a, AML_E_NO_MEMORY, NULL);
        heap_free(&a->heap, t->u.buf.data);
        t->u.buf.data = d;
        t->u.buf.len = s->u.buf.len;
    }
    uint32_t n = s->u.buf.len < t->u.buf.len ? s->u.buf.len : t->u.buf.len;
    memset(t->u.buf.data, 0, t->u.buf.len);
    memcpy(t->u.buf.data, s->u.buf.data, n);
    return AML_OK;
}

static int string_into_string(struct aml *a, struct aml_object *t, struct aml_object *s)
{
    if (s == t)
        return AML_OK;
    uint8_t *d = heap_alloc(&a->heap, (size_t)s->u.buf.len + 1);
    if (!d)
        return fail(a, AML_E_NO_MEMORY, NULL);
    memcpy(d, s->u.buf.data, s->u.buf.len);
    heap_free(&a->heap, t->u.buf.data);
    t->u.buf.data = d;
    t->u.buf.len = s->u.buf.len;
    return AML_OK;
}

int store_to_node(struct aml *a, struct aml_node *node, struct aml_object *value,
                  bool implicit, bool copy_object)
{
    struct aml_object *target = node->u.obj;
    unsigned type = target ? target->type : node->type;
    struct aml_object *v = obj_get(value);
    int st = AML_OK;

    if (!copy_object) {
        switch (type) {
        case AML_TYPE_PACKAGE:
            if (implicit && v->type == AML_TYPE_PACKAGE)
                break;
            /* fall through */
        case AML_TYPE_DEVICE:
        case AML_TYPE_EVENT:
        case AML_TYPE_MUTEX:
        case AML_TYPE_REGION:
        case AML_TYPE_POWER:
        case AML_TYPE_PROCESSOR:
        case AML_TYPE_THERMAL:
        case AML_TYPE_METHOD:
        case OT_SCOPE:
            obj_put(a, v);
            return fail(a, AML_E_TARGET_TYPE, obj_type_name(type));
        default:
            break;
        }
    }
    /* A reference stored into a data object or a field stands for what it names. */
    bool data_target = type == AML_TYPE_INTEGER || type == AML_TYPE_STRING ||
                       type == AML_TYPE_BUFFER || obj_is_field(target);
    if (data_target && v->type == OT_REFERENCE) {
        struct operand o = { .kind = OPD_OBJ, .obj = v };
        st = resolve_value(a, a->current, &o);
        if (st) {
            operand_drop(a, &o);
            return st;
        }
        if (o.kind != OPD_OBJ)
            return fail(a, AML_E_OPERAND_TYPE, "stored value");
        v = o.obj;
    }
    if (data_target && !copy_object && v->type != AML_TYPE_INTEGER &&
        v->type != AML_TYPE_STRING && v->type != AML_TYPE_BUFFER) {
        obj_put(a, v);
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(v->type));
    }

    if (obj_is_field(target)) {
        st = field_write(a, target, v);
    } else if (type == AML_TYPE_INTEGER || type == AML_TYPE_STRING ||
               type == AML_TYPE_BUFFER) {
        if (copy_object || !implicit || !target) {
            st = store_direct(a, node, v);
        } else {
            struct aml_object *conv = NULL;
            if (v->type == target->type) {
                conv = obj_get(v);
            } else if (type == AML_TYPE_INTEGER) {
                st = conv_integer(a, v, false, &conv);
            } else if (type == AML_TYPE_STRING) {
                st = conv_string(a, v, STR_HEX_IMPLICIT, &conv);
            } else {
                st = conv_buffer(a, v, &conv);
            }
            if (!st) {
                if (type == AML_TYPE_INTEGER) {
                    target->u.integer = conv->u.integer;
                    truncate_integer(a, target);
                } else if (type == AML_TYPE_STRING) {
                    st = string_into_string(a, target, conv);
                } else {
                    st = buffer_into_buffer(a, target, conv);
                }
            }
            obj_put(a, conv);
        }
    } else {
        st = store_direct(a, node, v);
    }
    obj_put(a, v);
    return st;
}

static int store_index(struct aml *a, struct aml_object *ref, struct aml_object *v)
{
    struct aml_object *t = ref->u.ref.target;

    if (ref->sub == REF_INDEX) {
        struct aml_object *copy;
        int st = obj_copy(a, v, &copy);
        if (st)
            return st;
        obj_put(a, t->u.pkg.elems[ref->u.ref.index]);
        t->u.pkg.elems[ref->u.ref.index] = copy;
        return AML_OK;
    }
    uint8_t byte;
    switch (v->type) {
    case AML_TYPE_INTEGER:
        byte = (uint8_t)v->u.integer;
        break;
    case AML_TYPE_BUFFER:
    case AML_TYPE_STRING:
        byte = v->u.buf.len ? v->u.buf.data[0] : 0;
        break;
    default:
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(v->type));
    }
    if (ref->u.ref.index >= t->u.buf.len)
        return fail(a, AML_E_INDEX_LIMIT, NULL);
    t->u.buf.data[ref->u.ref.index] = byte;
    return AML_OK;
}

static void store_debug(struct aml *a, struct aml_object *v)
{
    char text[160], line[176];

    if (!a->cfg.host.debug)
        return;
    aml_object_format(a, v, text, sizeof(text));
    fmt_snprintf(line, sizeof(line), "Debug: %s", text);
    a->cfg.host.debug(a->cfg.host.ctx, line);
}

int store_to(struct aml *a, struct frame *f, struct operand *target, struct aml_object *value,
             bool copy_object, bool fixed_target)
{
    struct aml_object **slot;

    switch (target->kind) {
    case OPD_NONE:
        return AML_OK;
    case OPD_DEBUG:
        store_debug(a, value);
        return AML_OK;
    case OPD_LOCAL:
        return store_local(a, &f->locals[target->index], value);
    case OPD_ARG:
        slot = &f->args[target->index];
        /* An ArgX holding RefOf(name) stores into that name, unconverted. */
        if (*slot && (*slot)->type == OT_REFERENCE && (*slot)->sub == REF_REFOF && !copy_object)
            return store_to_node(a, (*slot)->u.ref.node, value, false, false);
        return store_local(a, slot, value);
    case OPD_NODE:
        return store_to_node(a, ns_resolve_alias(target->node), value, !fixed_target,
                             copy_object);
    default:
        break;
    }
    struct aml_object *r = target->obj;
    if (r->type != OT_REFERENCE)
        return fail(a, AML_E_OPERAND_TYPE, "target");
    switch (r->sub) {
    case REF_REFOF:
        return store_to_node(a, r->u.ref.node, value, !fixed_target, copy_object);
    case REF_INDEX:
    case REF_INDEX_BYTE:
        return store_index(a, r, value);
    default:
        return fail(a, AML_E_OPERAND_TYPE, "target");
    }
}
