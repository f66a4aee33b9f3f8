/* The virtual-8086 monitor: see v86.h.
 *
 * A call runs like this: the registers and an IRET frame go to v86_enter(); the
 * BIOS runs at CPL 3 in v86 mode; each sensitive instruction raises #GP, which
 * system/isr.asm hands to v86_trap() on the TSS stack; we emulate the instruction and
 * resume, until the BIOS returns to our exit stub, a HLT whose address we know. Then
 * v86_trap() copies the registers out and v86_leave() returns from v86_enter(). */
#include "v86.h"
#include "bios.h"
#include "trampoline.h"
#include "../system/console.h"
#include "../system/cpu.h"
#include "../system/descriptors.h"
#include "../system/exceptions.h"
#include "../lib/format.h"
#include "../system/io.h"
#include "../system/pic.h"
#include "../system/segcheck.h"
#include "../lib/bda.h"
#include "../lib/pc.h"
#include "../lib/string.h"
#include "../lib/le.h"

#define IO_BITMAP_BYTES 8192            /* one bit per port, 65536 ports */
#define VECTOR_NMI      2
#define V86_IRQ_BASE    0x20            /* the PICs' vectors during a call (v86irq.asm) */
#define IRQS            16
#define IRQ_TIMER       0
#define IRQ_CASCADE     2
#define WATCHDOG_S      6               /* a BIOS call that runs longer has hung */

/* IF goes to the virtual flag; TF stays ours. IOPL and NT are kept virtual too: the
 * classic 286-or-386 test sets them with POPF and reads them back with PUSHF, and a
 * BIOS that saw them stuck at 0 would think it ran on a 286. */
#define FLAGS_PROGRAM   X86_EFLAGS_PROGRAM
#define FLAGS_VIRTUAL   (X86_EFLAGS_IOPL | X86_EFLAGS_NT)

struct tss {
    uint32_t link, esp0, ss0, esp1, ss1, esp2, ss2;
    uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
    uint32_t es, cs, ss, ds, fs, gs, ldt;
    uint16_t trap, iomap_base;
    uint8_t iomap[IO_BITMAP_BYTES + 1];  /* all zero: every port allowed; last byte FFh */
} __attribute__((packed));

void v86_enter(const struct v86_context *c);
void v86_leave(void) __attribute__((noreturn));
extern void (*const v86_irq_stubs[IRQS])(void);
void v86_irq(struct exception_frame *f);

static struct tss tss __attribute__((aligned(16)));
static uint8_t monitor_stack[4096] __attribute__((aligned(16)));

static bool ready;

static unsigned limit_s = WATCHDOG_S;   /* v86_watchdog(); 0: no limit */

static struct {
    bool active;
    bool virtual_if;
    uint32_t virtual_flags;             /* FLAGS_VIRTUAL bits as the BIOS last set them */
    bool failed;
    bool privileged;                    /* stopped at a privileged instruction */
    bool kbc_output_next;               /* the 8042 takes its output port next */
    bool a20_kept;                      /* the BIOS tried to turn A20 off */
    uint16_t held;                      /* IRQs that came while the virtual IF was off */
    unsigned ticks;                     /* IRQ 0s since the call began: the watchdog */
    unsigned limit_ticks;               /* ... bites past this many; 0: never */
    unsigned limit_s;                   /* the same in seconds, as asked */
    uint16_t exit_cs, exit_ip;
    struct biosregs *regs;
    char called[24];                    /* "INT 10h AX=4F00h"; empty for a stub */
    char why[160];
} call;

/* --- v86 memory ----------------------------------------------------------------- */

static uint8_t *linear(uint32_t seg, uint32_t off)
{
    return (uint8_t *)(uintptr_t)real_linear(seg, off);
}

static void push16(struct exception_frame *f, uint16_t v)
{
    f->esp = (f->esp & 0xFFFF0000u) | ((f->esp - 2) & 0xFFFF);
    put_le16(linear(f->ss, f->esp), v);
}

static uint16_t pop16(struct exception_frame *f)
{
    const uint8_t *p = linear(f->ss, f->esp);
    f->esp = (f->esp & 0xFFFF0000u) | ((f->esp + 2) & 0xFFFF);
    return le16(p);
}

static uint32_t pop32(struct exception_frame *f)
{
    uint32_t lo = pop16(f);
    return lo | (uint32_t)pop16(f) << 16;
}

/* The flags as the real-mode program should see them. */
static uint32_t visible_flags(const struct exception_frame *f)
{
    return (f->eflags & FLAGS_PROGRAM) | X86_EFLAGS_BIT1 | call.virtual_flags |
           (call.virtual_if ? X86_EFLAGS_IF : 0);
}

static void load_flags(struct exception_frame *f, uint32_t flags)
{
    f->eflags = (f->eflags & ~FLAGS_PROGRAM) | (flags & FLAGS_PROGRAM);
    call.virtual_if = flags & X86_EFLAGS_IF;
    call.virtual_flags = flags & FLAGS_VIRTUAL;
}

static void reflect_interrupt(struct exception_frame *f, uint8_t vector, uint16_t next_ip)
{
    push16(f, (uint16_t)visible_flags(f));
    push16(f, (uint16_t)f->cs);
    push16(f, next_ip);
    call.virtual_if = false;            /* as INT does: IF and TF cleared */
    uint32_t target = peek32(vector * 4u);
    f->cs = target >> 16;
    f->eip = target & 0xFFFF;
}

/* --- ending a call ---------------------------------------------------------------- */

static void __attribute__((noreturn)) finish(const struct exception_frame *f)
{
    struct biosregs *r = call.regs;
    r->eax = f->eax;
    r->ebx = f->ebx;
    r->ecx = f->ecx;
    r->edx = f->edx;
    r->esi = f->esi;
    r->edi = f->edi;
    r->ebp = f->ebp;
    r->ds = (uint16_t)f->v86_ds;
    r->es = (uint16_t)f->v86_es;
    r->fs = (uint16_t)f->v86_fs;
    r->gs = (uint16_t)f->v86_gs;
    r->eflags = visible_flags(f);
    call.active = false;
    v86_leave();
}

static bool quiet;              /* v86_quiet(): the caller says why, later */

void v86_quiet(bool on)
{
    quiet = on;
}

bool v86_is_quiet(void)
{
    return quiet;
}

/* Every stop names the call it ended, so that a survey step the BIOS never finished
 * reads as that step, not only as an address. */
static void __attribute__((noreturn)) fail(const struct exception_frame *f)
{
    if (call.called[0]) {
        unsigned n = (unsigned)strlen(call.why);
        fmt_snprintf(call.why + n, sizeof(call.why) - n, " (%s)", call.called);
    }
    if (!quiet)
        say("%s", call.why);
    call.failed = true;
    finish(f);
}

static void __attribute__((noreturn)) stop(const struct exception_frame *f,
                                           const char *what)
{
    fmt_snprintf(call.why, sizeof(call.why), "v86: BIOS executed %s at %04X:%04X", what,
                 (unsigned)f->cs & 0xFFFF, (unsigned)f->eip & 0xFFFF);
    fail(f);
}

/* The watchdog: a BIOS that neither returns nor traps (a loop waiting for something
 * that never comes) is ended by the timer's IRQ, which reaches us whatever the BIOS's
 * virtual IF, and the caller falls back to the next interface. */
static bool overdue(void)
{
    return call.limit_ticks && call.ticks > call.limit_ticks;
}

static void watchdog(const struct exception_frame *f)
{
    if (!overdue())
        return;
    fmt_snprintf(call.why, sizeof(call.why),
                 "v86: BIOS call did not return within %u s: stopped by the timer at "
                 "%04X:%04X", call.limit_s, (unsigned)f->cs & 0xFFFF,
                 (unsigned)f->eip & 0xFFFF);
    fail(f);
}

/* --- IRQs ------------------------------------------------------------------------- */

/* The BIOS's vector for an IRQ, as its PIC programming had it. */
static uint8_t bios_vector(unsigned irq)
{
    return (uint8_t)(irq < 8 ? PIC_BIOS_MASTER_BASE + irq : PIC_BIOS_SLAVE_BASE + irq - 8);
}

/* A held IRQ goes to the BIOS's handler once its virtual IF is on, as the PIC would
 * have raised it then; its line is unmasked again. */
static void deliver_held(struct exception_frame *f)
{
    if (!call.virtual_if || !call.held)
        return;
    unsigned irq = (unsigned)__builtin_ctz(call.held);
    call.held &= (uint16_t)~(1u << irq);
    if (irq != IRQ_TIMER)
        pic_mask_irq(irq, false);
    reflect_interrupt(f, bios_vector(irq), (uint16_t)f->eip);
}

/* Every IRQ of a v86 call, from v86irq.asm. The BIOS runs with the real IF on, as
 * FreeBSD's vm86 does, and only its IF is virtual: with that on, the IRQ goes at once
 * to the BIOS's own handler in the IVT, which sends the EOI; with it off (or while
 * the monitor waits in HLT for the BIOS) the IRQ is acknowledged here and held, its
 * line masked meanwhile so a level-triggered device cannot storm; the timer's stays
 * open, for the watchdog. */
void v86_irq(struct exception_frame *f)
{
    unsigned irq = f->vector;
    bool in_v86 = f->eflags & X86_EFLAGS_VM;

    if ((irq & 7) == 7 && !pic_in_service(irq)) {  /* spurious: the line dropped */
        if (irq >= 8)
            pic_eoi(IRQ_CASCADE);
        return;
    }
    if (irq == IRQ_TIMER)
        call.ticks++;
    if (in_v86 && call.active && call.virtual_if) {
        if (overdue())
            pic_eoi(irq);
        watchdog(f);
        reflect_interrupt(f, bios_vector(irq), (uint16_t)f->eip);
        return;
    }
    pic_eoi(irq);
    if (irq != IRQ_TIMER)
        pic_mask_irq(irq, true);
    call.held |= (uint16_t)(1u << irq);
    if (in_v86 && call.active)
        watchdog(f);
}

/* --- decoding the instruction that trapped ---------------------------------------- */

static const char *privileged_0f(const uint8_t *op, char *buf, unsigned size)
{
    static const char *const group7[8] = {
        "SGDT", "SIDT", "LGDT", "LIDT", "SMSW", 0, "LMSW", "INVLPG",
    };
    static const char *const group6[8] = {
        "SLDT", "STR", "LLDT", "LTR", "VERR", "VERW", 0, 0,
    };
    unsigned reg = (op[1] >> 3) & 7;

    switch (op[0]) {
    case 0x00: return group6[reg] ? group6[reg] : "a group-6 system instruction";
    case 0x01: return group7[reg] ? group7[reg] : "a group-7 system instruction";
    case 0x06: return "CLTS";
    case 0x08: return "INVD";
    case 0x09: return "WBINVD";
    case 0x20: fmt_snprintf(buf, size, "MOV r32, CR%u", reg); return buf;
    case 0x22: fmt_snprintf(buf, size, "MOV CR%u, r32", reg); return buf;
    case 0x21: fmt_snprintf(buf, size, "MOV r32, DR%u", reg); return buf;
    case 0x23: fmt_snprintf(buf, size, "MOV DR%u, r32", reg); return buf;
    case 0x30: return "WRMSR";
    case 0x32: return "RDMSR";
    default: return 0;
    }
}

static void describe_bytes(const uint8_t *p, char *buf, unsigned size, const char *what)
{
    fmt_snprintf(buf, size, "%s (bytes %02X %02X %02X %02X)", what, p[0], p[1], p[2], p[3]);
}

/* A byte the BIOS writes to a port that controls A20: A20 stays on, since our code
 * and stacks live above 1 MiB and the next trap would fetch the wrong memory. The
 * gates: port 92h, the 8042's output port (D1h), its A20 commands (DDh off, DFh on,
 * HP Vectra style) and port EEh, where some chipsets take any write for A20 off
 * (a read turns it on: reads pass). */
static uint8_t filter_out(uint16_t port, uint8_t v)
{
    uint8_t kept = v;
    if (port == PORT_A)
        kept = v | PORT_A_A20;
    else if (port == KBC_DATA && call.kbc_output_next)
        kept = v | KBC_OUTPUT_A20_BIT;
    else if (port == KBC_CTRL && v == KBC_CMD_A20_OFF)
        kept = KBC_CMD_A20_ON;
    if (port == KBC_CTRL)
        call.kbc_output_next = v == KBC_CMD_WRITE_OUTPUT;
    else if (port == KBC_DATA)
        call.kbc_output_next = false;
    call.a20_kept |= kept != v;
    return kept;
}

/* IN/OUT to the trapped ports (the I/O bitmap lets every other port through). */
static void emulate_io(struct exception_frame *f, const uint8_t *op, bool opsize32,
                       uint16_t next)
{
    bool imm = op[0] == 0xE4 || op[0] == 0xE5 || op[0] == 0xE6 || op[0] == 0xE7;
    bool out = op[0] == 0xE6 || op[0] == 0xE7 || op[0] == 0xEE || op[0] == 0xEF;
    unsigned width = (op[0] & 1) ? (opsize32 ? 4 : 2) : 1;
    uint16_t port = imm ? op[1] : (uint16_t)f->edx;

    for (unsigned i = 0; i < width; i++) {
        unsigned shift = 8 * i;
        if (out && (uint16_t)(port + i) == PORT_A20_EE) {
            call.a20_kept = true;           /* A20 off on those chipsets: not done */
        } else if (out) {
            outb((uint16_t)(port + i), filter_out((uint16_t)(port + i),
                                                   (uint8_t)(f->eax >> shift)));
        } else {
            f->eax = (f->eax & ~(0xFFu << shift)) | (uint32_t)inb((uint16_t)(port + i)) << shift;
        }
    }
    f->eip = (uint16_t)(next + (imm ? 1 : 0));
}

/* #GP in v86 mode: emulate the sensitive instruction, or stop the call. */
static void emulate(struct exception_frame *f)
{
    const uint8_t *start = linear(f->cs, f->eip);
    const uint8_t *p = start;
    bool opsize32 = false;
    char text[64];

    for (int i = 0; i < 4; i++, p++) {      /* prefixes */
        if (*p == 0x66)
            opsize32 = true;
        else if (!(*p == 0x67 || *p == 0xF0 || *p == 0xF2 || *p == 0xF3 || *p == 0x26 ||
                   *p == 0x2E || *p == 0x36 || *p == 0x3E || *p == 0x64 || *p == 0x65))
            break;
    }
    uint16_t next = (uint16_t)(f->eip + (uint32_t)(p - start) + 1);

    switch (p[0]) {
    case 0xCD:                                  /* INT n */
        reflect_interrupt(f, p[1], (uint16_t)(next + 1));
        return;
    case 0xCC:                                  /* INT 3 */
        reflect_interrupt(f, 3, next);
        return;
    case 0xCE:                                  /* INTO */
        if (f->eflags & X86_EFLAGS_OF)
            reflect_interrupt(f, 4, next);
        else
            f->eip = next;
        return;
    case 0xCF:                                  /* IRET */
        if (opsize32) {
            f->eip = pop32(f) & 0xFFFF;
            f->cs = pop32(f) & 0xFFFF;
            load_flags(f, pop32(f));
        } else {
            f->eip = pop16(f);
            f->cs = pop16(f);
            load_flags(f, pop16(f));
        }
        deliver_held(f);
        return;
    case 0x9C:                                  /* PUSHF */
        if (opsize32)
            push16(f, 0);                       /* high half of EFLAGS as real mode sees it */
        push16(f, (uint16_t)visible_flags(f));
        f->eip = next;
        return;
    case 0x9D:                                  /* POPF */
        load_flags(f, opsize32 ? pop32(f) : pop16(f));
        f->eip = next;
        deliver_held(f);
        return;
    case 0xE4: case 0xE5: case 0xE6: case 0xE7:  /* IN/OUT imm8 */
    case 0xEC: case 0xED: case 0xEE: case 0xEF:  /* IN/OUT DX */
        emulate_io(f, p, opsize32, next);
        return;
    case 0xFA:                                  /* CLI */
        call.virtual_if = false;
        f->eip = next;
        return;
    case 0xFB:                                  /* STI */
        call.virtual_if = true;
        f->eip = next;
        if (*linear(f->cs, next) != X86_OPCODE_HLT) /* STI; HLT: the HLT takes the IRQ */
            deliver_held(f);
        return;
    case X86_OPCODE_HLT:
        if ((f->cs & 0xFFFF) == call.exit_cs && (f->eip & 0xFFFF) == call.exit_ip)
            finish(f);                          /* the BIOS returned to our exit stub */
        if (!call.virtual_if)
            stop(f, "HLT with interrupts disabled");
        /* Waiting for an interrupt: wait for a real one here (the timer's is always
         * open), then hand it to the BIOS. */
        f->eip = next;
        if (!call.held)
            __asm__ volatile("sti; hlt; cli" ::: "memory");
        watchdog(f);
        deliver_held(f);
        return;
    case 0x0F: {
        if (p[1] == 0x08 || p[1] == 0x09) {
            /* A suspend powers the caches down: the write-back the BIOS asks for must
             * happen. INVD gets WBINVD too: dropping dirty lines would lose ours. */
            cpu_wbinvd();
            if (!quiet)
                say("v86: BIOS executed %s at %04X:%04X: WBINVD done for it, the call "
                    "goes on", p[1] == 0x08 ? "INVD" : "WBINVD", (unsigned)f->cs & 0xFFFF,
                    (unsigned)f->eip & 0xFFFF);
            f->eip = (uint16_t)(next + 1);
            return;
        }
        const char *name = privileged_0f(p + 1, text, sizeof(text));
        if (name) {
            call.privileged = true;
            stop(f, name);
        }
        break;
    }
    }
    describe_bytes(p, text, sizeof(text), "an unexpected instruction");
    stop(f, text);
}

static bool v86_trap(struct exception_frame *f)
{
    char text[64];

    if (!call.active)
        return false;
    if (f->vector == X86_VECTOR_GP) {
        emulate(f);
        return true;
    }
    if (f->vector == VECTOR_NMI) {
        fmt_snprintf(call.why, sizeof(call.why),
                     "v86: NMI (non-maskable interrupt) during the BIOS call, at %04X:%04X",
                     (unsigned)f->cs & 0xFFFF, (unsigned)f->eip & 0xFFFF);
        fail(f);
    }
    static const char *const faults[32] = {
        [0] = "a divide error (#DE)", [1] = "a debug trap (#DB)",
        [5] = "a BOUND range fault (#BR)", [6] = "an invalid opcode (#UD)",
        [7] = "a coprocessor instruction with no FPU (#NM)",
        [10] = "a task-switch fault (#TS)", [11] = "a segment-not-present fault (#NP)",
        [12] = "a stack fault (#SS)", [14] = "a page fault (#PF)",
        [16] = "an FPU error (#MF)", [17] = "an alignment check (#AC)",
    };
    const char *what = f->vector < 32 && faults[f->vector] ? faults[f->vector] : 0;
    if (!what) {
        fmt_snprintf(text, sizeof(text), "an instruction raising exception %u",
                     (unsigned)f->vector);
        what = text;
    }
    if (f->vector == X86_VECTOR_UD) {
        describe_bytes(linear(f->cs, f->eip), text, sizeof(text), "an invalid opcode (#UD)");
        what = text;
    }
    stop(f, what);
}

/* --- calls ------------------------------------------------------------------------ */

/* Micro Channel machines trigger IRQs by level, and the BIOS programmed the PICs so:
 * the monitor's reprogramming must say so too (ICW1's LTIM). INT 15h AH=C0h's
 * configuration table tells, through the trampoline. */
static void detect_level_irqs(void)
{
    struct biosregs r;
    const char *why;

    initregs(&r);
    r.ah = BIOS_SYSCONF_AH;
    if (!bios_int_via(BIOS_PATH_TRAMPOLINE, BIOS_INT_SYSTEM, &r, &r, &why) ||
        (r.eflags & X86_EFLAGS_CF) || r.ah)
        return;
    bool mca = *linear(r.es, (uint16_t)(r.bx + SYSCONF_FEATURE1)) & SYSCONF_FEATURE1_MCA;
    pic_set_level_triggered(mca);
    if (mca)
        say("v86: Micro Channel bus (INT 15h AH=C0h): the PICs are reprogrammed "
            "level-triggered");
}

void v86_init(void)
{
    if (ready)
        return;
    ready = true;
    detect_level_irqs();
    /* With CR4.VME (a loader may leave it set) CLI, STI, PUSHF, POPF and INT no
     * longer all trap: the virtual IF would go unseen. Off, where the CPU has it. */
    struct cpu_info cpu;
    cpu_detect(&cpu);
    if (cpu.has_cpuid && (cpu.features_edx & X86_CPUID_EDX_VME))
        cpu_clear_cr4(X86_CR4_VME | X86_CR4_PVI);
    memset(&tss, 0, sizeof(tss));
    tss.ss0 = SEL_DATA32;
    tss.esp0 = (uint32_t)(uintptr_t)(monitor_stack + sizeof(monitor_stack));
    tss.iomap_base = (uint16_t)__builtin_offsetof(struct tss, iomap);
    tss.iomap[IO_BITMAP_BYTES] = 0xFF;
    tss.iomap[KBC_DATA / 8] |= 1 << (KBC_DATA % 8);
    tss.iomap[KBC_CTRL / 8] |= 1 << (KBC_CTRL % 8);
    tss.iomap[PORT_A / 8] |= 1 << (PORT_A % 8);
    tss.iomap[PORT_A20_EE / 8] |= 1 << (PORT_A20_EE % 8);
    gdt_set(SEL_TSS, (uint32_t)(uintptr_t)&tss, sizeof(tss) - 1, SEG_TSS32);
    load_task_register();
    exceptions_set_v86_handler(v86_trap);
    for (unsigned irq = 0; irq < IRQS; irq++)
        idt_set_gate((int)(V86_IRQ_BASE + irq), v86_irq_stubs[irq]);
    say("v86 monitor ready: TSS at %08Xh, I/O bitmap allows every port but the A20 "
        "ones (60h, 64h, 92h, EEh: A20 is kept on); during v86 BIOS calls the PICs are at "
        "%02Xh-%02Xh and IRQs go to the BIOS's handlers when its virtual IF is on; a call "
        "is stopped after %u s", (unsigned)(uintptr_t)&tss, V86_IRQ_BASE,
        V86_IRQ_BASE + IRQS - 1, WATCHDOG_S);
}

/* Runs the BIOS at cs:ip with an IRET frame on its stack that returns to our HLT. */
static bool run(uint16_t cs, uint16_t ip, bool frame_is_int, struct biosregs *regs,
                const char **why)
{
    uint16_t seg = (uint16_t)(tramp_base() >> 4);
    uint8_t *scratch = linear(seg, tramp_scratch());
    struct v86_context c;
    struct pic_masks masks;

    v86_init();
    scratch[0] = X86_OPCODE_HLT;        /* the exit stub, recognised by its address */
    call.exit_cs = seg;
    call.exit_ip = tramp_scratch();
    call.virtual_if = !frame_is_int && (regs->eflags & X86_EFLAGS_IF);
    call.failed = false;
    call.privileged = false;
    call.virtual_flags = 0;
    call.held = 0;
    call.ticks = 0;
    call.limit_s = limit_s;
    call.limit_ticks = limit_s * BIOS_TICKS_PER_10S / 10;
    call.kbc_output_next = false;
    call.a20_kept = false;
    call.regs = regs;

    c = (struct v86_context){
        .eax = regs->eax, .ebx = regs->ebx, .ecx = regs->ecx, .edx = regs->edx,
        .esi = regs->esi, .edi = regs->edi, .ebp = regs->ebp,
        .eip = ip, .cs = cs, .ss = seg, .esp = tramp_stack_top(),
        .es = regs->es, .ds = regs->ds, .fs = regs->fs, .gs = regs->gs,
        .eflags = X86_EFLAGS_VM | X86_EFLAGS_IF | X86_EFLAGS_BIT1 |
                  (regs->eflags & FLAGS_PROGRAM),
    };
    /* What INT (or a far call) would have pushed: return to the exit stub. */
    uint8_t *sp = linear(seg, c.esp);
    uint16_t frame[3] = { call.exit_ip, seg,
                          (uint16_t)((regs->eflags & FLAGS_PROGRAM) | X86_EFLAGS_BIT1 |
                                     (regs->eflags & X86_EFLAGS_IF)) };
    unsigned words = frame_is_int ? 3 : 2;
    c.esp -= words * 2;
    memcpy(sp - words * 2, frame, words * 2);

    /* The BIOS's masks, the timer's line open (the watchdog), at vectors clear of the
     * exceptions; the BIOS's programming again afterwards. */
    pic_mask_all(&masks);
    pic_set_bases(V86_IRQ_BASE, V86_IRQ_BASE + 8);
    pic_set_masks(&(struct pic_masks){ (uint8_t)(masks.master & ~(1u << IRQ_TIMER)),
                                       masks.slave });
    call.active = true;
    v86_enter(&c);
    call.active = false;
    pic_mask_all(&(struct pic_masks){ 0 });
    pic_set_bases(PIC_BIOS_MASTER_BASE, PIC_BIOS_SLAVE_BASE);
    segs_verify("the v86 monitor");
    pic_restore(&masks);
    if (call.a20_kept && !quiet)
        say("v86: the BIOS tried to turn A20 off; it was kept on");
    if (call.failed) {
        *why = call.why;
        return false;
    }
    return true;
}

bool v86_stopped_on_privileged(void)
{
    return call.failed && call.privileged;
}

void v86_watchdog(unsigned seconds)
{
    limit_s = seconds;
}

bool v86_int(uint8_t vector, struct biosregs *regs, const char **why)
{
    uint32_t target = peek32(vector * 4u);
    fmt_snprintf(call.called, sizeof(call.called), "INT %02Xh AX=%04Xh", vector,
                 (unsigned)regs->ax);
    return run((uint16_t)(target >> 16), (uint16_t)target, true, regs, why);
}

static bool run_stub(const uint8_t *code, unsigned size, bool as_handler,
                     struct biosregs *regs, const char **why)
{
    uint16_t seg = (uint16_t)(tramp_base() >> 4);
    uint16_t at = (uint16_t)(tramp_scratch() + 16);     /* after the exit stub */

    if (size > TRAMP_SCRATCH_SIZE - 16) {
        *why = "stub too large";
        return false;
    }
    memcpy(linear(seg, at), code, size);
    call.called[0] = '\0';
    return run(seg, at, as_handler, regs, why);
}

bool v86_run_stub(const uint8_t *code, unsigned size, struct biosregs *regs,
                  const char **why)
{
    return run_stub(code, size, false, regs, why);
}

bool v86_run_handler_stub(const uint8_t *code, unsigned size, struct biosregs *regs,
                          const char **why)
{
    return run_stub(code, size, true, regs, why);
}
