/* Executing AML: term lists, control flow, method calls and operands.
 *
 * The order of events is ACPICA's, because the order of hardware accesses is what a
 * firmware's method is written against and what the reference traces record: an
 * operator's operands are parsed left to right (a method call among them runs then),
 * and only when all are there are they resolved, right to left, to the values they
 * stand for. A field named as an operand is therefore read when its operator runs,
 * after any method called in a later operand, and of two fields the right one first
 * (ACPICA's AcpiExResolveOperands). The arguments of a method call are resolved
 * left to right (AcpiDsResolveOperands).
 *
 * Everything recurses through eval_term_arg(), bounded by aml_limits.expression_depth
 * and call_depth; every opcode counts against aml_limits.steps. */
#include "amlint.h"
#include "../lib/div64.h"
#include "../lib/format.h"
#include "../lib/string.h"

#define LOCAL0_OP       0x60
#define ARG0_OP         0x68
#define NULL_NAME       0x00
#define ELSE_OP         0xA1
#define DEBUG_OP        0x5B31

uint64_t ones(const struct aml *a)
{
    return a->int64 ? ~(uint64_t)0 : 0xFFFFFFFFu;
}

void truncate_integer(struct aml *a, struct aml_object *o)
{
    if (o && o->type == AML_TYPE_INTEGER && !a->int64)
        o->u.integer &= 0xFFFFFFFFu;
}

/* Records the first error of an evaluation, with where it happened. */
int fail(struct aml *a, int status, const char *detail)
{
    struct aml_error *e = &a->err;

    if (e->status)
        return status;
    e->status = status;
    e->opcode = a->err_op;
    e->have_offset = false;
    struct frame *f = a->current;
    if (f && a->err_pc && f->table_base && a->err_pc >= f->table_base) {
        e->table = f->table;
        e->offset = (uint32_t)(a->err_pc - f->table_base);
        e->have_offset = true;
    }
    if (f && f->method)
        aml_node_path(f->method, e->where, sizeof(e->where));
    else
        fmt_snprintf(e->where, sizeof(e->where), "(table load)");
    if (detail)
        fmt_snprintf(e->detail, sizeof(e->detail), "%s", detail);
    else
        e->detail[0] = 0;
    return status;
}

int fail_name(struct aml *a, int status, const struct aml_name *n)
{
    char text[48];

    ns_name_text(n, text, sizeof(text));
    return fail(a, status, text);
}

void operand_drop(struct aml *a, struct operand *o)
{
    if (o->kind == OPD_OBJ)
        obj_put(a, o->obj);
    *o = (struct operand){ 0 };
}

static void set_obj(struct operand *o, struct aml_object *obj)
{
    *o = (struct operand){ .kind = OPD_OBJ, .obj = obj };
}

static int step(struct aml *a)
{
    if (++a->steps > a->cfg.limits.steps)
        return fail(a, AML_E_STEP_LIMIT, NULL);
    return AML_OK;
}

/* ---- operands --------------------------------------------------------------------- */

static int read_local(struct aml *a, struct frame *f, bool arg, unsigned i,
                      struct aml_object **out)
{
    struct aml_object **slot = arg ? &f->args[i] : &f->locals[i];

    if (!*slot) {
        if (!a->cfg.slack)
            return fail(a, arg ? AML_E_UNINITIALIZED_ARG : AML_E_UNINITIALIZED_LOCAL,
                        arg ? "ArgX" : "LocalX");
        /* ACPICA's slack: an unset LocalX reads as 0 and keeps it. */
        *slot = obj_integer(a, 0);
        if (!*slot)
            return fail(a, AML_E_NO_MEMORY, NULL);
    }
    *out = obj_get(*slot);
    return AML_OK;
}

/* A node as an operand value (ACPICA's AcpiExResolveNodeToValue). */
static int resolve_node(struct aml *a, struct operand *o)
{
    struct aml_node *node = ns_resolve_alias(o->node);
    struct aml_object *obj = node ? node->u.obj : NULL;
    char path[48];

    switch (node ? node->type : AML_TYPE_ANY) {
    case AML_TYPE_DEVICE:
    case AML_TYPE_THERMAL:
    case AML_TYPE_METHOD:
    case OT_SCOPE:
        o->node = node;             /* these stay names */
        return AML_OK;
    default:
        break;
    }
    if (!obj) {
        aml_node_path(node ? node : o->node, path, sizeof(path));
        return fail(a, AML_E_OPERAND_TYPE, path);   /* a name with no value yet */
    }
    if (obj_is_field(obj)) {
        struct aml_object *v;
        int st = field_read(a, obj, &v);
        if (st)
            return st;
        set_obj(o, v);
        return AML_OK;
    }
    set_obj(o, obj_get(obj));
    return AML_OK;
}

int resolve_value(struct aml *a, struct frame *f, struct operand *o)
{
    struct aml_object *v = NULL;
    int st;

    switch (o->kind) {
    case OPD_LOCAL:
    case OPD_ARG:
        st = read_local(a, f, o->kind == OPD_ARG, o->index, &v);
        if (st)
            return st;
        set_obj(o, v);
        return AML_OK;
    case OPD_NODE:
        return resolve_node(a, o);
    case OPD_NONE:
        return fail(a, AML_E_OPERAND_TYPE, "no value");
    case OPD_DEBUG:
        return AML_OK;
    default:
        break;
    }
    struct aml_object *r = o->obj;
    if (r->type != OT_REFERENCE)
        return AML_OK;
    switch (r->sub) {
    case REF_INDEX:                 /* a package element: its value */
        v = r->u.ref.target->u.pkg.elems[r->u.ref.index];
        if (!v)
            return fail(a, AML_E_UNINITIALIZED_ELEMENT, NULL);
        obj_get(v);
        obj_put(a, r);
        set_obj(o, v);
        return AML_OK;
    case REF_NAME: {                /* a name in a package: what the node holds */
        /* A named package's names wait for the end of the load (finish_load): until
         * then u.ref.node is only the scope to search from. The operand keeps r on
         * failure, for its owner to drop. */
        if (r->u.ref.name)
            return fail(a, AML_E_UNINITIALIZED_ELEMENT, "name in a package, before the end of the load");
        struct aml_node *n = ns_resolve_alias(r->u.ref.node);
        if (n->type == AML_TYPE_DEVICE || n->type == AML_TYPE_THERMAL) {
            obj_put(a, r);
            *o = (struct operand){ .kind = OPD_NODE, .node = n };
            return AML_OK;
        }
        if (!n->u.obj)
            return fail(a, AML_E_OPERAND_TYPE, "uninitialized name");
        v = obj_get(n->u.obj);
        obj_put(a, r);
        set_obj(o, v);
        return AML_OK;
    }
    default:                        /* RefOf, a byte of a buffer: stay references */
        return AML_OK;
    }
}

static bool is_reference_like(const struct operand *o)
{
    return o->kind != OPD_OBJ || o->obj->type == OT_REFERENCE;
}

static int want_type(struct aml *a, struct operand *o, unsigned t1, unsigned t2, unsigned t3,
                     unsigned t4)
{
    unsigned t = o->kind == OPD_OBJ ? o->obj->type : o->kind == OPD_NODE ?
                 ns_resolve_alias(o->node)->type : AML_TYPE_DEBUG;

    if (t == t1 || t == t2 || t == t3 || t == t4)
        return AML_OK;
    return fail(a, AML_E_OPERAND_TYPE, obj_type_name(t));
}

static int convert_operand(struct aml *a, struct operand *o,
                           int (*conv)(struct aml *, struct aml_object *,
                                       struct aml_object **))
{
    struct aml_object *v;

    if (o->kind != OPD_OBJ)
        return fail(a, AML_E_OPERAND_TYPE, o->kind == OPD_NODE ?
                    obj_type_name(ns_resolve_alias(o->node)->type) : "Debug");
    int st = conv(a, o->obj, &v);
    if (st)
        return st;
    obj_put(a, o->obj);
    o->obj = v;
    return AML_OK;
}

static int conv_int_implicit(struct aml *a, struct aml_object *o, struct aml_object **out)
{
    return conv_integer(a, o, false, out);
}

static int conv_str_implicit(struct aml *a, struct aml_object *o, struct aml_object **out)
{
    return conv_string(a, o, STR_HEX_IMPLICIT, out);
}

int resolve_as(struct aml *a, struct frame *f, struct operand *o, char how)
{
    int st;

    switch (how) {
    case '-':                       /* a literal */
        return AML_OK;
    case 'o':                       /* RefOf, CondRefOf: the name itself */
    case 'v':                       /* Notify: a device or other object */
    case 'A':                       /* CopyObject's target */
        return AML_OK;
    case 'r':                       /* DerefOf: a String, or a reference */
        if (o->kind == OPD_OBJ && o->obj->type == AML_TYPE_STRING)
            return AML_OK;
        /* fall through */
    case 'R':                       /* a target, or a reference to store through */
        if (is_reference_like(o))
            return AML_OK;
        return fail(a, AML_E_OPERAND_TYPE, obj_type_name(o->obj->type));
    case 'V':                       /* Store's source: an Index stays a reference */
        if (o->kind == OPD_OBJ && o->obj->type == OT_REFERENCE && o->obj->sub == REF_INDEX)
            return AML_OK;
        return resolve_value(a, f, o);
    default:
        break;
    }
    st = resolve_value(a, f, o);
    if (st)
        return st;
    switch (how) {
    case 'i':
        return convert_operand(a, o, conv_int_implicit);
    case 'B':
        return convert_operand(a, o, conv_buffer);
    case 's':
        return convert_operand(a, o, conv_str_implicit);
    case 'c':
        return want_type(a, o, AML_TYPE_INTEGER, AML_TYPE_STRING, AML_TYPE_BUFFER,
                         AML_TYPE_BUFFER);
    case 'x':
        if (o->kind == OPD_OBJ && o->obj->type == AML_TYPE_INTEGER)
            return convert_operand(a, o, conv_buffer);
        return want_type(a, o, AML_TYPE_STRING, AML_TYPE_BUFFER, AML_TYPE_STRING,
                         AML_TYPE_STRING);
    case 'D':
        return want_type(a, o, AML_TYPE_PACKAGE, AML_TYPE_STRING, AML_TYPE_BUFFER,
                         OT_REFERENCE);
    case 'X':
        return want_type(a, o, AML_TYPE_PACKAGE, AML_TYPE_STRING, AML_TYPE_BUFFER,
                         AML_TYPE_BUFFER);
    case 'p':
        return want_type(a, o, AML_TYPE_PACKAGE, AML_TYPE_PACKAGE, AML_TYPE_PACKAGE,
                         AML_TYPE_PACKAGE);
    case 'm':
        return want_type(a, o, AML_TYPE_MUTEX, AML_TYPE_MUTEX, AML_TYPE_MUTEX,
                         AML_TYPE_MUTEX);
    case 'e':
        return want_type(a, o, AML_TYPE_EVENT, AML_TYPE_EVENT, AML_TYPE_EVENT,
                         AML_TYPE_EVENT);
    case 'a':
        return AML_OK;
    default:
        return fail(a, AML_E_BAD_AML, "operand kind");
    }
}

/* ---- names in operand position: values and method calls ------------------------------- */

static int invoke(struct aml *a, struct frame *f, struct cursor *c, struct aml_node *m,
                  struct operand *out)
{
    struct aml_object *mo = m->u.obj;
    unsigned nargs = mo->sub & 7;
    struct operand ops[7] = { 0 };
    struct aml_object *args[7] = { 0 };
    struct aml_object *result = NULL;
    int st = AML_OK;
    unsigned have = 0;

    for (; have < nargs && !st; have++)
        st = eval_term_arg(a, f, c, &ops[have]);
    /* Arguments are passed as the objects themselves (ACPICA: "by reference"); an
     * Index into a package is passed as the reference. */
    for (unsigned i = 0; i < have && !st; i++) {
        if (ops[i].kind == OPD_OBJ && ops[i].obj->type == OT_REFERENCE &&
            ops[i].obj->sub == REF_INDEX)
            continue;
        st = resolve_value(a, f, &ops[i]);
        if (!st && ops[i].kind != OPD_OBJ)
            st = fail(a, AML_E_OPERAND_TYPE, "a method argument that is not a value");
    }
    for (unsigned i = 0; i < have && !st; i++)
        args[i] = ops[i].obj;
    if (!st)
        st = call_method(a, f, m, args, nargs, &result);
    for (unsigned i = 0; i < have; i++)
        operand_drop(a, &ops[i]);
    if (st)
        return st;
    if (result)
        set_obj(out, result);
    else
        *out = (struct operand){ .kind = OPD_NONE };
    return AML_OK;
}

static int eval_name(struct aml *a, struct frame *f, struct cursor *c, struct operand *out)
{
    struct aml_name n;
    int st = stream_name(c, &n);

    if (st)
        return fail(a, st, "NameString");
    struct aml_node *node = ns_find(a, f->scope, &n, NS_SEARCH);
    if (!node || (node->flags & NODE_DEAD))
        return fail_name(a, AML_E_NOT_FOUND, &n);
    if (node->type == AML_TYPE_METHOD && node->u.obj)
        return invoke(a, f, c, node, out);
    /* ACPICA evaluates a name as soon as it is parsed (AcpiDsEvaluateNamePath): a
     * field is read before the operands after it are even parsed, and an Integer is
     * copied. Names in a Target, SuperName or SimpleName place never come here. */
    *out = (struct operand){ .kind = OPD_NODE, .node = node };
    st = resolve_node(a, out);
    if (st || out->kind != OPD_OBJ || out->obj->type != AML_TYPE_INTEGER)
        return st;
    struct aml_object *copy = obj_integer(a, out->obj->u.integer);
    if (!copy)
        return fail(a, AML_E_NO_MEMORY, NULL);
    obj_put(a, out->obj);
    out->obj = copy;
    return AML_OK;
}

/* ---- data -------------------------------------------------------------------------- */

static int eval_data(struct aml *a, struct frame *f, struct cursor *c, uint16_t op,
                     struct operand *out)
{
    struct aml_object *o = NULL;
    uint8_t b8;
    uint16_t b16;
    uint32_t b32;
    uint64_t b64;
    int st = AML_OK;

    switch (op) {
    case 0x00: o = obj_integer(a, 0); break;
    case 0x01: o = obj_integer(a, 1); break;
    case 0xFF: o = obj_integer(a, ones(a)); break;
    case 0x0A: st = stream_u8(c, &b8); o = st ? NULL : obj_integer(a, b8); break;
    case 0x0B: st = stream_u16(c, &b16); o = st ? NULL : obj_integer(a, b16); break;
    case 0x0C: st = stream_u32(c, &b32); o = st ? NULL : obj_integer(a, b32); break;
    case 0x0E:
        st = stream_u64(c, &b64);
        o = st ? NULL : obj_integer(a, b64);
        truncate_integer(a, o);
        break;
    case 0x0D: {                    /* String: ASCII up to a NUL */
        const uint8_t *s = c->p;
        while (c->p < c->end && *c->p)
            c->p++;
        if (c->p >= c->end)
            return fail(a, AML_E_BAD_AML, "String without its NUL");
        o = obj_string(a, s, (uint32_t)(c->p - s));
        c->p++;
        break;
    }
    case 0x11:
        st = eval_buffer(a, f, c, &o);
        if (st)
            return st;
        break;
    case 0x12:
    case 0x13:
        st = eval_package(a, f, c, op == 0x13, &o);
        if (st)
            return st;
        break;
    case 0x5B30:                    /* Revision */
        o = obj_integer(a, a->cfg.revision);
        break;
    default:
        return fail(a, AML_E_BAD_AML, "data");
    }
    if (st)
        return fail(a, st, "truncated data");
    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    set_obj(out, o);
    return AML_OK;
}

/* ---- operators --------------------------------------------------------------------------- */

static int parse_immediate(struct aml *a, struct cursor *c, char kind, struct operand *out)
{
    uint8_t b8 = 0;
    uint16_t b16 = 0;
    uint32_t b32 = 0;
    int st = kind == 'b' ? stream_u8(c, &b8) : kind == 'w' ? stream_u16(c, &b16)
           : stream_u32(c, &b32);
    if (st)
        return fail(a, st, "truncated operand");
    struct aml_object *o = obj_integer(a, kind == 'b' ? b8 : kind == 'w' ? b16 : b32);
    if (!o)
        return fail(a, AML_E_NO_MEMORY, NULL);
    set_obj(out, o);
    return AML_OK;
}

/* SimpleName for RefOf, CondRefOf, ObjectType, CopyObject: a NameString that is not a
 * method call (for CondRefOf it need not exist: OPD_NONE), LocalX or ArgX. */
static int parse_simple_name(struct aml *a, struct frame *f, struct cursor *c,
                             bool may_be_missing, struct operand *out)
{
    if (c->p < c->end && stream_is_name_start(*c->p)) {
        struct aml_name n;
        int st = stream_name(c, &n);
        if (st)
            return fail(a, st, "NameString");
        struct aml_node *node = ns_find(a, f->scope, &n, NS_SEARCH);
        if (!node || (node->flags & NODE_DEAD)) {
            if (may_be_missing) {
                *out = (struct operand){ .kind = OPD_NONE };
                return AML_OK;
            }
            return fail_name(a, AML_E_NOT_FOUND, &n);
        }
        *out = (struct operand){ .kind = OPD_NODE, .node = node };
        return AML_OK;
    }
    return parse_target(a, f, c, false, out);
}

static int run_op(struct aml *a, struct frame *f, struct cursor *c,
                  const struct aml_opinfo *info, const uint8_t *start, struct operand *out)
{
    struct operand ops[6] = { 0 };
    struct aml_object *result = NULL;
    unsigned n = (unsigned)strlen(info->parse);
    int st = AML_OK;

    for (unsigned i = 0; i < n && !st; i++) {
        switch (info->parse[i]) {
        case 't': st = eval_term_arg(a, f, c, &ops[i]); break;
        case 'T': st = parse_target(a, f, c, true, &ops[i]); break;
        case 'S': st = parse_target(a, f, c, false, &ops[i]); break;
        case 'N': st = parse_simple_name(a, f, c, info->code == 0x5B12, &ops[i]); break;
        default: st = parse_immediate(a, c, info->parse[i], &ops[i]); break;
        }
    }
    a->err_op = info->code;
    a->err_pc = start;
    for (unsigned i = n; i-- > 0 && !st;)
        if (!(info->code == 0x5B12 && i == 0 && ops[i].kind == OPD_NONE))
            st = resolve_as(a, f, &ops[i], info->resolve[i]);
    if (!st) {
        a->err_op = info->code;
        a->err_pc = start;
        st = info->exec(a, f, ops, &result);
    }
    for (unsigned i = 0; i < n; i++)
        operand_drop(a, &ops[i]);
    if (st) {
        obj_put(a, result);
        return st;
    }
    /* ACPICA truncates every result once it is stored (AcpiDsExecEndOp). */
    truncate_integer(a, result);
    if (result)
        set_obj(out, result);
    else
        *out = (struct operand){ .kind = OPD_NONE };
    return AML_OK;
}

int eval_term_arg(struct aml *a, struct frame *f, struct cursor *c, struct operand *out)
{
    const uint8_t *start = c->p;
    uint16_t op;
    int st;

    *out = (struct operand){ 0 };
    if (c->p >= c->end)
        return fail(a, AML_E_BAD_AML, "operand past the end of its object");
    if (++a->expr_depth > a->cfg.limits.expression_depth) {
        a->expr_depth--;
        return fail(a, AML_E_DEPTH_LIMIT, "expression nesting");
    }
    st = step(a);
    if (st)
        goto out;
    a->err_pc = start;
    if (stream_is_name_start(*c->p)) {
        a->err_op = 0;
        st = eval_name(a, f, c, out);
        goto out;
    }
    st = stream_opcode(c, &op);
    if (st) {
        st = fail(a, st, NULL);
        goto out;
    }
    a->err_op = op;
    const struct aml_opinfo *info = op_info(op);
    if (!info) {
        st = fail(a, AML_E_BAD_AML, "unknown opcode");
        goto out;
    }
    switch (info->cls) {
    case OPC_DATA:
        st = eval_data(a, f, c, op, out);
        break;
    case OPC_LOCAL:
        *out = (struct operand){ .kind = OPD_LOCAL, .index = (uint8_t)(op - LOCAL0_OP) };
        break;
    case OPC_ARG:
        *out = (struct operand){ .kind = OPD_ARG, .index = (uint8_t)(op - ARG0_OP) };
        break;
    case OPC_DEBUG:
        *out = (struct operand){ .kind = OPD_DEBUG };
        break;
    case OPC_EXPR:
    case OPC_STMT:
        st = run_op(a, f, c, info, start, out);
        break;
    case OPC_UNSUPPORTED:
        st = fail(a, AML_E_UNSUPPORTED, NULL);
        break;
    default:                        /* If, Name, ... where a value is wanted */
        st = fail(a, AML_E_BAD_AML, "not an operand");
        break;
    }
out:
    a->expr_depth--;
    if (st)
        operand_drop(a, out);
    return st;
}

int eval_integer(struct aml *a, struct frame *f, struct cursor *c, uint64_t *v)
{
    struct operand o;
    int st = eval_term_arg(a, f, c, &o);

    if (!st)
        st = resolve_as(a, f, &o, 'i');
    if (!st)
        *v = o.obj->u.integer;
    operand_drop(a, &o);
    return st;
}

int parse_target(struct aml *a, struct frame *f, struct cursor *c, bool null_ok,
                 struct operand *out)
{
    *out = (struct operand){ 0 };
    if (c->p >= c->end)
        return fail(a, AML_E_BAD_AML, "target past the end of its object");
    uint8_t b = *c->p;
    if (b == NULL_NAME) {
        c->p++;
        if (!null_ok)
            return fail(a, AML_E_BAD_AML, "NullName where a name is needed");
        *out = (struct operand){ .kind = OPD_NONE };
        return AML_OK;
    }
    if (stream_is_name_start(b)) {
        struct aml_name n;
        int st = stream_name(c, &n);
        if (st)
            return fail(a, st, "NameString");
        struct aml_node *node = ns_find(a, f->scope, &n, NS_SEARCH);
        if (!node || (node->flags & NODE_DEAD))
            return fail_name(a, AML_E_NOT_FOUND, &n);
        *out = (struct operand){ .kind = OPD_NODE, .node = node };
        return AML_OK;
    }
    /* LocalX, ArgX, Debug, or an operator giving a reference (Index, RefOf, ...). */
    return eval_term_arg(a, f, c, out);
}

/* ---- method calls -------------------------------------------------------------------- */

static void end_frame(struct aml *a, struct frame *f)
{
    for (unsigned i = 0; i < 7; i++)
        obj_put(a, f->args[i]);
    for (unsigned i = 0; i < 8; i++)
        obj_put(a, f->locals[i]);
    while (f->temps) {
        struct aml_node *n = f->temps;
        f->temps = n->next_temp;
        ns_remove(a, n);
    }
    obj_put(a, f->last);
}

int call_method(struct aml *a, struct frame *caller, struct aml_node *method,
                struct aml_object **args, unsigned nargs, struct aml_object **result)
{
    struct aml_object *mo = method->u.obj;
    struct frame f = { 0 };
    int st;

    *result = NULL;
    if (nargs > 7)
        return fail(a, AML_E_ARG_COUNT, NULL);
    if (a->call_depth >= a->cfg.limits.call_depth)
        return fail(a, AML_E_DEPTH_LIMIT, "method calls");
    if (mo->u.method.native)
        return mo->u.method.native(a, args, result);

    f.caller = caller;
    f.method = method;
    f.scope = method;
    f.table = mo->u.method.table;
    f.table_base = a->table_base[f.table];
    for (unsigned i = 0; i < nargs; i++)
        f.args[i] = obj_get(args[i]);
    a->call_depth++;
    a->current = &f;
    st = exec_term_list(a, &f, mo->u.method.code, mo->u.method.code + mo->u.method.len);
    if (st == FLOW_RETURN) {
        *result = f.ret;
        f.ret = NULL;
        st = AML_OK;
    } else if (st == FLOW_BREAK || st == FLOW_CONTINUE) {
        st = fail(a, AML_E_BAD_AML, "Break or Continue outside a While");
    } else if (!st && a->cfg.slack && f.last) {
        /* Linux's slack: a method without Return returns its last result. */
        *result = f.last;
        f.last = NULL;
    }
    obj_put(a, f.ret);
    end_frame(a, &f);
    a->call_depth--;
    a->current = caller;
    return st;
}

/* ---- control flow ----------------------------------------------------------------------- */

static int predicate(struct aml *a, struct frame *f, struct cursor *c, bool *truth)
{
    uint64_t v;
    int st = eval_integer(a, f, c, &v);

    if (!st)
        *truth = a->int64 ? v != 0 : (uint32_t)v != 0;
    return st;
}

static int exec_if(struct aml *a, struct frame *f, struct cursor *c)
{
    const uint8_t *end;
    bool truth = false;
    int st = stream_pkg_length(c, &end);

    if (st)
        return fail(a, st, "If");
    struct cursor body = { c->p, end };
    st = predicate(a, f, &body, &truth);
    if (st)
        return st;
    if (truth)
        st = exec_term_list(a, f, body.p, end);
    c->p = end;
    if (st)
        return st;
    /* An Else belongs to the If just before it. */
    if (end + 1 < c->end && end[0] == ELSE_OP) {
        const uint8_t *else_end;
        c->p++;
        st = stream_pkg_length(c, &else_end);
        if (st)
            return fail(a, st, "Else");
        const uint8_t *body_start = c->p;
        c->p = else_end;
        if (!truth)
            return exec_term_list(a, f, body_start, else_end);
    }
    return AML_OK;
}

static uint32_t now_ms(struct aml *a)
{
    return (uint32_t)div64(a->cfg.host.timer_100ns(a->cfg.host.ctx), 10000u, 0);
}

static int exec_while(struct aml *a, struct frame *f, struct cursor *c)
{
    const uint8_t *end;
    int st = stream_pkg_length(c, &end);

    if (st)
        return fail(a, st, "While");
    const uint8_t *pred = c->p;
    bool timed = a->cfg.host.timer_100ns && a->cfg.limits.loop_ms;
    uint32_t started = timed ? now_ms(a) : 0;
    for (uint32_t pass = 0;; pass++) {
        /* As ACPICA: the bound is checked after each pass, and ends the method. */
        if (pass >= a->cfg.limits.loop_iterations ||
            (timed && now_ms(a) - started >= a->cfg.limits.loop_ms)) {
            a->err_pc = pred;
            a->err_op = 0xA2;
            return fail(a, AML_E_LOOP_TIMEOUT, NULL);
        }
        struct cursor body = { pred, end };
        bool truth;
        st = predicate(a, f, &body, &truth);
        if (st)
            return st;
        if (!truth)
            break;
        st = exec_term_list(a, f, body.p, end);
        if (st == FLOW_BREAK)
            break;
        if (st && st != FLOW_CONTINUE)
            return st;
    }
    c->p = end;
    return AML_OK;
}

static int exec_control(struct aml *a, struct frame *f, struct cursor *c, uint16_t op)
{
    struct operand o;
    int st;

    switch (op) {
    case 0xA0:
        return exec_if(a, f, c);
    case 0xA1:
        return fail(a, AML_E_BAD_AML, "Else without If");
    case 0xA2:
        return exec_while(a, f, c);
    case 0xA3:                      /* Noop */
    case 0xCC:                      /* BreakPoint */
        return AML_OK;
    case 0xA4:                      /* Return */
        st = eval_term_arg(a, f, c, &o);
        if (!st)
            st = resolve_value(a, f, &o);
        if (!st && o.kind != OPD_OBJ)
            st = fail(a, AML_E_OPERAND_TYPE, "Return of a name without a value");
        if (st) {
            operand_drop(a, &o);
            return st;
        }
        obj_put(a, f->ret);
        f->ret = o.obj;
        return FLOW_RETURN;
    case 0xA5:
        return FLOW_BREAK;
    case 0x9F:
        return FLOW_CONTINUE;
    default:
        return fail(a, AML_E_BAD_AML, "control");
    }
}

/* ---- term lists --------------------------------------------------------------------------- */

/* ACPICA loads a table by running it as a method, and an error there skips only the
 * operator that failed: "one runtime error during the table load should not cause
 * the entire table to not be loaded" (psloop.c). These are the errors it forgives. */
static bool forgiven_at_load(int st)
{
    return st != AML_E_NO_MEMORY && st != AML_E_STEP_LIMIT && st != AML_E_DEPTH_LIMIT &&
           st != AML_E_BAD_AML && st > 0;
}

static int exec_term(struct aml *a, struct frame *f, struct cursor *c)
{
    const uint8_t *start = c->p;
    struct operand o;
    uint16_t op;
    int st;

    a->err_pc = start;
    if (stream_is_name_start(*c->p)) {
        st = eval_term_arg(a, f, c, &o);
        goto value;
    }
    st = stream_opcode(c, &op);
    if (st)
        return fail(a, st, NULL);
    a->err_op = op;
    const struct aml_opinfo *info = op_info(op);
    if (!info)
        return fail(a, AML_E_BAD_AML, "unknown opcode");
    switch (info->cls) {
    case OPC_CONTROL:
        st = step(a);
        return st ? st : exec_control(a, f, c, op);
    case OPC_NAMED:
        st = step(a);
        return st ? st : exec_named(a, f, c, op, start);
    case OPC_UNSUPPORTED:
        return fail(a, AML_E_UNSUPPORTED, NULL);
    default:
        c->p = start;
        st = eval_term_arg(a, f, c, &o);
        break;
    }
value:
    if (st)
        return st;
    /* A result nobody takes: kept as the last one, for slack's implicit return. */
    if (o.kind == OPD_OBJ) {
        obj_put(a, f->last);
        f->last = o.obj;
    } else {
        operand_drop(a, &o);
    }
    return AML_OK;
}

int exec_term_list(struct aml *a, struct frame *f, const uint8_t *p, const uint8_t *end)
{
    struct cursor c = { p, end };

    while (c.p < c.end) {
        const uint8_t *start = c.p;
        int st = exec_term(a, f, &c);
        if (!st)
            continue;
        if (!f->module_level || !forgiven_at_load(st))
            return st;
        /* Module level: skip what failed and go on with the next term. */
        struct cursor skip = { start, end };
        if (skip_term(a, f->scope, &skip, NULL))
            return st;
        a->load_warnings++;
        a->err = (struct aml_error){ 0 };
        c.p = skip.p;
    }
    return AML_OK;
}
