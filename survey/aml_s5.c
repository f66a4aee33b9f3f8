/* The \_S5_ reader: see aml_s5.h. Opcodes and encodings are those of the ACPI
 * specification (6.x, 20.2 "AML Grammar Definition"). */
#include "aml_s5.h"
#include "../lib/string.h"

#include <stdbool.h>

/* 20.2.3 Data objects */
#define ZERO_OP         0x00
#define ONE_OP          0x01
#define ONES_OP         0xFF
#define BYTE_PREFIX     0x0A
#define WORD_PREFIX     0x0B
#define DWORD_PREFIX    0x0C
#define STRING_PREFIX   0x0D
#define QWORD_PREFIX    0x0E
/* 20.2.2 Name objects */
#define ROOT_CHAR       0x5C    /* '\' */
#define PARENT_PREFIX   0x5E    /* '^' */
#define DUAL_NAME       0x2E
#define MULTI_NAME      0x2F
#define NULL_NAME       0x00
#define NAME_SEG_LEN    4
/* 20.2.5 Term objects */
#define ALIAS_OP        0x06
#define NAME_OP         0x08
#define SCOPE_OP        0x10
#define BUFFER_OP       0x11
#define PACKAGE_OP      0x12
#define VAR_PACKAGE_OP  0x13
#define METHOD_OP       0x14
#define EXTERNAL_OP     0x15
#define LOCAL0_OP       0x60
#define ARG6_OP         0x6E
#define AND_OP          0x7B
#define OR_OP           0x7D
#define LAND_OP         0x90
#define LOR_OP          0x91
#define LNOT_OP         0x92
#define LEQUAL_OP       0x93
#define LGREATER_OP     0x94
#define LLESS_OP        0x95
#define IF_OP           0xA0
#define ELSE_OP         0xA1
#define WHILE_OP        0xA2
#define NOOP_OP         0xA3
#define EXT_PREFIX      0x5B    /* then: */
#define MUTEX_OP        0x01
#define EVENT_OP        0x02
#define COND_REF_OF_OP  0x12
#define REVISION_OP     0x30
#define DEBUG_OP        0x31
#define OP_REGION_OP    0x80
#define FIELD_OP        0x81
#define DEVICE_OP       0x82
#define PROCESSOR_OP    0x83
#define POWER_RES_OP    0x84
#define THERMAL_ZONE_OP 0x85
#define INDEX_FIELD_OP  0x86
#define BANK_FIELD_OP   0x87
#define DATA_REGION_OP  0x88

/* A NameString as read: prefixes and where its last NameSeg is. */
struct name {
    bool root;
    unsigned up;                /* '^' prefixes */
    unsigned segs;
    size_t last;
};

struct walk {
    const uint8_t *p;
    struct aml_s5 *out;
};

/* PkgLength (20.2.4) at *pos, in [*pos, end): bits 7-6 of the lead byte count the
 * bytes that follow; with none, bits 5-0 are the length, otherwise bits 3-0 are its
 * low nibble and each following byte 8 more bits. The length counts itself, so the
 * object ends at the lead byte plus the length, which must not pass end. */
static bool pkg_length(const uint8_t *p, size_t *pos, size_t end, size_t *obj_end)
{
    size_t at = *pos;
    if (at >= end)
        return false;
    unsigned follow = p[at] >> 6;
    if (end - at < 1u + follow)
        return false;
    uint32_t n = follow ? p[at] & 0x0Fu : p[at] & 0x3Fu;
    for (unsigned i = 0; i < follow; i++)
        n |= (uint32_t)p[at + 1 + i] << (4 + 8 * i);
    if (n < 1u + follow || n > end - at)
        return false;
    *pos = at + 1 + follow;
    *obj_end = at + n;
    return true;
}

/* NameSeg: a lead character A-Z or _, then three of A-Z, 0-9, _. */
static bool seg_ok(const uint8_t *s)
{
    for (unsigned i = 0; i < NAME_SEG_LEN; i++) {
        uint8_t c = s[i];
        if (!((c >= 'A' && c <= 'Z') || c == '_' || (i && c >= '0' && c <= '9')))
            return false;
    }
    return true;
}

static bool name_string(const uint8_t *p, size_t *pos, size_t end, struct name *n)
{
    size_t at = *pos;
    unsigned count = 1;

    *n = (struct name){ 0 };
    if (at < end && p[at] == ROOT_CHAR) {
        n->root = true;
        at++;
    } else {
        while (at < end && p[at] == PARENT_PREFIX) {
            n->up++;
            at++;
        }
    }
    if (at >= end)
        return false;
    if (p[at] == NULL_NAME) {
        count = 0;
        at++;
    } else if (p[at] == DUAL_NAME) {
        count = 2;
        at++;
    } else if (p[at] == MULTI_NAME) {
        if (end - at < 2 || !p[at + 1])
            return false;
        count = p[at + 1];
        at += 2;
    }
    if ((end - at) / NAME_SEG_LEN < count)
        return false;
    for (unsigned i = 0; i < count; i++)
        if (!seg_ok(p + at + NAME_SEG_LEN * i))
            return false;
    n->segs = count;
    n->last = count ? at + NAME_SEG_LEN * (count - 1) : at;
    *pos = at + NAME_SEG_LEN * count;
    return true;
}

/* The depth below the root of the scope a name opens, if the name stays inside the
 * namespace (a '^' above the root does not). */
static bool resolve(const struct name *n, unsigned scope, unsigned *depth)
{
    if (!n->root && n->up > scope)
        return false;
    *depth = (n->root ? 0 : scope - n->up) + n->segs;
    return true;
}

/* Whether a declared name is \_S5_: its last segment is _S5_ and its parent the root. */
static bool is_s5(const uint8_t *p, const struct name *n, unsigned scope)
{
    unsigned depth;
    return n->segs && resolve(n, scope, &depth) && depth == 1 &&
           !memcmp(p + n->last, "_S5_", NAME_SEG_LEN);
}

/* An integer constant (ZeroOp, OneOp, OnesOp, Byte/Word/DWord/QWordPrefix); *v gets
 * its low 32 bits. */
static bool integer(const uint8_t *p, size_t *pos, size_t end, uint32_t *v)
{
    size_t at = *pos;
    unsigned n;

    if (at >= end)
        return false;
    switch (p[at]) {
    case ZERO_OP:       *v = 0;           *pos = at + 1; return true;
    case ONE_OP:        *v = 1;           *pos = at + 1; return true;
    case ONES_OP:       *v = 0xFFFFFFFFu; *pos = at + 1; return true;
    case BYTE_PREFIX:   n = 1; break;
    case WORD_PREFIX:   n = 2; break;
    case DWORD_PREFIX:  n = 4; break;
    case QWORD_PREFIX:  n = 8; break;
    default:            return false;
    }
    if (end - at - 1 < n)
        return false;
    *v = 0;
    for (unsigned i = 0; i < n && i < 4; i++)
        *v |= (uint32_t)p[at + 1 + i] << (8 * i);
    *pos = at + 1 + n;
    return true;
}

/* A String: StringPrefix, ASCII characters, a NUL. */
static bool string(const uint8_t *p, size_t *pos, size_t end)
{
    if (*pos >= end || p[*pos] != STRING_PREFIX)
        return false;
    for (size_t at = *pos + 1; at < end; at++)
        if (!p[at]) {
            *pos = at + 1;
            return true;
        }
    return false;
}

/* An opcode followed by a PkgLength: skips the whole object. */
static bool skip_sized(const uint8_t *p, size_t *pos, size_t end)
{
    size_t obj_end;
    if (!pkg_length(p, pos, end, &obj_end))
        return false;
    *pos = obj_end;
    return true;
}

/* A SuperName or Target: LocalX, ArgX, Debug, or a NameString (NullName included). */
static bool target(const uint8_t *p, size_t *pos, size_t end)
{
    struct name n;
    if (*pos < end && p[*pos] >= LOCAL0_OP && p[*pos] <= ARG6_OP) {
        (*pos)++;
        return true;
    }
    if (end - *pos >= 2 && p[*pos] == EXT_PREFIX && p[*pos + 1] == DEBUG_OP) {
        *pos += 2;
        return true;
    }
    return name_string(p, pos, end, &n);
}

/* Skips a TermArg of the kinds firmware puts in an If predicate or an
 * OperationRegion's offset and length: a constant, a string, LocalX/ArgX, a name, or
 * LNot, LAnd, LOr, LEqual, LGreater, LLess, And, Or, CondRefOf of those. A name is
 * taken as a variable: a method call with arguments would be misread, but such a
 * misreading stops soon after at an opcode the walk does not know. */
static bool term_arg(const uint8_t *p, size_t *pos, size_t end, unsigned depth)
{
    size_t at = *pos;
    uint32_t v;

    if (depth > AML_NEST_MAX || at >= end)
        return false;
    if (integer(p, pos, end, &v) || string(p, pos, end) || target(p, pos, end))
        return true;
    *pos = at + 1;
    switch (p[at]) {
    case LNOT_OP:
        return term_arg(p, pos, end, depth + 1);
    case LAND_OP: case LOR_OP: case LEQUAL_OP: case LGREATER_OP: case LLESS_OP:
        return term_arg(p, pos, end, depth + 1) && term_arg(p, pos, end, depth + 1);
    case AND_OP: case OR_OP:
        return term_arg(p, pos, end, depth + 1) && term_arg(p, pos, end, depth + 1) &&
               target(p, pos, end);
    case EXT_PREFIX:
        if (at + 1 >= end)
            return false;
        *pos = at + 2;
        if (p[at + 1] == REVISION_OP)
            return true;
        return p[at + 1] == COND_REF_OF_OP && target(p, pos, end) && target(p, pos, end);
    }
    return false;
}

/* A Name's value (DataRefObject) other than \_S5_'s: skipped. */
static bool data_object(const uint8_t *p, size_t *pos, size_t end)
{
    uint32_t v;

    if (integer(p, pos, end, &v) || string(p, pos, end))
        return true;
    if (*pos >= end)
        return false;
    switch (p[*pos]) {
    case BUFFER_OP: case PACKAGE_OP: case VAR_PACKAGE_OP:
        (*pos)++;
        return skip_sized(p, pos, end);
    case EXT_PREFIX:
        if (end - *pos < 2 || p[*pos + 1] != REVISION_OP)
            return false;
        *pos += 2;
        return true;
    }
    return false;
}

/* \_S5_'s value: PackageOp PkgLength NumElements, then the elements. */
static enum aml_s5_result read_package(const uint8_t *p, size_t pos, size_t end,
                                       struct aml_s5 *out)
{
    size_t pkg_end;
    uint32_t a, b;

    if (pos >= end || p[pos] != PACKAGE_OP)
        return AML_S5_UNREADABLE;
    pos++;
    if (!pkg_length(p, &pos, end, &pkg_end) || pos >= pkg_end)
        return AML_S5_UNREADABLE;
    out->elements = p[pos++];
    if (!out->elements || !integer(p, &pos, pkg_end, &a))
        return AML_S5_UNREADABLE;
    if (out->elements == 1)
        b = a >> 8;     /* ACPICA: one integer holds both */
    else if (!integer(p, &pos, pkg_end, &b))
        return AML_S5_UNREADABLE;
    out->slp_typa = (uint8_t)a;
    out->slp_typb = (uint8_t)b;
    return AML_S5_FOUND;
}

/* Reads the term list in [pos, end) in the scope `scope` levels below the root.
 * Returns 1 when \_S5_ was met (w->out says how it read), 0 at the end, -1 when it
 * stopped at something it cannot size (w->out says where). */
static int term_list(struct walk *w, size_t pos, size_t end, unsigned scope,
                     unsigned nest, bool cond)
{
    const uint8_t *p = w->p;
    struct name n;
    size_t start, obj_end;
    unsigned depth;
    int rc;

    while (pos < end) {
        start = pos++;
        switch (p[start]) {
        case NAME_OP:
            if (!name_string(p, &pos, end, &n))
                goto stop;
            if (is_s5(p, &n, scope)) {
                w->out->result = read_package(p, pos, end, w->out);
                w->out->offset = (uint32_t)start;
                w->out->conditional = cond;
                return 1;
            }
            if (!data_object(p, &pos, end))
                goto stop;
            break;
        case SCOPE_OP:
        case IF_OP:
        case ELSE_OP:
            if (nest == AML_NEST_MAX || !pkg_length(p, &pos, end, &obj_end))
                goto stop;
            depth = scope;
            if (p[start] == SCOPE_OP &&
                !(name_string(p, &pos, obj_end, &n) && resolve(&n, scope, &depth)))
                goto stop;
            if (p[start] == IF_OP && !term_arg(p, &pos, obj_end, 0))
                goto stop;
            rc = term_list(w, pos, obj_end, depth, nest + 1,
                           cond || p[start] != SCOPE_OP);
            if (rc)
                return rc;
            pos = obj_end;
            break;
        case METHOD_OP:
            if (!pkg_length(p, &pos, end, &obj_end))
                goto stop;
            if (name_string(p, &pos, obj_end, &n) && is_s5(p, &n, scope)) {
                w->out->result = AML_S5_METHOD;
                w->out->offset = (uint32_t)start;
                w->out->conditional = cond;
                return 1;
            }
            pos = obj_end;
            break;
        case WHILE_OP:
        case BUFFER_OP:
        case PACKAGE_OP:
        case VAR_PACKAGE_OP:
            if (!skip_sized(p, &pos, end))
                goto stop;
            break;
        case ALIAS_OP:
            if (!name_string(p, &pos, end, &n) || !name_string(p, &pos, end, &n))
                goto stop;
            break;
        case EXTERNAL_OP:       /* NameString ObjectType ArgumentCount */
            if (!name_string(p, &pos, end, &n) || end - pos < 2)
                goto stop;
            pos += 2;
            break;
        case NOOP_OP:
            break;
        case EXT_PREFIX:
            if (pos >= end)
                goto stop;
            switch (p[pos++]) {
            case DEVICE_OP: case PROCESSOR_OP: case POWER_RES_OP: case THERMAL_ZONE_OP:
            case FIELD_OP: case INDEX_FIELD_OP: case BANK_FIELD_OP:
                if (!skip_sized(p, &pos, end))
                    goto stop;
                break;
            case OP_REGION_OP:  /* NameString RegionSpace Offset Length */
                if (!name_string(p, &pos, end, &n) || pos >= end)
                    goto stop;
                pos++;
                if (!term_arg(p, &pos, end, 0) || !term_arg(p, &pos, end, 0))
                    goto stop;
                break;
            case MUTEX_OP:      /* NameString SyncFlags */
                if (!name_string(p, &pos, end, &n) || pos >= end)
                    goto stop;
                pos++;
                break;
            case EVENT_OP:
                if (!name_string(p, &pos, end, &n))
                    goto stop;
                break;
            case DATA_REGION_OP:        /* NameString TermArg TermArg TermArg */
                if (!name_string(p, &pos, end, &n) || !term_arg(p, &pos, end, 0) ||
                    !term_arg(p, &pos, end, 0) || !term_arg(p, &pos, end, 0))
                    goto stop;
                break;
            default:
                goto stop;
            }
            break;
        default:
            goto stop;
        }
    }
    return 0;
stop:
    w->out->stop_offset = (uint32_t)start;
    w->out->stop_opcode = p[start];
    return -1;
}

/* One pass of the search from the stop on: NameOp, RootChar when rooted, "_S5_",
 * PackageOp, as GRUB's acpihalt.c and many small kernels search, but taken only if
 * the package reads. */
static bool search_pass(const uint8_t *p, size_t from, size_t len, bool rooted,
                        struct aml_s5 *out)
{
    for (size_t i = from; i + 6 <= len; i++) {
        size_t at = i + 1;
        if (p[i] != NAME_OP || (p[at] == ROOT_CHAR) != rooted)
            continue;
        if (rooted)
            at++;
        if (len - at < NAME_SEG_LEN + 1 || memcmp(p + at, "_S5_", NAME_SEG_LEN))
            continue;
        struct aml_s5 found = *out;
        if (read_package(p, at + NAME_SEG_LEN, len, &found) == AML_S5_FOUND) {
            *out = found;
            out->result = AML_S5_FOUND;
            out->how = AML_S5_BY_SEARCH;
            out->offset = (uint32_t)i;
            return true;
        }
    }
    return false;
}

/* After a stop: a \_S5_ written at the root first, then a bare _S5_ (which may be a
 * device's, but is better than nothing). */
static bool search(const uint8_t *p, size_t from, size_t len, struct aml_s5 *out)
{
    return search_pass(p, from, len, true, out) || search_pass(p, from, len, false, out);
}

enum aml_s5_result aml_find_s5(const uint8_t *aml, size_t len, struct aml_s5 *out)
{
    struct walk w = { aml, out };

    *out = (struct aml_s5){ .result = AML_S5_ABSENT, .how = AML_S5_BY_WALK,
                            .stop_offset = (uint32_t)len };
    if (term_list(&w, 0, len, 0, 0, false) < 0 &&
        !search(aml, out->stop_offset, len, out))
        out->result = AML_S5_NOT_UNDERSTOOD;
    return (enum aml_s5_result)out->result;
}
