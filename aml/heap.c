/* The interpreter's pool: every node, object, string and frame the interpreter
 * holds is carved from the one block of memory its caller gave to aml_create().
 *
 * Blocks carry boundary tags (their own size and their left neighbour's) so that a
 * freed block merges with free neighbours at once and the pool does not crumble
 * while a loop creates and drops temporaries. Free blocks sit on lists by size
 * class, so the small objects that dominate (nodes, integers) are found without a
 * walk. Sizes are multiples of HEAP_ALIGN; the low bit of a size marks a block in
 * use. Nothing here knows about AML. */
#include "amlint.h"
#include "../lib/string.h"

/* Under AddressSanitizer (the host's tests and fuzzers) a free block's payload is
 * poisoned, so that a use after heap_free() is reported where it happens rather than
 * found later as a broken list. The heap opens a free block's links to touch them. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HEAP_ASAN)
#define HEAP_ASAN 1
#endif
#ifdef HEAP_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n)    __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n)  __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n)    ((void)(p), (void)(n))
#define UNPOISON(p, n)  ((void)(p), (void)(n))
#endif

#define HEAP_ALIGN      8
#define USED            ((size_t)1)

struct heap_block {
    size_t size;                /* this block, header included; | USED */
    size_t prev_size;           /* the block to the left (0 for the first) */
    /* a free block's payload: */
    struct heap_block *next, *prev;
};

#define HEADER          (2 * sizeof(size_t))
#define MIN_BLOCK       ((sizeof(struct heap_block) + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1))
#define CLASSES         (sizeof(((struct aml_heap *)0)->free) / sizeof(struct heap_block *))

static size_t bsize(const struct heap_block *b) { return b->size & ~USED; }

static struct heap_block *right_of(const struct aml_heap *h, struct heap_block *b)
{
    uint8_t *r = (uint8_t *)b + bsize(b);
    return r < h->end ? (struct heap_block *)r : NULL;
}

/* Classes: up to 32, 48, 64, 96, 128, 256, 1 KiB, 16 KiB bytes, then the rest. */
static unsigned class_of(size_t size)
{
    static const size_t limit[] = { 32, 48, 64, 96, 128, 256, 1024, 16384 };
    unsigned i = 0;

    while (i < CLASSES - 1 && size > limit[i])
        i++;
    return i;
}

/* A free block's payload is poisoned, its links included; the heap opens them for
 * the moment it touches them. Headers are never poisoned. */
static void open_links(struct heap_block *b)
{
    UNPOISON(&b->next, 2 * sizeof(b->next));
}

static void close_links(struct heap_block *b)
{
    POISON(&b->next, 2 * sizeof(b->next));
}

static void unlink_free(struct aml_heap *h, struct heap_block *b)
{
    open_links(b);
    if (b->prev) {
        open_links(b->prev);
        b->prev->next = b->next;
        close_links(b->prev);
    } else {
        h->free[class_of(b->size)] = b->next;
    }
    if (b->next) {
        open_links(b->next);
        b->next->prev = b->prev;
        close_links(b->next);
    }
    close_links(b);
}

static void link_free(struct aml_heap *h, struct heap_block *b)
{
    unsigned k = class_of(b->size);

    open_links(b);
    b->prev = NULL;
    b->next = h->free[k];
    if (b->next) {
        open_links(b->next);
        b->next->prev = b;
        close_links(b->next);
    }
    h->free[k] = b;
    close_links(b);
}

bool heap_init(struct aml_heap *h, void *mem, size_t size)
{
    uintptr_t start = ((uintptr_t)mem + HEAP_ALIGN - 1) & ~(uintptr_t)(HEAP_ALIGN - 1);
    uintptr_t end = ((uintptr_t)mem + size) & ~(uintptr_t)(HEAP_ALIGN - 1);

    memset(h, 0, sizeof(*h));
    if (end <= start || end - start < 4 * MIN_BLOCK)
        return false;
    h->base = (uint8_t *)start;
    h->end = (uint8_t *)end;
    struct heap_block *b = (struct heap_block *)h->base;
    b->size = end - start;
    b->prev_size = 0;
    POISON((uint8_t *)b + HEADER, b->size - HEADER);
    link_free(h, b);
    return true;
}

void *heap_alloc(struct aml_heap *h, size_t n)
{
    if (n > (size_t)(h->end - h->base))
        return NULL;
    size_t need = (n + HEADER + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
    if (need < MIN_BLOCK)
        need = MIN_BLOCK;

    /* The first block big enough, in the smallest class that may hold one. */
    struct heap_block *b = NULL;
    for (unsigned k = class_of(need); k < CLASSES && !b; k++)
        for (struct heap_block *c = h->free[k], *next; c; c = next) {
            if (c->size >= need) {
                b = c;
                break;
            }
            open_links(c);
            next = c->next;
            close_links(c);
        }
    if (!b)
        return NULL;
    unlink_free(h, b);

    /* Split off the rest when it can stand as a block of its own. */
    if (b->size - need >= MIN_BLOCK) {
        struct heap_block *rest = (struct heap_block *)((uint8_t *)b + need);
        UNPOISON(rest, HEADER);
        rest->size = b->size - need;
        rest->prev_size = need;
        struct heap_block *r = right_of(h, rest);
        if (r)
            r->prev_size = rest->size;
        b->size = need;
        link_free(h, rest);
    }
    b->size |= USED;
    h->used += bsize(b);
    if (h->used > h->peak)
        h->peak = h->used;
    void *p = (uint8_t *)b + HEADER;
    UNPOISON(p, bsize(b) - HEADER);
    memset(p, 0, bsize(b) - HEADER);
    return p;
}

void heap_free(struct aml_heap *h, void *p)
{
    if (!p)
        return;
    struct heap_block *b = (struct heap_block *)((uint8_t *)p - HEADER);
    b->size &= ~USED;
    h->used -= b->size;
    POISON(p, b->size - HEADER);

    /* A neighbour's header that a merge swallows becomes payload, poisoned too. */
    struct heap_block *r = right_of(h, b);
    if (r && !(r->size & USED)) {
        unlink_free(h, r);
        b->size += r->size;
        POISON(r, HEADER);
    }
    if (b->prev_size) {
        struct heap_block *l = (struct heap_block *)((uint8_t *)b - b->prev_size);
        if (!(l->size & USED)) {
            unlink_free(h, l);
            l->size += b->size;
            POISON(b, HEADER);
            b = l;
        }
    }
    r = right_of(h, b);
    if (r)
        r->prev_size = b->size;
    link_free(h, b);
}
