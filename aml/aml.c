/* The interpreter's API (aml.h): creating it in a pool, loading tables, evaluating,
 * looking at what came back, and saying what went wrong. */
#include "ops.h"
#include "../lib/format.h"
#include "../lib/string.h"

/* The bounds, and why they are this size:
 *   steps 2,000,000      the largest \_PTS in the corpus of 118 machines takes a few
 *                        thousand; polling loops bounded below dominate the rest.
 *   loop_iterations      ACPICA bounds a While by time only (30 s, Linux); firmware's
 *     200,000            own polling loops run 0xFFFF times at most in the corpus, so
 *                        this never cuts a loop that would end, and ends one that
 *                        would not within a second or two on a slow machine.
 *   loop_ms 3000         a loop that polls hardware that does not answer: ACPICA's
 *                        30 s is long for a power-off, Linux's boot path would wait.
 *   call_depth 32        ACPICA allows 255 nested calls; firmware nests a handful.
 *   expression_depth 64  ACPICA's parse stack; the deepest nesting seen is about 20. */
struct aml_limits aml_default_limits(void)
{
    return (struct aml_limits){
        .steps = 2000000, .loop_iterations = 200000, .loop_ms = 3000,
        .call_depth = 32, .expression_depth = 64,
    };
}

struct aml *aml_create(void *pool, size_t pool_size, const struct aml_config *config)
{
    struct aml_heap heap;

    if (pool_size < AML_POOL_MIN || !config->host.io || !heap_init(&heap, pool, pool_size))
        return NULL;
    struct aml *a = heap_alloc(&heap, sizeof(*a));
    if (!a)
        return NULL;
    a->heap = heap;
    a->cfg = *config;
    a->int64 = true;
    a->root = ns_new_root(a);
    if (!a->root || osi_install(a))
        return NULL;
    return a;
}

static bool table_is_aml(const uint8_t *t)
{
    return !memcmp(t, "DSDT", 4) || !memcmp(t, "SSDT", 4) || !memcmp(t, "PSDT", 4);
}

int aml_load_table(struct aml *a, const uint8_t *table, uint32_t len)
{
    struct frame f = { 0 };

    a->err = (struct aml_error){ 0 };
    if (len < 36 || !table_is_aml(table))
        return fail(a, AML_E_BAD_AML, "not a DSDT or SSDT");
    if (a->tables == AML_TABLES_MAX)
        return fail(a, AML_E_NO_MEMORY, "tables");
    /* The DSDT's revision sets the integer width for everything (ACPICA). */
    if (!a->have_width && !memcmp(table, "DSDT", 4)) {
        a->int64 = table[8] >= 2;
        a->have_width = true;
    }
    f.scope = a->root;
    f.module_level = true;
    f.table = a->tables;
    f.table_base = table;
    a->table_base[a->tables] = table;
    a->table_len[a->tables++] = len;
    a->current = &f;
    a->steps = 0;
    a->expr_depth = 0;
    a->call_depth = 0;
    int st = exec_term_list(a, &f, table + 36, table + len);
    obj_put(a, f.last);
    a->current = NULL;
    a->init_pending = true;
    return st;
}

unsigned aml_load_warnings(const struct aml *a)
{
    return a->load_warnings;
}

/* After the tables: the names inside named packages are resolved (ACPICA's
 * AcpiNsInitOnePackage, at the end of the load), in namespace order. */
static void finish_load(struct aml *a)
{
    struct aml_node *n = a->root;

    a->init_pending = false;
    while (n) {
        struct aml_object *o = n->type == OT_ALIAS ? NULL : n->u.obj;
        if (o && o->type == AML_TYPE_PACKAGE)
            resolve_package_names(a, o);
        if (n->child) {
            n = n->child;
            continue;
        }
        while (n && !n->peer)
            n = n->parent;
        if (n)
            n = n->peer;
    }
    a->err = (struct aml_error){ 0 };
}

static void begin(struct aml *a)
{
    if (a->init_pending)
        finish_load(a);
    a->err = (struct aml_error){ 0 };
    a->steps = 0;
    a->expr_depth = 0;
    a->call_depth = 0;
    a->current = NULL;
    a->err_pc = NULL;
    a->err_op = 0;
}

static void end(struct aml *a)
{
    /* Mutexes a method left held are given back when the evaluation ends. */
    while (a->held_count)
        release_mutex(a, a->held[a->held_count - 1]);
    a->current = NULL;
}

int aml_evaluate_node(struct aml *a, struct aml_node *node, const uint64_t *args,
                      unsigned nargs, struct aml_object **result)
{
    struct aml_object *argv[7] = { 0 }, *r = NULL;
    bool outer = !a->current;
    int st = AML_OK;

    if (outer)
        begin(a);
    if (result)
        *result = NULL;
    node = ns_resolve_alias(node);
    if (!node || (node->flags & NODE_DEAD)) {
        st = fail(a, AML_E_NOT_FOUND, NULL);
    } else if (node->type == AML_TYPE_METHOD && node->u.obj) {
        if (nargs > 7)
            st = fail(a, AML_E_ARG_COUNT, NULL);
        for (unsigned i = 0; i < nargs && !st; i++) {
            argv[i] = obj_integer(a, args[i]);
            if (!argv[i])
                st = fail(a, AML_E_NO_MEMORY, NULL);
            truncate_integer(a, argv[i]);
        }
        if (!st)
            st = call_method(a, a->current, node, argv, nargs, &r);
        for (unsigned i = 0; i < nargs; i++)
            obj_put(a, argv[i]);
    } else if (obj_is_field(node->u.obj)) {
        st = field_read(a, node->u.obj, &r);
    } else {
        r = obj_get(node->u.obj);
    }
    if (outer)
        end(a);
    if (!st && result)
        *result = r;
    else
        obj_put(a, r);
    return st;
}

struct aml_node *aml_lookup(struct aml *a, struct aml_node *scope, const char *path)
{
    uint8_t segs[128 * 4];
    struct aml_name n;

    if (!ns_parse_path(path, &n, segs, sizeof(segs)))
        return NULL;
    struct aml_node *node = ns_find(a, scope ? scope : a->root, &n, 0);
    return node && !(node->flags & NODE_DEAD) ? node : NULL;
}

int aml_evaluate(struct aml *a, const char *path, const uint64_t *args, unsigned nargs,
                 struct aml_object **result)
{
    struct aml_node *node = aml_lookup(a, NULL, path);

    if (result)
        *result = NULL;
    if (!node) {
        begin(a);
        return fail(a, AML_E_NOT_FOUND, path);
    }
    return aml_evaluate_node(a, node, args, nargs, result);
}

struct aml_node *aml_root(struct aml *a)
{
    return a->root;
}

unsigned aml_node_type(const struct aml_node *node)
{
    node = ns_resolve_alias((struct aml_node *)node);
    if (node->u.obj)
        return obj_public_type(node->u.obj);
    return node->type <= AML_TYPE_DEBUG ? node->type : AML_TYPE_ANY;
}

int aml_check_method(struct aml *a, const char *path)
{
    struct check_calls calls = { 0 };
    struct aml_node *root = aml_lookup(a, NULL, path);

    begin(a);
    if (!root)
        return fail(a, AML_E_NOT_FOUND, path);
    if (root->type != AML_TYPE_METHOD || !root->u.obj)
        return AML_OK;              /* a plain object: nothing runs */
    calls.node[calls.count++] = root;
    for (unsigned i = 0; i < calls.count; i++) {
        struct aml_node *m = calls.node[i];
        struct aml_object *mo = m->u.obj;
        if (mo->u.method.native)
            continue;
        struct frame f = { .method = m, .scope = m, .table = mo->u.method.table,
                           .table_base = a->table_base[mo->u.method.table] };
        struct cursor c = { mo->u.method.code, mo->u.method.code + mo->u.method.len };
        a->current = &f;
        while (c.p < c.end) {
            int st = skip_term(a, m, &c, &calls);
            if (st) {
                a->current = NULL;
                return st;
            }
        }
        a->current = NULL;
    }
    if (calls.overflow) {
        a->err_pc = NULL;
        return fail(a, AML_E_DEPTH_LIMIT, "more than 64 methods to check");
    }
    return AML_OK;
}

/* ---- results -------------------------------------------------------------------------------- */

unsigned aml_object_type(const struct aml_object *o)
{
    return obj_public_type(o);
}

bool aml_object_integer(const struct aml_object *o, uint64_t *value)
{
    if (!o || o->type != AML_TYPE_INTEGER)
        return false;
    *value = o->u.integer;
    return true;
}

const uint8_t *aml_object_bytes(const struct aml_object *o, uint32_t *len)
{
    if (!o || (o->type != AML_TYPE_STRING && o->type != AML_TYPE_BUFFER))
        return NULL;
    *len = o->u.buf.len;
    return o->u.buf.data;
}

uint32_t aml_package_count(const struct aml_object *o)
{
    return o && o->type == AML_TYPE_PACKAGE ? o->u.pkg.count : 0;
}

const struct aml_object *aml_package_element(const struct aml_object *o, uint32_t i)
{
    return i < aml_package_count(o) ? o->u.pkg.elems[i] : NULL;
}

void aml_release(struct aml *a, struct aml_object *o)
{
    obj_put(a, o);
}

struct out {
    char *buf;
    size_t size, at;
};

static void put(struct out *o, const char *s)
{
    while (*s && o->at + 1 < o->size)
        o->buf[o->at++] = *s++;
    o->buf[o->at] = 0;
}

static void put_hex(struct out *o, uint64_t v, unsigned min_digits)
{
    static const char hex[] = "0123456789ABCDEF";
    char t[17];
    unsigned n = 0;

    do {
        t[16 - ++n] = hex[v & 0xF];
        v >>= 4;
    } while ((v || n < min_digits) && n < 16);
    t[16] = 0;
    put(o, t + 16 - n);
}

static void format(const struct aml *a, const struct aml_object *v, struct out *o,
                   unsigned depth)
{
    if (!v) {
        put(o, "Uninitialized");
        return;
    }
    switch (v->type) {
    case AML_TYPE_INTEGER:
        put(o, "Integer 0x");
        put_hex(o, v->u.integer, 1);
        break;
    case AML_TYPE_STRING:
        put(o, "String \"");
        for (uint32_t i = 0; i < v->u.buf.len && o->at + 2 < o->size; i++) {
            char c[2] = { (char)v->u.buf.data[i], 0 };
            if (c[0] < 0x20 || c[0] > 0x7E || c[0] == '"' || c[0] == '\\') {
                put(o, "\\x");
                put_hex(o, (uint8_t)c[0], 2);
            } else {
                put(o, c);
            }
        }
        put(o, "\"");
        break;
    case AML_TYPE_BUFFER:
        put(o, "Buffer {");
        for (uint32_t i = 0; i < v->u.buf.len && o->at + 4 < o->size; i++) {
            if (i)
                put(o, " ");
            put_hex(o, v->u.buf.data[i], 2);
        }
        put(o, "}");
        break;
    case AML_TYPE_PACKAGE:
        put(o, "Package {");
        for (uint32_t i = 0; i < v->u.pkg.count && o->at + 4 < o->size; i++) {
            if (i)
                put(o, ", ");
            if (depth < 8)
                format(a, v->u.pkg.elems[i], o, depth + 1);
            else
                put(o, "...");
        }
        put(o, "}");
        break;
    case OT_REFERENCE: {
        char path[64];
        if (v->sub == REF_INDEX || v->sub == REF_INDEX_BYTE) {
            put(o, "Reference to element 0x");
            put_hex(o, v->u.ref.index, 1);
        } else if (v->u.ref.node && !v->u.ref.name) {
            aml_node_path(v->u.ref.node, path, sizeof(path));
            put(o, "Reference to ");
            put(o, path);
        } else {
            put(o, "Reference to an unresolved name");
        }
        break;
    }
    default:
        put(o, "[");
        put(o, obj_type_name(v->type));
        put(o, "]");
        break;
    }
}

void aml_object_format(const struct aml *a, const struct aml_object *v, char *buf, size_t size)
{
    struct out o = { buf, size, 0 };

    if (size)
        buf[0] = 0;
    format(a, v, &o, 0);
}

/* ---- errors and figures ------------------------------------------------------------------------ */

const struct aml_error *aml_error(const struct aml *a)
{
    return &a->err;
}

const char *aml_status_text(int status)
{
    static const char *const text[AML_E_STATUS_COUNT] = {
        [AML_OK] = "ok",
        [AML_E_NO_MEMORY] = "out of interpreter memory",
        [AML_E_NOT_FOUND] = "no such name",
        [AML_E_ALREADY_EXISTS] = "a name defined twice",
        [AML_E_BAD_AML] = "malformed AML",
        [AML_E_UNSUPPORTED] = "not supported",
        [AML_E_OPERAND_TYPE] = "an operand of the wrong type",
        [AML_E_OPERAND_VALUE] = "an operand out of range",
        [AML_E_TARGET_TYPE] = "a result that cannot be stored there",
        [AML_E_UNINITIALIZED_LOCAL] = "an uninitialized LocalX",
        [AML_E_UNINITIALIZED_ARG] = "an uninitialized ArgX",
        [AML_E_UNINITIALIZED_ELEMENT] = "an uninitialized package element",
        [AML_E_DIVIDE_BY_ZERO] = "a division by zero",
        [AML_E_INDEX_LIMIT] = "Index past the end",
        [AML_E_BUFFER_LIMIT] = "past the end of a buffer",
        [AML_E_REGION_LIMIT] = "past the end of an operation region",
        [AML_E_REGISTER_LIMIT] = "a value too wide for its register",
        [AML_E_NO_HANDLER] = "an address space this machine cannot reach",
        [AML_E_IO] = "the hardware access failed",
        [AML_E_LOOP_TIMEOUT] = "a While loop that did not end",
        [AML_E_STEP_LIMIT] = "too many steps",
        [AML_E_DEPTH_LIMIT] = "nested too deep",
        [AML_E_MUTEX] = "a mutex used out of order",
        [AML_E_ARG_COUNT] = "too many arguments",
    };

    return status >= 0 && status < AML_E_STATUS_COUNT && text[status] ? text[status] : "?";
}

void aml_error_format(const struct aml *a, char *buf, size_t size)
{
    const struct aml_error *e = &a->err;
    char op[48] = "", at[40] = "", detail[56] = "";

    if (e->opcode) {
        const char *name = aml_opcode_name(e->opcode);
        if (e->opcode > 0xFF)
            fmt_snprintf(op, sizeof(op), "opcode 5B %02Xh (%s) ", e->opcode & 0xFF,
                         name ? name : "unknown");
        else
            fmt_snprintf(op, sizeof(op), "opcode %02Xh (%s) ", e->opcode,
                         name ? name : "unknown");
    }
    if (e->have_offset)
        fmt_snprintf(at, sizeof(at), "at table %u offset %Xh ", e->table, (unsigned)e->offset);
    if (e->detail[0])
        fmt_snprintf(detail, sizeof(detail), " (%s)", e->detail);
    fmt_snprintf(buf, size, "%s%sin %s: %s%s", op, at, e->where[0] ? e->where : "?",
                 aml_status_text(e->status), detail);
}

size_t aml_pool_used(const struct aml *a)
{
    return a->heap.used;
}

size_t aml_pool_peak(const struct aml *a)
{
    return a->heap.peak;
}

uint32_t aml_steps(const struct aml *a)
{
    return a->steps;
}
