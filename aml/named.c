/* The operators that create names (ACPI 6.x, 19.6 and 20.2.5.2): Name, Scope, Method,
 * Alias, External, Device, Processor, PowerResource, ThermalZone, Mutex, Event,
 * OperationRegion, DataTableRegion, Field, IndexField, BankField and Create*Field,
 * and the Buffer and Package data they may hold.
 *
 * A name made by a running method lives until the method returns; at module level it
 * is the table's for good (ACPICA marks the first kind temporary). Operands are
 * evaluated when the operator runs, as ACPICA 2020 does when it executes a table as
 * a method. */
#include "amlint.h"
#include "../lib/string.h"

int create_node(struct aml *a, struct frame *f, const struct aml_name *n, unsigned type,
                struct aml_node **out)
{
    int st = ns_create(a, f->scope, n, type, out);

    if (st == AML_E_ALREADY_EXISTS || st == AML_E_NOT_FOUND)
        return fail_name(a, st, n);
    if (st)
        return fail(a, st, NULL);
    if (!f->module_level) {
        (*out)->flags |= NODE_TEMPORARY;
        (*out)->next_temp = f->temps;
        f->temps = *out;
    }
    return AML_OK;
}

static int attach_new(struct aml *a, struct frame *f, const struct aml_name *n,
                      struct aml_object *o, struct aml_node **out)
{
    struct aml_node *node;
    int st;

    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    st = create_node(a, f, n, o->type, &node);
    if (!st)
        ns_attach(a, node, o);
    obj_put(a, o);
    if (out)
        *out = st ? NULL : node;
    return st;
}

static int read_name(struct aml *a, struct cursor *c, struct aml_name *n)
{
    int st = stream_name(c, n);

    return st ? fail(a, st, "NameString") : AML_OK;
}

static int pkg_end(struct aml *a, struct cursor *c, const uint8_t **end)
{
    int st = stream_pkg_length(c, end);

    return st ? fail(a, st, "PkgLength") : AML_OK;
}

/* The name that follows a PkgLength, read within the package: a name running past
 * the package's end is bad AML, not a name that ends in what follows. */
static int name_within(struct aml *a, struct cursor *c, const uint8_t *end,
                       struct aml_name *n)
{
    struct cursor in = { c->p, end };
    int st = read_name(a, &in, n);

    c->p = in.p;
    return st;
}

/* Runs an object list (Scope, Device, ...) with node as the scope. */
static int in_scope(struct aml *a, struct frame *f, struct aml_node *node,
                    const uint8_t *p, const uint8_t *end)
{
    struct aml_node *saved = f->scope;

    f->scope = node;
    int st = exec_term_list(a, f, p, end);
    f->scope = saved;
    return st;
}

/* ---- data: Buffer, Package ------------------------------------------------------ */

int eval_buffer(struct aml *a, struct frame *f, struct cursor *c, struct aml_object **out)
{
    const uint8_t *end;
    uint64_t size;
    int st = pkg_end(a, c, &end);

    *out = NULL;
    if (st)
        return st;
    struct cursor in = { c->p, end };
    st = eval_integer(a, f, &in, &size);
    if (st)
        return st;
    uint32_t list = (uint32_t)(end - in.p);
    /* A byte list longer than the size wins (ACPICA does the same). */
    if (size < list)
        size = list;
    if (size > (uint64_t)(a->heap.end - a->heap.base))
        return fail(a, AML_E_NO_MEMORY, "Buffer size");
    struct aml_object *o = obj_buffer(a, (uint32_t)size);
    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    if (list)
        memcpy(o->u.buf.data, in.p, list);
    c->p = end;
    *out = o;
    return AML_OK;
}

static int package_element(struct aml *a, struct frame *f, struct cursor *c,
                           struct aml_object **out)
{
    struct operand o;
    int st;

    *out = NULL;
    if (stream_is_name_start(*c->p)) {
        /* A name is kept as written and resolved later: never a method call. */
        struct aml_name n;
        const uint8_t *at = c->p;
        st = read_name(a, c, &n);
        if (st)
            return st;
        struct aml_object *r = obj_ref(a, REF_NAME);
        if (!r)
            return fail(a, AML_E_NO_MEMORY, NULL);
        r->u.ref.node = f->scope;
        r->u.ref.node->refs++;
        r->u.ref.name = at;
        *out = r;
        return AML_OK;
    }
    st = eval_term_arg(a, f, c, &o);
    if (!st)
        st = resolve_value(a, f, &o);
    if (!st && o.kind != OPD_OBJ)
        st = fail(a, AML_E_OPERAND_TYPE, "package element");
    if (st) {
        operand_drop(a, &o);
        return st;
    }
    *out = o.obj;
    return AML_OK;
}

int eval_package(struct aml *a, struct frame *f, struct cursor *c, bool var,
                 struct aml_object **out)
{
    const uint8_t *end;
    uint64_t count;
    int st = pkg_end(a, c, &end);

    *out = NULL;
    if (st)
        return st;
    struct cursor in = { c->p, end };
    if (var) {
        st = eval_integer(a, f, &in, &count);
    } else {
        uint8_t n8;
        st = stream_u8(&in, &n8) ? fail(a, AML_E_BAD_AML, "Package") : AML_OK;
        count = n8;
    }
    if (st)
        return st;
    if (count * sizeof(void *) > (uint64_t)(a->heap.end - a->heap.base))
        return fail(a, AML_E_NO_MEMORY, "Package size");
    struct aml_object *pkg = obj_package(a, (uint32_t)count);
    if (!pkg)
        return fail(a, AML_E_NO_MEMORY, NULL);
    /* Past NumElements the list is parsed and dropped; short of it, the rest stay
     * uninitialized (both as ACPICA). */
    for (uint32_t i = 0; in.p < end; i++) {
        struct aml_object *e;
        st = package_element(a, f, &in, &e);
        if (st) {
            obj_put(a, pkg);
            return st;
        }
        if (i < count)
            pkg->u.pkg.elems[i] = e;
        else
            obj_put(a, e);
    }
    c->p = end;
    if (!f->module_level)
        resolve_package_names(a, pkg);
    *out = pkg;
    return AML_OK;
}

/* ACPICA's AcpiDsResolvePackageElement: a name becomes the value it names (a field is
 * read now), except a Device, ThermalZone, Method, Mutex, PowerResource, Processor,
 * Event or OperationRegion, which stays a reference to the name. A name that does
 * not exist becomes an uninitialized element. */
static void resolve_element(struct aml *a, struct aml_object **slot)
{
    struct aml_object *r = *slot;
    struct aml_name n;
    struct cursor c;

    if (!r || r->type != OT_REFERENCE || r->sub != REF_NAME || !r->u.ref.name)
        return;
    c.p = r->u.ref.name;
    c.end = r->u.ref.name + 2 + 255 * 4 + 64;   /* a NameString is at most this long */
    if (stream_name(&c, &n)) {
        obj_put(a, r);
        *slot = NULL;
        return;
    }
    struct aml_node *node = ns_find(a, r->u.ref.node, &n, NS_SEARCH);
    if (!node || (node->flags & NODE_DEAD) || node->type == AML_TYPE_ANY) {
        obj_put(a, r);
        *slot = NULL;
        return;
    }
    node_put(a, r->u.ref.node);
    r->u.ref.node = node;
    node->refs++;
    r->u.ref.name = NULL;
    switch (node->type) {
    case AML_TYPE_DEVICE:
    case AML_TYPE_THERMAL:
    case AML_TYPE_METHOD:
    case AML_TYPE_MUTEX:
    case AML_TYPE_POWER:
    case AML_TYPE_PROCESSOR:
    case AML_TYPE_EVENT:
    case AML_TYPE_REGION:
    case OT_SCOPE:
        return;
    default:
        break;
    }
    struct aml_object *v = NULL;
    if (obj_is_field(node->u.obj)) {
        if (field_read(a, node->u.obj, &v)) {
            a->err = (struct aml_error){ 0 };
            return;                 /* ACPICA leaves the reference */
        }
    } else {
        v = obj_get(node->u.obj);
    }
    if (!v)
        return;
    obj_put(a, r);
    *slot = v;
}

void resolve_package_names(struct aml *a, struct aml_object *pkg)
{
    /* Nested packages were resolved when they were built, but a named package's
     * elements wait for the end of the load: walk every level. */
    for (uint32_t i = 0; i < pkg->u.pkg.count; i++) {
        struct aml_object **slot = &pkg->u.pkg.elems[i];
        resolve_element(a, slot);
        if (*slot && (*slot)->type == AML_TYPE_PACKAGE && a->expr_depth <
            a->cfg.limits.expression_depth) {
            a->expr_depth++;
            resolve_package_names(a, *slot);
            a->expr_depth--;
        }
    }
}

/* ---- Name, Scope, Method, Alias, External ----------------------------------------- */

static int op_name(struct aml *a, struct frame *f, struct cursor *c)
{
    struct aml_name n;
    struct operand o;
    int st = read_name(a, c, &n);

    if (st)
        return st;
    st = eval_term_arg(a, f, c, &o);
    if (!st)
        st = resolve_value(a, f, &o);
    if (!st && o.kind != OPD_OBJ)
        st = fail(a, AML_E_OPERAND_TYPE, "Name's value");
    if (!st) {
        st = attach_new(a, f, &n, o.obj, NULL);
        o.obj = NULL;
    }
    operand_drop(a, &o);
    return st;
}

static int op_scope(struct aml *a, struct frame *f, struct cursor *c)
{
    const uint8_t *end;
    struct aml_name n;
    int st = pkg_end(a, c, &end);

    if (!st)
        st = name_within(a, c, end, &n);
    if (st)
        return st;
    struct aml_node *node = ns_find(a, f->scope, &n, NS_SEARCH);
    if (!node || (node->flags & NODE_DEAD)) {
        c->p = end;
        return fail_name(a, AML_E_NOT_FOUND, &n);
    }
    const uint8_t *body = c->p;
    c->p = end;
    return in_scope(a, f, node, body, end);
}

static int op_method(struct aml *a, struct frame *f, struct cursor *c)
{
    const uint8_t *end;
    struct aml_name n;
    uint8_t flags;
    int st = pkg_end(a, c, &end);

    if (!st)
        st = name_within(a, c, end, &n);
    struct cursor in = { c->p, end };
    if (!st && stream_u8(&in, &flags))
        st = fail(a, AML_E_BAD_AML, "Method");
    c->p = in.p;
    if (st)
        return st;
    struct aml_object *m = obj_new(a, AML_TYPE_METHOD);
    if (m) {
        m->sub = flags;
        m->u.method.code = c->p;
        m->u.method.len = (uint32_t)(end - c->p);
        m->u.method.table = f->table;
    }
    c->p = end;
    return attach_new(a, f, &n, m, NULL);
}

static int op_alias(struct aml *a, struct frame *f, struct cursor *c)
{
    struct aml_name src, alias;
    struct aml_node *node;
    int st = read_name(a, c, &src);

    if (!st)
        st = read_name(a, c, &alias);
    if (st)
        return st;
    struct aml_node *target = ns_find(a, f->scope, &src, NS_SEARCH);
    if (!target || (target->flags & NODE_DEAD))
        return fail_name(a, AML_E_NOT_FOUND, &src);
    st = create_node(a, f, &alias, OT_ALIAS, &node);
    if (st)
        return st;
    node->u.alias = target;
    target->refs++;
    return AML_OK;
}

static int op_external(struct aml *a, struct cursor *c)
{
    struct aml_name n;
    uint8_t type, args;
    int st = read_name(a, c, &n);

    /* A compiler's note of a name defined elsewhere: nothing happens at run time. */
    if (!st && (stream_u8(c, &type) || stream_u8(c, &args)))
        st = fail(a, AML_E_BAD_AML, "External");
    return st;
}

/* ---- Device, Processor, PowerResource, ThermalZone --------------------------------- */

static int op_scoped_object(struct aml *a, struct frame *f, struct cursor *c, uint16_t op)
{
    const uint8_t *end;
    struct aml_name n;
    struct aml_object *o = NULL;
    struct aml_node *node;
    unsigned type;
    int st = pkg_end(a, c, &end);

    if (!st)
        st = name_within(a, c, end, &n);
    if (st)
        return st;
    struct cursor in = { c->p, end };
    switch (op) {
    case 0x5B82:
        type = AML_TYPE_DEVICE;
        break;
    case 0x5B83: {
        uint8_t id, len;
        uint32_t pblk;
        type = AML_TYPE_PROCESSOR;
        if (stream_u8(&in, &id) || stream_u32(&in, &pblk) || stream_u8(&in, &len))
            return fail(a, AML_E_BAD_AML, "Processor");
        o = obj_new(a, type);
        if (o) {
            o->u.processor.id = id;
            o->u.processor.pblk = pblk;
            o->u.processor.pblk_len = len;
        }
        break;
    }
    case 0x5B84: {
        uint8_t level;
        uint16_t order;
        type = AML_TYPE_POWER;
        if (stream_u8(&in, &level) || stream_u16(&in, &order))
            return fail(a, AML_E_BAD_AML, "PowerResource");
        o = obj_new(a, type);
        if (o) {
            o->u.power.system_level = level;
            o->u.power.order = order;
        }
        break;
    }
    default:
        type = AML_TYPE_THERMAL;
        break;
    }
    c->p = end;
    if (type != AML_TYPE_DEVICE && type != AML_TYPE_THERMAL && !o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    st = create_node(a, f, &n, type, &node);
    if (!st && o)
        ns_attach(a, node, o);
    obj_put(a, o);
    if (st)
        return st;
    return in_scope(a, f, node, in.p, end);
}

/* ---- Mutex, Event -------------------------------------------------------------------- */

static int op_mutex_event(struct aml *a, struct frame *f, struct cursor *c, uint16_t op)
{
    struct aml_name n;
    uint8_t sync = 0;
    int st = read_name(a, c, &n);

    if (st)
        return st;
    if (op == 0x5B01 && stream_u8(c, &sync))
        return fail(a, AML_E_BAD_AML, "Mutex");
    struct aml_object *o = obj_new(a, op == 0x5B01 ? AML_TYPE_MUTEX : AML_TYPE_EVENT);
    if (o && op == 0x5B01)
        o->u.mutex.sync_level = sync & 0x0F;
    return attach_new(a, f, &n, o, NULL);
}

/* ---- OperationRegion, DataTableRegion ----------------------------------------------- */

static int op_region(struct aml *a, struct frame *f, struct cursor *c)
{
    struct aml_name n;
    uint8_t space;
    uint64_t offset, length;
    struct aml_node *node;
    int st = read_name(a, c, &n);

    if (!st && stream_u8(c, &space))
        st = fail(a, AML_E_BAD_AML, "OperationRegion");
    if (!st)
        st = eval_integer(a, f, c, &offset);
    if (!st)
        st = eval_integer(a, f, c, &length);
    if (st)
        return st;
    struct aml_object *o = obj_new(a, AML_TYPE_REGION);
    if (o) {
        o->u.region.space = space;
        o->u.region.address = offset;
        o->u.region.length = (uint32_t)length;
    }
    st = attach_new(a, f, &n, o, &node);
    if (!st)
        node->u.obj->u.region.node = node;
    return st;
}

static int string_arg(struct aml *a, struct frame *f, struct cursor *c, char *buf,
                      size_t size)
{
    struct operand o;
    int st = eval_term_arg(a, f, c, &o);

    if (!st)
        st = resolve_as(a, f, &o, 's');
    if (!st) {
        size_t len = o.obj->u.buf.len < size - 1 ? o.obj->u.buf.len : size - 1;
        memcpy(buf, o.obj->u.buf.data, len);
        buf[len] = 0;
    }
    operand_drop(a, &o);
    return st;
}

static int op_data_region(struct aml *a, struct frame *f, struct cursor *c)
{
    struct aml_name n;
    char sig[5], oem[7], oem_table[9];
    uint64_t address;
    uint32_t length;
    struct aml_node *node;
    int st = read_name(a, c, &n);

    if (!st)
        st = string_arg(a, f, c, sig, sizeof(sig));
    if (!st)
        st = string_arg(a, f, c, oem, sizeof(oem));
    if (!st)
        st = string_arg(a, f, c, oem_table, sizeof(oem_table));
    if (st)
        return st;
    if (!a->cfg.host.find_table ||
        !a->cfg.host.find_table(a->cfg.host.ctx, sig, oem, oem_table, &address, &length))
        return fail(a, AML_E_NOT_FOUND, "DataTableRegion's table");
    struct aml_object *o = obj_new(a, AML_TYPE_REGION);
    if (o) {
        o->u.region.space = AML_SPACE_TABLE;
        o->u.region.address = address;
        o->u.region.length = length;
    }
    st = attach_new(a, f, &n, o, &node);
    if (!st)
        node->u.obj->u.region.node = node;
    return st;
}

/* ---- Field, IndexField, BankField ----------------------------------------------------- */

struct field_list {
    unsigned type;              /* OT_REGION_FIELD, OT_BANK_FIELD, OT_INDEX_FIELD */
    struct aml_object *region;  /* Field, BankField */
    struct aml_object *reg;     /* IndexField: the index field; BankField: the bank */
    struct aml_object *data;    /* IndexField: the data field */
    uint64_t bank_value;
    uint8_t flags;
};

static int named_field(struct aml *a, struct frame *f, const struct field_list *fl,
                       const uint8_t *seg, uint8_t flags, uint8_t attrib, uint32_t pos,
                       uint32_t len)
{
    struct aml_name n = { .count = 1, .segs = seg };
    struct aml_node *node;
    int st = ns_create(a, f->scope, &n, fl->type, &node);

    if (st == AML_E_ALREADY_EXISTS) {
        /* acpiexec keeps the first definition and goes on with the list. */
        a->load_warnings++;
        return AML_OK;
    }
    if (st)
        return fail_name(a, st, &n);
    if (!f->module_level) {
        node->flags |= NODE_TEMPORARY;
        node->next_temp = f->temps;
        f->temps = node;
    }
    struct aml_object *o = obj_new(a, fl->type);
    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    o->u.field.region = obj_get(fl->region);
    o->u.field.reg = obj_get(fl->reg);
    o->u.field.data = obj_get(fl->data);
    o->u.field.node = node;
    field_prepare(o, flags, attrib, pos, len);
    if (fl->type == OT_INDEX_FIELD) {
        /* The index written is the byte offset in units of the access width
         * (ACPICA, after Windows, since 2006). */
        uint32_t w = o->u.field.c.access_bytes;
        o->u.field.value = w ? (pos / 8) / w * w : pos / 8;   /* no width: refused in use */
    } else if (fl->type == OT_BANK_FIELD) {
        o->u.field.value = fl->bank_value;
    } else if (fl->region->u.region.space == AML_SPACE_EC && len > 8 && len / 8 < 256) {
        /* ACPICA reads an EmbeddedControl field wider than a byte whole. */
        o->u.field.c.access_bytes = (uint8_t)((len + 7) / 8);
    }
    ns_attach(a, node, o);
    obj_put(a, o);
    return AML_OK;
}

/* A field list's lengths are PkgLength encodings that count bits. */
static int bit_length(struct aml *a, struct cursor *c, uint32_t *len)
{
    if (c->p >= c->end)
        return fail(a, AML_E_BAD_AML, "field length");
    unsigned follow = *c->p >> 6;
    if ((size_t)(c->end - c->p) < 1u + follow)
        return fail(a, AML_E_BAD_AML, "field length");
    uint32_t v = follow ? *c->p & 0x0F : *c->p & 0x3F;
    for (unsigned i = 0; i < follow; i++)
        v |= (uint32_t)c->p[1 + i] << (4 + 8 * i);
    c->p += 1 + follow;
    *len = v;
    return AML_OK;
}

static int field_elements(struct aml *a, struct frame *f, struct cursor *c,
                          const struct field_list *fl)
{
    uint8_t flags = fl->flags, attrib = 0, t, x, l;
    uint32_t pos = 0, len;
    const uint8_t *end;
    struct aml_name n;
    int st;

    while (c->p < c->end) {
        const uint8_t *seg = c->p;
        switch (*c->p++) {
        case 0x00:                  /* ReservedField: bits skipped */
            st = bit_length(a, c, &len);
            if (st)
                return st;
            break;
        case 0x01:                  /* AccessField: AccessType, AccessAttrib */
            if (stream_u8(c, &t) || stream_u8(c, &x))
                return fail(a, AML_E_BAD_AML, "AccessField");
            flags = (uint8_t)((flags & ~0x0F) | (t & 0x07));
            attrib = x;
            continue;
        case 0x03:                  /* ExtendedAccessField: and an AccessLength */
            if (stream_u8(c, &t) || stream_u8(c, &x) || stream_u8(c, &l))
                return fail(a, AML_E_BAD_AML, "ExtendedAccessField");
            flags = (uint8_t)((flags & ~0x0F) | (t & 0x07));
            attrib = x;
            continue;
        case 0x02:                  /* Connection: a name, or a resource buffer */
            if (c->p < c->end && *c->p == 0x11) {
                c->p++;
                if (stream_pkg_length(c, &end))
                    return fail(a, AML_E_BAD_AML, "Connection");
                c->p = end;
            } else if (stream_name(c, &n)) {
                return fail(a, AML_E_BAD_AML, "Connection");
            }
            continue;
        default:                    /* NamedField: a NameSeg and its bits */
            if (c->end - seg < 4)
                return fail(a, AML_E_BAD_AML, "field name");
            c->p = seg + 4;
            st = bit_length(a, c, &len);
            if (!st && (uint64_t)pos + len > 0xFFFFFFFFu)
                st = fail(a, AML_E_UNSUPPORTED, "field past 4 Gbit");
            if (!st)
                st = named_field(a, f, fl, seg, flags, attrib, pos, len);
            if (st)
                return st;
            break;
        }
        if ((uint64_t)pos + len > 0xFFFFFFFFu)
            return fail(a, AML_E_UNSUPPORTED, "field past 4 Gbit");
        pos += len;
    }
    return AML_OK;
}

/* The object behind a name that must be a field (IndexField's registers, BankField's
 * bank) or a region (Field's, BankField's). */
static int named_object(struct aml *a, struct frame *f, const struct aml_name *n,
                        bool want_region, struct aml_object **out)
{
    struct aml_node *node = ns_find(a, f->scope, n, NS_SEARCH);

    if (!node || (node->flags & NODE_DEAD))
        return fail_name(a, AML_E_NOT_FOUND, n);
    struct aml_object *o = node->u.obj;
    if (!o || (want_region ? o->type != AML_TYPE_REGION : !obj_is_field(o)))
        return fail_name(a, AML_E_OPERAND_TYPE, n);
    *out = o;
    return AML_OK;
}

static int op_field(struct aml *a, struct frame *f, struct cursor *c, uint16_t op)
{
    const uint8_t *end;
    struct aml_name n1, n2;
    struct field_list fl = { 0 };
    int st = pkg_end(a, c, &end);

    if (!st)
        st = name_within(a, c, end, &n1);
    if (st)
        return st;
    struct cursor in = { c->p, end };
    c->p = end;
    switch (op) {
    case 0x5B81:
        fl.type = OT_REGION_FIELD;
        st = named_object(a, f, &n1, true, &fl.region);
        break;
    case 0x5B86:
        fl.type = OT_INDEX_FIELD;
        st = stream_name(&in, &n2) ? fail(a, AML_E_BAD_AML, "IndexField") : AML_OK;
        if (!st)
            st = named_object(a, f, &n1, false, &fl.reg);
        if (!st)
            st = named_object(a, f, &n2, false, &fl.data);
        break;
    default:
        fl.type = OT_BANK_FIELD;
        st = stream_name(&in, &n2) ? fail(a, AML_E_BAD_AML, "BankField") : AML_OK;
        if (!st)
            st = named_object(a, f, &n1, true, &fl.region);
        if (!st)
            st = named_object(a, f, &n2, false, &fl.reg);
        if (!st)
            st = eval_integer(a, f, &in, &fl.bank_value);
        break;
    }
    if (!st && stream_u8(&in, &fl.flags))
        st = fail(a, AML_E_BAD_AML, "field flags");
    if (st)
        return st;
    return field_elements(a, f, &in, &fl);
}

/* ---- CreateBitField ... CreateField ------------------------------------------------- */

static int op_create_field(struct aml *a, struct frame *f, struct cursor *c, uint16_t op)
{
    struct operand src = { 0 }, idx = { 0 }, bits = { 0 };
    struct aml_name n;
    uint32_t pos, len;
    uint8_t flags;
    int st = eval_term_arg(a, f, c, &src);

    if (!st)
        st = eval_term_arg(a, f, c, &idx);
    if (!st && op == 0x5B13)
        st = eval_term_arg(a, f, c, &bits);
    if (!st)
        st = read_name(a, c, &n);
    /* Resolved right to left, as every operator's operands. */
    if (!st && op == 0x5B13)
        st = resolve_as(a, f, &bits, 'i');
    if (!st)
        st = resolve_as(a, f, &idx, 'i');
    if (!st)
        st = resolve_as(a, f, &src, 'B');
    if (st)
        goto out;
    uint64_t i = idx.obj->u.integer;
    switch (op) {
    case 0x5B13: pos = (uint32_t)i; len = (uint32_t)bits.obj->u.integer; flags = 1; break;
    case 0x8D: pos = (uint32_t)i; len = 1; flags = 1; break;
    case 0x8C: pos = (uint32_t)(8 * i); len = 8; flags = 1; break;
    case 0x8B: pos = (uint32_t)(8 * i); len = 16; flags = 2; break;
    case 0x8A: pos = (uint32_t)(8 * i); len = 32; flags = 3; break;
    default: pos = (uint32_t)(8 * i); len = 64; flags = 4; break;
    }
    if (op == 0x5B13 && !len) {
        st = fail(a, AML_E_OPERAND_VALUE, "CreateField of no bits");
        goto out;
    }
    if ((uint64_t)pos + len > 8ull * src.obj->u.buf.len || i > 0xFFFFFFFFu / 8) {
        st = fail(a, AML_E_BUFFER_LIMIT, NULL);
        goto out;
    }
    struct aml_object *o = obj_new(a, AML_TYPE_BUFFER_FIELD);
    if (o) {
        o->u.field.data = obj_get(src.obj);
        o->u.field.create_field = op == 0x5B13;
        field_prepare(o, flags, 0, pos, len);
    }
    st = attach_new(a, f, &n, o, NULL);
out:
    operand_drop(a, &src);
    operand_drop(a, &idx);
    operand_drop(a, &bits);
    return st;
}

int exec_named(struct aml *a, struct frame *f, struct cursor *c, uint16_t op,
               const uint8_t *op_start)
{
    (void)op_start;
    switch (op) {
    case 0x06: return op_alias(a, f, c);
    case 0x08: return op_name(a, f, c);
    case 0x10: return op_scope(a, f, c);
    case 0x14: return op_method(a, f, c);
    case 0x15: return op_external(a, c);
    case 0x5B01:
    case 0x5B02: return op_mutex_event(a, f, c, op);
    case 0x5B80: return op_region(a, f, c);
    case 0x5B81:
    case 0x5B86:
    case 0x5B87: return op_field(a, f, c, op);
    case 0x5B82:
    case 0x5B83:
    case 0x5B84:
    case 0x5B85: return op_scoped_object(a, f, c, op);
    case 0x5B88: return op_data_region(a, f, c);
    case 0x8A:
    case 0x8B:
    case 0x8C:
    case 0x8D:
    case 0x8F:
    case 0x5B13: return op_create_field(a, f, c, op);
    default: return fail(a, AML_E_BAD_AML, "named object");
    }
}
