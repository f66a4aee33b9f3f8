/* The APM protected-mode ports: descriptors for the segments the connect returned
 * (worked out in pm_segs.c, which says which and why), and the far calls. Both
 * interfaces get 64 KiB limits whatever the BIOS claimed (apm.c explains). */
#include "ports.h"
#include "pm_segs.h"
#include "../system/console.h"
#include "../system/descriptors.h"
#include "../system/fwguard.h"
#include "../system/pic.h"
#include "../system/segcheck.h"
#include "../realmode/trampoline.h"

extern struct {
    uint32_t offset;
    uint16_t selector;
} __attribute__((packed)) apm_pm32_target;
void apm_pm32_far_call(struct biosregs *regs);

static uint16_t pm16_entry;

/* The BIOS's segments are its own from the connect on, all 64 KiB we map of each:
 * one in conventional memory it never took from INT 12h would otherwise meet the
 * trampoline, whose stack a pm16 call runs on. (The BIOS data area selector is
 * ours, not the BIOS's.) */
static bool load_segments(enum apm_iface iface, const struct apm_pm_info *pm,
                          const char **why)
{
    struct apm_seg segs[APM_PM_SEGS_MAX];
    unsigned n = apm_pm_segments(iface, pm, segs);

    for (unsigned i = 0; i < n; i++) {
        const char *owner = segs[i].selector == SEL_APM_DATA ? "the APM data segment"
                                                             : "an APM code segment";
        if (segs[i].selector != SEL_BIOS_DATA &&
            !tramp_keep_out(segs[i].base, segs[i].base + segs[i].limit + 1, owner)) {
            *why = "a BIOS segment covers the trampoline, and it cannot move";
            return false;
        }
        gdt_set(segs[i].selector, segs[i].base, segs[i].limit, segs[i].kind);
    }
    return true;
}

static void say_pic_masked_once(void)
{
    static bool said;
    if (!said)
        say("note: IRQs are masked at the PICs during protected-mode BIOS calls, except "
            "the timer %s", apm_ports_interrupts() ? "(irq=on)" : "during standby and suspend");
    said = true;
}

static bool pm32_setup(const struct apm_port *port, const struct apm_pm_info *pm,
                       const char **why)
{
    (void)port;
    if (pm->entry + 4 > pm->code32_len) {
        *why = "the 32-bit entry point lies outside its code segment";
        return false;
    }
    if (!load_segments(APM_IFACE_PM32, pm, why))
        return false;
    apm_pm32_target.offset = pm->entry;
    apm_pm32_target.selector = SEL_APM_CODE32;
    say("pm32: descriptors %02Xh code32 base %05Xh, %02Xh code16 base %05Xh, %02Xh data "
        "base %05Xh, 64 KiB each; entry %02Xh:%08Xh", SEL_APM_CODE32,
        (unsigned)gdt_base_of(SEL_APM_CODE32), SEL_APM_CODE16,
        (unsigned)gdt_base_of(SEL_APM_CODE16), SEL_APM_DATA,
        (unsigned)gdt_base_of(SEL_APM_DATA), SEL_APM_CODE32, (unsigned)pm->entry);
    return true;
}

static bool pm16_setup(const struct apm_port *port, const struct apm_pm_info *pm,
                       const char **why)
{
    (void)port;
    if (pm->entry + 4 > pm->code16_len) {
        *why = "the 16-bit entry point lies outside its code segment";
        return false;
    }
    if (!tramp_installed()) {
        *why = "the trampoline (our 16-bit caller) is not installed";
        return false;
    }
    if (!load_segments(APM_IFACE_PM16, pm, why))
        return false;
    pm16_entry = (uint16_t)pm->entry;
    say("pm16: descriptors %02Xh code16 base %05Xh, %02Xh data base %05Xh, 64 KiB each; "
        "entry %02Xh:%04Xh", SEL_APM_CODE16, (unsigned)gdt_base_of(SEL_APM_CODE16),
        SEL_APM_DATA, (unsigned)gdt_base_of(SEL_APM_DATA), SEL_APM_CODE16, pm16_entry);
    return true;
}

/* Both protected-mode calls: IF as configured, every IRQ masked for the length of the
 * call, and the BIOS's IRQ vectors routed to system/bios_irq.asm, which serves any
 * IRQ a BIOS lets through itself (IRQ 1 or 12 so a key wakes a STI; HLT standby,
 * IRQ 14 for a disk wait; a spurious IRQ 7) instead of reading it as an exception.
 * With irq=on the timer alone gets through, and is counted in the BIOS data area as
 * the BIOS would: a BIOS that waits for an interrupt (5305h CPU idle: STI; HLT) or
 * for the tick to move then gets one. */
struct far_call {
    void (*fn)(struct biosregs *regs);
    struct biosregs *regs;
};

static void make_far_call(void *arg)
{
    struct far_call *c = arg;
    c->fn(c->regs);
}

/* False when the BIOS raised a CPU exception instead of returning: the dump is on the
 * console, *why says where, and the caller goes on to its next interface. */
static bool masked_call(struct biosregs *regs, void (*far_call)(struct biosregs *regs),
                        const char *name, const char **why)
{
    static struct fw_fault fault;
    struct pic_masks masks;
    /* Standby and suspend get the tick whatever irq= says: a BIOS without SMM halts
     * in them for an interrupt, and with every line masked none would ever come. */
    bool timer = apm_ports_interrupts() || apm_call_blocks(regs);

    say_pic_masked_once();
    /* CF clear, as NetBSD's and OpenBSD's apmcall.S `clc` before the far call (and
     * Linux's segment zeroing leaves it): a BIOS that dispatches through a jump table
     * touches CF only to fail. The pre-set CF of initregs() belongs to the real-mode
     * path, where it catches an INT 15h that does nothing. */
    regs->eflags = apm_ports_eflags(regs->eflags) & ~X86_EFLAGS_CF;
    pic_mask_all(&masks);
    idt_route_bios_irqs(1);
    if (timer)
        pic_unmask_timer();
    bool returned = fw_guarded(make_far_call, &(struct far_call){ far_call, regs }, &fault);
    if (!returned) {
        say("%s: the call ended with a fault in the BIOS, not a return: %s", name,
            fault.text);
        *why = fault.text;
    }
    /* The real-mode path checks A20 after every INT; so do these. A standby or
     * suspend whose resume path leaves it off: the kernel, in 2-3 MiB, still runs
     * (boot/linker.ld), but every odd megabyte would read the one below it. */
    if (tramp_a20_restore())
        say("note: the %s call left A20 off; it was turned back on", name);
    segs_verify("a protected-mode APM call");
    pic_mask_all(&(struct pic_masks){ 0 });
    idt_route_bios_irqs(0);
    pic_restore(&masks);
    return returned;
}

/* The data segment registers a protected-mode entry finds, pm32call.asm's and the
 * trampoline's alike: DS and ES the BIOS's own data selector, FS and GS null. Not
 * null in DS, as Linux has it: 86Box (c23ad1b, x86_ops_bit.h) checks DS for a null
 * selector on BT with a register operand, which reads no memory, and so raises #GP in
 * the Intel TC430HX's AMI BIOS (F000:6587h, BT ECX,EAX in its 530Eh range check) on
 * both interfaces, where a real CPU goes on. A BIOS that uses DS or ES without
 * loading them meets its own data, as in real mode it would meet ours; it never
 * reaches the kernel, 64 KiB of BIOS segment below 1 MiB away. */
static void pm16_far_call(struct biosregs *regs)
{
    regs->ds = regs->es = SEL_APM_DATA;
    regs->fs = regs->gs = 0;
    tramp_call(TRAMP_MODE_FARCALL16, SEL_APM_CODE16, pm16_entry, regs);
}

static bool pm32_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    (void)port;
    return masked_call(regs, apm_pm32_far_call, "pm32", why);
}

static bool pm16_call(const struct apm_port *port, struct biosregs *regs, const char **why)
{
    (void)port;
    return masked_call(regs, pm16_far_call, "pm16", why);
}

bool pm32_flat_call(uint32_t entry, struct biosregs *regs, const char **why)
{
    /* The BIOS32 directory and the services it names run with CS and DS based at 0
     * over 4 GiB (the BIOS32 proposal); the APM selectors stand in for ours, so a
     * fault in that code is the firmware's (fwguard.h) and not a halt. The next
     * APM connect sets them afresh. */
    gdt_set(SEL_APM_CODE32, 0, 0xFFFFFFFFu, SEG_CODE32);
    gdt_set(SEL_APM_DATA, 0, 0xFFFFFFFFu, SEG_DATA32);
    apm_pm32_target.offset = entry;
    apm_pm32_target.selector = SEL_APM_CODE32;
    return masked_call(regs, apm_pm32_far_call, "bios32", why);
}

const struct apm_port apm_port_pm32 = {
    .name = "pm32",
    .call = pm32_call,
    .setup = pm32_setup,
};

const struct apm_port apm_port_pm16 = {
    .name = "pm16",
    .call = pm16_call,
    .setup = pm16_setup,
};
