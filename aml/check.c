/* Parsing AML without running it.
 *
 * Two uses. At load, a term that failed is skipped so that the rest of the table
 * still loads (ACPICA: "one runtime error during the table load should not cause
 * the entire table to not be loaded"). And aml_check_method() walks a method and
 * every method it calls, to say before anything runs whether each opcode is one
 * this interpreter executes: the survey and action=check ask that of \_PTS without
 * touching the hardware.
 *
 * A name in operand position is a method call when the namespace says so, as at run
 * time; a name not (yet) there is taken for a value, as ACPICA's parser does. */
#include "amlint.h"

static int bad(struct aml *a, const char *what)
{
    return fail(a, AML_E_BAD_AML, what);
}

static int skip_bytes(struct aml *a, struct cursor *c, size_t n)
{
    if ((size_t)(c->end - c->p) < n)
        return bad(a, "operand past the end of its object");
    c->p += n;
    return AML_OK;
}

static int skip_pkg(struct aml *a, struct cursor *c, const uint8_t **end)
{
    return stream_pkg_length(c, end) ? bad(a, "PkgLength") : AML_OK;
}

static int skip_name(struct aml *a, struct cursor *c, struct aml_name *n)
{
    return stream_name(c, n) ? bad(a, "NameString") : AML_OK;
}

static int skip_list(struct aml *a, struct aml_node *scope, const uint8_t *p,
                     const uint8_t *end, struct check_calls *calls)
{
    struct cursor in = { p, end };

    while (in.p < in.end) {
        int st = skip_term(a, scope, &in, calls);
        if (st)
            return st;
    }
    return AML_OK;
}

static void note_call(struct check_calls *calls, struct aml_node *m)
{
    for (unsigned i = 0; i < calls->count; i++)
        if (calls->node[i] == m)
            return;
    if (calls->count < sizeof(calls->node) / sizeof(calls->node[0]))
        calls->node[calls->count++] = m;
    else
        calls->overflow = true;
}

static int skip_target(struct aml *a, struct aml_node *scope, struct cursor *c,
                       struct check_calls *calls)
{
    struct aml_name n;

    if (c->p >= c->end)
        return bad(a, "target past the end of its object");
    if (*c->p == 0x00) {
        c->p++;
        return AML_OK;
    }
    if (stream_is_name_start(*c->p))
        return skip_name(a, c, &n);
    return skip_term(a, scope, c, calls);
}

static int skip_operands(struct aml *a, struct aml_node *scope, struct cursor *c,
                         const char *parse, struct check_calls *calls)
{
    struct aml_name n;
    int st = AML_OK;

    for (; *parse && !st; parse++) {
        switch (*parse) {
        case 't': st = skip_term(a, scope, c, calls); break;
        case 'T':
        case 'S':
        case 'N': st = skip_target(a, scope, c, calls); break;
        case 'n': st = skip_name(a, c, &n); break;
        case 'b': st = skip_bytes(a, c, 1); break;
        case 'w': st = skip_bytes(a, c, 2); break;
        case 'd': st = skip_bytes(a, c, 4); break;
        default: st = bad(a, "operand kind"); break;
        }
    }
    return st;
}

static int skip_data(struct aml *a, struct aml_node *scope, struct cursor *c, uint16_t op,
                     struct check_calls *calls)
{
    const uint8_t *end;
    struct aml_name n;
    int st;

    switch (op) {
    case 0x0A: return skip_bytes(a, c, 1);
    case 0x0B: return skip_bytes(a, c, 2);
    case 0x0C: return skip_bytes(a, c, 4);
    case 0x0E: return skip_bytes(a, c, 8);
    case 0x0D:
        while (c->p < c->end && *c->p)
            c->p++;
        return skip_bytes(a, c, 1);
    case 0x11:
    case 0x12:
    case 0x13:
        st = skip_pkg(a, c, &end);
        if (st || !calls) {
            if (!st)
                c->p = end;
            return st;
        }
        {
            struct cursor in = { c->p, end };
            c->p = end;
            if (op == 0x11)         /* the size is a TermArg, the rest bytes */
                return skip_term(a, scope, &in, calls);
            st = op == 0x12 ? skip_bytes(a, &in, 1) : skip_term(a, scope, &in, calls);
            while (!st && in.p < in.end)
                st = stream_is_name_start(*in.p) ? skip_name(a, &in, &n)
                                                 : skip_term(a, scope, &in, calls);
            return st;
        }
    default:                        /* Zero, One, Ones, Revision */
        return AML_OK;
    }
}

static int skip_control(struct aml *a, struct aml_node *scope, struct cursor *c, uint16_t op,
                        struct check_calls *calls)
{
    const uint8_t *end;
    int st;

    switch (op) {
    case 0xA0:
    case 0xA1:
    case 0xA2:
        st = skip_pkg(a, c, &end);
        if (st)
            return st;
        if (calls) {
            struct cursor in = { c->p, end };
            if (op != 0xA1)
                st = skip_term(a, scope, &in, calls);
            if (!st)
                st = skip_list(a, scope, in.p, end, calls);
        }
        c->p = end;
        return st;
    case 0xA4:
        return skip_term(a, scope, c, calls);
    default:
        return AML_OK;
    }
}

/* The scope a Device, Scope, ... names, for checking its body; NULL if unknown. */
static struct aml_node *body_scope(struct aml *a, struct aml_node *scope,
                                   const struct aml_name *n)
{
    struct aml_node *node = ns_find(a, scope, n, NS_SEARCH);

    return node ? node : scope;
}

static int skip_named(struct aml *a, struct aml_node *scope, struct cursor *c, uint16_t op,
                      struct check_calls *calls)
{
    const uint8_t *end;
    struct aml_name n, n2;
    int st;

    switch (op) {
    case 0x06:                      /* Alias */
        st = skip_name(a, c, &n);
        return st ? st : skip_name(a, c, &n2);
    case 0x08:                      /* Name */
        st = skip_name(a, c, &n);
        return st ? st : skip_term(a, scope, c, calls);
    case 0x15:                      /* External */
        st = skip_name(a, c, &n);
        return st ? st : skip_bytes(a, c, 2);
    case 0x5B01:                    /* Mutex */
        st = skip_name(a, c, &n);
        return st ? st : skip_bytes(a, c, 1);
    case 0x5B02:                    /* Event */
        return skip_name(a, c, &n);
    case 0x5B80:                    /* OperationRegion */
        st = skip_name(a, c, &n);
        if (!st)
            st = skip_bytes(a, c, 1);
        return st ? st : skip_operands(a, scope, c, "tt", calls);
    case 0x5B88:                    /* DataTableRegion */
        st = skip_name(a, c, &n);
        return st ? st : skip_operands(a, scope, c, "ttt", calls);
    case 0x8A:
    case 0x8B:
    case 0x8C:
    case 0x8D:
    case 0x8F:
        st = skip_operands(a, scope, c, "tt", calls);
        return st ? st : skip_name(a, c, &n);
    case 0x5B13:
        st = skip_operands(a, scope, c, "ttt", calls);
        return st ? st : skip_name(a, c, &n);
    case 0x5B87:                    /* BankField: its bank value is a TermArg */
        st = skip_pkg(a, c, &end);
        if (!st && calls) {
            struct cursor in = { c->p, end };
            st = skip_name(a, &in, &n);
            if (!st)
                st = skip_name(a, &in, &n2);
            if (!st)
                st = skip_term(a, scope, &in, calls);
        }
        if (!st)
            c->p = end;
        return st;
    case 0x10:                      /* Scope */
    case 0x5B82:                    /* Device */
    case 0x5B83:                    /* Processor */
    case 0x5B84:                    /* PowerResource */
    case 0x5B85: {                  /* ThermalZone */
        static const uint8_t header[] = { 0, 0, 6, 3, 0 };
        st = skip_pkg(a, c, &end);
        if (!st && calls) {
            struct cursor in = { c->p, end };
            st = skip_name(a, &in, &n);
            if (!st && op != 0x10)
                st = skip_bytes(a, &in, header[op - 0x5B81]);
            if (!st)
                st = skip_list(a, body_scope(a, scope, &n), in.p, end, calls);
        }
        if (!st)
            c->p = end;
        return st;
    }
    default:                        /* Method, Field, IndexField: to their end */
        st = skip_pkg(a, c, &end);
        if (!st)
            c->p = end;
        return st;
    }
}

int skip_term(struct aml *a, struct aml_node *scope, struct cursor *c,
              struct check_calls *calls)
{
    const uint8_t *start = c->p;
    struct aml_name n;
    uint16_t op;
    int st;

    if (c->p >= c->end)
        return bad(a, "term past the end of its object");
    if (++a->expr_depth > a->cfg.limits.expression_depth) {
        a->expr_depth--;
        return fail(a, AML_E_DEPTH_LIMIT, "expression nesting");
    }
    a->err_pc = start;
    if (stream_is_name_start(*c->p)) {
        a->err_op = 0;
        st = skip_name(a, c, &n);
        struct aml_node *node = st ? NULL : ns_find(a, scope, &n, NS_SEARCH);
        if (node && node->type == AML_TYPE_METHOD && node->u.obj) {
            if (calls)
                note_call(calls, node);
            for (unsigned i = 0; i < (node->u.obj->sub & 7u) && !st; i++)
                st = skip_term(a, scope, c, calls);
        }
        goto out;
    }
    st = stream_opcode(c, &op);
    if (st) {
        st = bad(a, NULL);
        goto out;
    }
    a->err_op = op;
    const struct aml_opinfo *info = op_info(op);
    if (!info) {
        st = bad(a, "unknown opcode");
        goto out;
    }
    switch (info->cls) {
    case OPC_DATA:
        st = skip_data(a, scope, c, op, calls);
        break;
    case OPC_CONTROL:
        st = skip_control(a, scope, c, op, calls);
        break;
    case OPC_NAMED:
        st = skip_named(a, scope, c, op, calls);
        break;
    case OPC_UNSUPPORTED:
        if (calls) {
            st = fail(a, AML_E_UNSUPPORTED, NULL);
            break;
        }
        __attribute__((fallthrough));   /* skipping it at load is fine */
    case OPC_EXPR:
    case OPC_STMT:
        st = skip_operands(a, scope, c, info->parse, calls);
        break;
    default:                        /* LocalX, ArgX, Debug */
        break;
    }
out:
    a->expr_depth--;
    return st;
}
