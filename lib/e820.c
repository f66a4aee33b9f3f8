/* The E820h walk: see e820.h. */
#include "e820.h"
#include "le.h"
#include "string.h"
#include "x86.h"

enum e820_end e820_walk(const struct e820_walk *w)
{
    uint32_t next = 0;

    for (unsigned calls = 0; calls < w->calls_max; calls++) {
        struct biosregs r;
        initregs(&r);
        r.eax = 0xE820;
        r.edx = E820_SMAP;
        r.ecx = E820_ASK_SIZE;
        r.ebx = next;
        r.es = w->es;
        r.edi = w->di;
        memset(w->buffer, 0, E820_ASK_SIZE);
        if (!w->call(w->ctx, &r) || (r.eflags & X86_EFLAGS_CF) || r.eax != E820_SMAP ||
            r.ecx < E820_ENTRY_SIZE)
            return calls ? E820_DONE : E820_NONE;
        struct e820_entry e = {
            .base = le64(w->buffer),
            .length = le64(w->buffer + 8),
            .type = le32(w->buffer + 16),
        };
        if (!w->each(w->ctx, &e))
            return E820_FULL;
        next = r.ebx;
        if (!next)
            return E820_DONE;
    }
    return E820_ENDLESS;
}
