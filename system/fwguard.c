/* fw_guarded(): see fwguard.h. The way back is GCC's __builtin_setjmp, which keeps
 * the frame and stack pointers and a resume address, and makes the function that
 * calls it reload every other register after a jump: all a freestanding kernel needs
 * of setjmp(). The jump comes from the exception handler, on our flat stack (isr.asm
 * moves off a BIOS's 16-bit stack before it calls C), with interrupts off. */
#include "fwguard.h"
#include "descriptors.h"
#include "exceptions.h"
#include "../lib/format.h"
#include "../lib/x86.h"

static void *resume[5];         /* __builtin_setjmp's buffer: five words */
static struct fw_fault *caught; /* non-NULL while a guarded call runs */

bool fw_guarded(void (*fn)(void *arg), void *arg, struct fw_fault *fault)
{
    fault->text[0] = 0;
    caught = fault;
    if (__builtin_setjmp(resume)) {
        /* Back from fw_guard_catch: the firmware may have left any selector in FS
         * and GS (isr.asm restored DS, ES and SS). */
        __asm__ volatile("movw %w0, %%fs\n\tmovw %w0, %%gs" : : "r"(SEL_DATA32));
        caught = 0;
        return false;
    }
    fn(arg);
    caught = 0;
    return true;
}

void fw_guard_catch(const struct exception_frame *f, const char *reason)
{
    struct fw_fault *fault = caught;

    if (!fault || (f->eflags & X86_EFLAGS_VM) || (f->cs & ~3u) == SEL_CODE32)
        return;
    caught = 0;
    fault->vector = f->vector;
    fault->error = f->error;
    fault->cs = (uint16_t)f->cs;
    fault->eip = f->eip;
    fmt_snprintf(fault->text, sizeof(fault->text), "%s", reason);
    __builtin_longjmp(resume, 1);
}
