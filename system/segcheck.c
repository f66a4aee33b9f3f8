/* Segment registers after a BIOS call: see segcheck.h. */
#include "segcheck.h"
#include "console.h"
#include "descriptors.h"
#include "halt.h"

#include <stdint.h>

#define READ_SEG(reg) ({ uint16_t v_; __asm__ volatile("mov %%" reg ", %0" : "=r"(v_)); v_; })

void segs_verify(const char *after)
{
    const uint16_t seen[] = { READ_SEG("ds"), READ_SEG("es"), READ_SEG("fs"),
                              READ_SEG("gs"), READ_SEG("ss") };
    static const char *const names[] = { "DS", "ES", "FS", "GS", "SS" };
    int bad = -1;

    for (int i = 0; i < 5; i++)
        if (seen[i] != SEL_DATA32 && bad < 0)
            bad = i;
    if (bad < 0)
        return;
    /* Ours again before anything else runs (halt() and the console use ES for
     * string instructions); SS is reloaded with the same value it must have. */
    __asm__ volatile("mov %0, %%ds\n\tmov %0, %%es\n\tmov %0, %%fs\n\tmov %0, %%gs\n\t"
                     "mov %0, %%ss" : : "r"((uint16_t)SEL_DATA32) : "memory");
    say("bug: after %s, %s=%04Xh (DS=%04Xh ES=%04Xh FS=%04Xh GS=%04Xh SS=%04Xh), "
        "expected %04Xh: our mode switch did not reload it", after, names[bad], seen[bad],
        seen[0], seen[1], seen[2], seen[3], seen[4], SEL_DATA32);
    halt(HALT_EXCEPTION, "segment registers not restored after a BIOS call");
}
