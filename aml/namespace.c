/* The namespace: a tree of nodes named by 4-character NameSegs, children kept in the
 * order they were created (as ACPICA keeps them, so walks visit names in the same
 * order), and the search rules of ACPI 6.x, 5.3: a single NameSeg with no prefix is
 * looked for in the current scope, then in each enclosing one up to the root; any
 * other path names exactly one place. An Alias is followed where it is found. */
#include "amlint.h"
#include "../lib/string.h"
#include "../lib/le.h"

struct aml_node *ns_child(struct aml_node *parent, uint32_t name)
{
    for (struct aml_node *n = parent->child; n; n = n->peer)
        if (n->name == name)
            return n;
    return NULL;
}

struct aml_node *ns_resolve_alias(struct aml_node *node)
{
    /* One level, as ACPICA: an Alias of an Alias is refused when it is made. */
    if (node && node->type == OT_ALIAS)
        return node->u.alias;
    return node;
}

struct aml_node *ns_add(struct aml *a, struct aml_node *parent, uint32_t name, unsigned type)
{
    struct aml_node *n = heap_alloc(&a->heap, sizeof(*n));

    if (!n)
        return NULL;
    n->name = name;
    n->type = (uint8_t)type;
    n->parent = parent;
    if (parent) {
        if (parent->last_child)
            parent->last_child->peer = n;
        else
            parent->child = n;
        parent->last_child = n;
    }
    return n;
}

struct aml_node *ns_new_root(struct aml *a)
{
    return ns_add(a, NULL, le32((const uint8_t *)"\\___"), OT_SCOPE);
}

/* The scope a path's prefixes and all but its last segment name. */
static struct aml_node *walk_prefix(struct aml *a, struct aml_node *scope,
                                    const struct aml_name *n, unsigned upto)
{
    struct aml_node *at = n->root ? a->root : scope;

    for (unsigned i = 0; i < n->up && at; i++)
        at = at->parent;
    for (unsigned i = 0; i < upto && at; i++) {
        at = ns_child(at, le32(n->segs + 4 * i));
        /* An alias of a Device and the like opens the scope it stands for. */
        at = ns_resolve_alias(at);
    }
    return at;
}

struct aml_node *ns_find_raw(struct aml *a, struct aml_node *scope, const struct aml_name *n,
                             unsigned flags)
{
    if (n->count == 0)
        return walk_prefix(a, scope, n, 0);
    if (n->count == 1 && !n->root && !n->up && (flags & NS_SEARCH)) {
        uint32_t name = le32(n->segs);
        for (struct aml_node *s = scope; s; s = s->parent) {
            struct aml_node *hit = ns_child(s, name);
            if (hit)
                return hit;
        }
        return NULL;
    }
    struct aml_node *parent = walk_prefix(a, scope, n, n->count - 1u);
    return parent ? ns_child(parent, le32(n->segs + 4 * (n->count - 1u))) : NULL;
}

struct aml_node *ns_find(struct aml *a, struct aml_node *scope, const struct aml_name *n,
                         unsigned flags)
{
    return ns_resolve_alias(ns_find_raw(a, scope, n, flags));
}

int ns_create(struct aml *a, struct aml_node *scope, const struct aml_name *n, unsigned type,
              struct aml_node **out)
{
    *out = NULL;
    if (n->count == 0)
        return AML_E_BAD_AML;
    struct aml_node *parent = walk_prefix(a, scope, n, n->count - 1u);
    if (!parent)
        return AML_E_NOT_FOUND;
    uint32_t name = le32(n->segs + 4 * (n->count - 1u));
    struct aml_node *old = ns_child(parent, name);
    if (old) {
        *out = old;
        return AML_E_ALREADY_EXISTS;
    }
    *out = ns_add(a, parent, name, type);
    return *out ? AML_OK : AML_E_NO_MEMORY;
}

void ns_attach(struct aml *a, struct aml_node *node, struct aml_object *obj)
{
    struct aml_object *old = node->type == OT_ALIAS ? NULL : node->u.obj;

    node->u.obj = obj_get(obj);
    if (obj && obj->type <= AML_TYPE_DEBUG)
        node->type = obj->type;
    obj_put(a, old);
}

void node_put(struct aml *a, struct aml_node *node)
{
    if (node && !--node->refs && (node->flags & NODE_DEAD))
        heap_free(&a->heap, node);
}

/* A name a method created goes when the method ends (ACPICA deletes the nodes its
 * owner ID made). A reference may still name it: then it stays, dead and unlinked,
 * until the last reference goes. */
void ns_remove(struct aml *a, struct aml_node *node)
{
    struct aml_node *parent = node->parent, *prev = NULL;

    for (struct aml_node *n = parent ? parent->child : NULL; n; prev = n, n = n->peer)
        if (n == node) {
            if (prev)
                prev->peer = n->peer;
            else
                parent->child = n->peer;
            if (parent->last_child == n)
                parent->last_child = prev;
            break;
        }
    if (node->type != OT_ALIAS)
        obj_put(a, node->u.obj);
    else
        node_put(a, node->u.alias);
    node->u.obj = NULL;
    node->peer = NULL;
    node->flags |= NODE_DEAD;
    if (!node->refs)
        heap_free(&a->heap, node);
}

/* "\\_SB.PCI0._PTS", "_STA", "^PCI0": segments shorter than four characters are
 * padded with '_' as ASL does. */
bool ns_parse_path(const char *path, struct aml_name *n, uint8_t *segbuf, size_t segbuf_len)
{
    *n = (struct aml_name){ .segs = segbuf };
    if (*path == '\\') {
        n->root = true;
        path++;
    }
    while (*path == '^') {
        n->up++;
        path++;
    }
    while (*path) {
        if ((size_t)(n->count + 1) * 4 > segbuf_len || n->count == 255)
            return false;
        uint8_t *seg = segbuf + 4 * n->count;
        unsigned len = 0;
        while (*path && *path != '.') {
            if (len == 4)
                return false;
            seg[len++] = (uint8_t)*path++;
        }
        if (!len)
            return false;
        while (len < 4)
            seg[len++] = '_';
        n->count++;
        if (*path == '.' && !*++path)
            return false;
    }
    return true;
}

static size_t put_seg(char *buf, size_t size, size_t at, uint32_t seg)
{
    char s[4] = { (char)seg, (char)(seg >> 8), (char)(seg >> 16), (char)(seg >> 24) };
    unsigned len = 4;

    while (len > 1 && s[len - 1] == '_')
        len--;
    for (unsigned i = 0; i < len && at + 1 < size; i++)
        buf[at++] = s[i];
    return at;
}

void aml_node_path(const struct aml_node *node, char *buf, size_t size)
{
    const struct aml_node *chain[64];
    unsigned depth = 0;
    size_t at = 0;

    if (!size)
        return;
    for (const struct aml_node *n = node; n && n->parent && depth < 64; n = n->parent)
        chain[depth++] = n;
    if (at + 1 < size)
        buf[at++] = '\\';
    while (depth--) {
        at = put_seg(buf, size, at, chain[depth]->name);
        if (depth && at + 1 < size)
            buf[at++] = '.';
    }
    buf[at] = 0;
}

void ns_name_text(const struct aml_name *n, char *buf, size_t size)
{
    size_t at = 0;

    if (!size)
        return;
    if (n->root && at + 1 < size)
        buf[at++] = '\\';
    for (unsigned i = 0; i < n->up && at + 1 < size; i++)
        buf[at++] = '^';
    for (unsigned i = 0; i < n->count; i++) {
        at = put_seg(buf, size, at, le32(n->segs + 4 * i));
        if (i + 1u < n->count && at + 1 < size)
            buf[at++] = '.';
    }
    buf[at] = 0;
}
