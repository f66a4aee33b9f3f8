/* Exception reporting: what the CPU said, where, and every register, then halt with
 * the reason. A BIOS that faults on a real machine leaves the user this dump on
 * screen, which is the whole point of a diagnostic tool. */
#include "exceptions.h"
#include "console.h"
#include "descriptors.h"
#include "fwguard.h"
#include "../lib/format.h"
#include "halt.h"
#include "../lib/x86.h"

static const char *const exception_names[32] = {
    "#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
    "#BR bound range", "#UD invalid opcode", "#NM no math coprocessor",
    "#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
    "#NP segment not present", "#SS stack fault", "#GP general protection",
    "#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
    "#MC machine check", "#XM SIMD error", "#VE virtualization",
    "#CP control protection",
};

static v86_trap_fn v86_handler;

void exceptions_set_v86_handler(v86_trap_fn fn)
{
    v86_handler = fn;
}

const char *exception_name(uint32_t vector)
{
    const char *n = vector < 32 ? exception_names[vector] : 0;
    return n ? n : "reserved";
}

static uint32_t read_cr(int which)
{
    uint32_t v = 0;
    switch (which) {
    case 0: __asm__ volatile("movl %%cr0, %0" : "=r"(v)); break;
    case 2: __asm__ volatile("movl %%cr2, %0" : "=r"(v)); break;
    case 3: __asm__ volatile("movl %%cr3, %0" : "=r"(v)); break;
    }
    return v;
}

/* A software INT n executed in protected mode, by BIOS code that expects real mode
 * (a PM entry that calls INT 10h, 15h or 1Ah): for n of 32 and up, our gate is not
 * present, and the #NP (or #GP) error code names the IDT vector; for n below 32 an
 * exception stub ran for a CPU exception that never happened, which the INT
 * instruction just before the return address gives away (only the vectors for which
 * the CPU pushes no error code keep a frame that can be read). -1: not one. */
static int software_int(const struct exception_frame *f)
{
    bool cpu_error_code = f->vector == 8 || (f->vector >= 10 && f->vector <= 14) ||
                          f->vector == 17;

    if ((f->vector == X86_VECTOR_NP || f->vector == X86_VECTOR_GP) &&
        (f->error & X86_ERROR_IDT))
        return (int)(f->error >> 3) & 0xFF;
    if (cpu_error_code || f->eip < 2 || (f->eflags & X86_EFLAGS_VM))
        return -1;
    uint32_t at = gdt_base_of((uint16_t)f->cs) + f->eip - 2;
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)at;
    return p[0] == X86_OPCODE_INT && p[1] == f->vector ? (int)f->vector : -1;
}

#define CODE_BYTES 12            /* the instruction at CS:EIP and a few after it */

/* Where a fault in firmware code lies, in real-mode terms, and the bytes there: a BIOS
 * on a board nobody can attach a debugger to is read from the screen (86Box's
 * TC430HX: BT ECX,EAX at F000:6587h). The kernel's own faults are found in its map. */
static void say_where(const struct exception_frame *f)
{
    uint16_t cs = (uint16_t)f->cs;
    bool v86 = f->eflags & X86_EFLAGS_VM;
    const char *what;

    if (v86)
        what = "BIOS code run by the v86 monitor";
    else if ((cs & ~3u) == SEL_APM_CODE32)
        what = "the APM BIOS's 32-bit code segment";
    else if ((cs & ~3u) == SEL_APM_CODE16)
        what = "the APM BIOS's 16-bit code segment";
    else if ((cs & ~3u) == SEL_TRAMP_CODE16)
        what = "the real-mode trampoline";
    else
        return;
    uint32_t base = v86 ? real_linear(cs, 0) : gdt_base_of(cs);
    uint32_t ip = v86 || gdt_is_16bit(cs) ? f->eip & 0xFFFF : f->eip;
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)(base + ip);
    char code[CODE_BYTES * 3];
    for (unsigned i = 0; i < CODE_BYTES; i++)
        fmt_snprintf(code + 3 * i, 4, "%02X%s", (unsigned)p[i], i + 1 < CODE_BYTES ? " " : "");
    say("  in %s: %04X:%04Xh, linear %05Xh; code there: %s", what,
        (unsigned)(base >> 4), (unsigned)ip, (unsigned)(base + ip), code);
}

static void __attribute__((noreturn)) dump_and_halt(const struct exception_frame *f,
                                                    uint32_t ss, uint32_t esp)
{
    char reason[64];
    bool v86 = f->eflags & X86_EFLAGS_VM;
    int soft = software_int(f);

    if (soft >= 0) {
        say("code at %04X:%08X executed INT %02Xh in protected mode (a BIOS entry that "
            "expects real mode): not a CPU fault", (unsigned)f->cs & 0xFFFF,
            (unsigned)f->eip, (unsigned)soft);
        fmt_snprintf(reason, sizeof(reason), "software INT %02Xh in protected mode at %04X",
                     (unsigned)soft, (unsigned)f->cs & 0xFFFF);
    }

    if (soft < 0)
        say("CPU exception %u (%s), error code %08X%s", (unsigned)f->vector,
            exception_name(f->vector), (unsigned)f->error, v86 ? ", in virtual-8086 mode" : "");
    else
        say("software INT %02Xh, through vector %u, error code %08X", (unsigned)soft,
            (unsigned)f->vector, (unsigned)f->error);
    say("  EIP=%08X CS=%04X EFLAGS=%08X", (unsigned)f->eip, (unsigned)f->cs & 0xFFFF,
        (unsigned)f->eflags);
    say("  EAX=%08X EBX=%08X ECX=%08X EDX=%08X", (unsigned)f->eax, (unsigned)f->ebx,
        (unsigned)f->ecx, (unsigned)f->edx);
    say("  ESI=%08X EDI=%08X EBP=%08X ESP=%08X", (unsigned)f->esi, (unsigned)f->edi,
        (unsigned)f->ebp, (unsigned)esp);
    /* From v86 mode the CPU saved the real-mode segments in the frame's tail and
     * loaded null selectors before our stub pushed them. */
    say("  DS=%04X ES=%04X FS=%04X GS=%04X SS=%04X",
        (unsigned)(v86 ? f->v86_ds : f->ds) & 0xFFFF, (unsigned)(v86 ? f->v86_es : f->es) & 0xFFFF,
        (unsigned)(v86 ? f->v86_fs : f->fs) & 0xFFFF, (unsigned)(v86 ? f->v86_gs : f->gs) & 0xFFFF,
        (unsigned)ss & 0xFFFF);
    say("  CR0=%08X CR2=%08X CR3=%08X", (unsigned)read_cr(0), (unsigned)read_cr(2),
        (unsigned)read_cr(3));
    say_where(f);
    if (soft < 0)
        fmt_snprintf(reason, sizeof(reason), "CPU exception %u (%s) at %04X:%08X",
                     (unsigned)f->vector, exception_name(f->vector), (unsigned)f->cs & 0xFFFF,
                     (unsigned)f->eip);
    fw_guard_catch(f, reason);          /* firmware's fault in a guarded call: it ends there */
    halt(HALT_EXCEPTION, reason);
}

void exception_dispatch(struct exception_frame *f)
{
    if ((f->eflags & X86_EFLAGS_VM) && v86_handler && v86_handler(f))
        return;
    /* Same privilege, flat stack: the interrupted ESP is just above the frame. */
    uint32_t esp = (uint32_t)(uintptr_t)&f->esp;
    uint32_t ss = SEL_DATA32;
    if (f->eflags & X86_EFLAGS_VM || (f->cs & 3)) {
        esp = f->esp;
        ss = f->ss;
    }
    dump_and_halt(f, ss, esp);
}

void exception_foreign_stack(uint32_t ss, uint32_t esp)
{
    /* The frame sits on a stack that is not flat: find it through SS's base. */
    if (gdt_is_16bit((uint16_t)ss))
        esp &= 0xFFFF;
    const struct exception_frame *f =
        (const struct exception_frame *)(uintptr_t)(gdt_base_of((uint16_t)ss) + esp);
    dump_and_halt(f, ss, esp + (uint32_t)__builtin_offsetof(struct exception_frame, esp));
}
