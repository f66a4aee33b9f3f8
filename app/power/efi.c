/* method=efi: see method_efi.h. */
#include "method_efi.h"
#include "../system/console.h"
#include "../system/efi_rt.h"
#include "../system/exceptions.h"
#include "../system/halt.h"
#include "../system/timer.h"
#include "options.h"
#include "../lib/format.h"

#define EFI_OFF_GRACE_MS 3000       /* as APM's and ACPI's */
#define FOUR_GIB 0x100000000ull

const char *efi_unusable(const struct efi_info *efi, bool have_system_table)
{
    if (!have_system_table)
        return "no EFI system table (not booted by GRUB's multiboot 2 on UEFI)";
    if (!efi->valid)
        return "the EFI system table's signature is wrong";
    if (!efi->runtime_ok)
        return "no runtime services table (RUNTSERV)";
    if (!efi->reset_system)
        return "the runtime services table has no ResetSystem";
    if (efi->reset_system >= FOUR_GIB)
        return "ResetSystem lies above 4 GiB, outside the thunk's identity map";
    if (efi->reset_place == EFI_PLACE_NOT_RUNTIME)
        return "ResetSystem lies in no runtime region of the EFI memory map (memory the "
               "firmware gave up when boot services ended)";
    return 0;
}

/* "00000000 7FEC1234": a 64-bit register, in two halves for the eye. */
#define HI(v) (unsigned)((v) >> 32)
#define LO(v) (unsigned)(v)

void efi_fault_halt(const struct efi_fault *f)
{
    char reason[96];

    say("efi: CPU exception %u (%s) in the firmware's ResetSystem, error code %08Xh",
        (unsigned)f->vector, exception_name((uint32_t)f->vector), LO(f->error));
    say("  RIP=%08X %08X CS=%04X RFLAGS=%08X", HI(f->rip), LO(f->rip), LO(f->cs) & 0xFFFF,
        LO(f->rflags));
    say("  RAX=%08X %08X RBX=%08X %08X RCX=%08X %08X", HI(f->rax), LO(f->rax), HI(f->rbx),
        LO(f->rbx), HI(f->rcx), LO(f->rcx));
    say("  RDX=%08X %08X RSI=%08X %08X RDI=%08X %08X", HI(f->rdx), LO(f->rdx), HI(f->rsi),
        LO(f->rsi), HI(f->rdi), LO(f->rdi));
    say("  RBP=%08X %08X RSP=%08X %08X CR2=%08X %08X", HI(f->rbp), LO(f->rbp), HI(f->rsp),
        LO(f->rsp), HI(f->cr2), LO(f->cr2));
    say("  R8 =%08X %08X R9 =%08X %08X R10=%08X %08X R11=%08X %08X", HI(f->r8), LO(f->r8),
        HI(f->r9), LO(f->r9), HI(f->r10), LO(f->r10), HI(f->r11), LO(f->r11));
    say("  R12=%08X %08X R13=%08X %08X R14=%08X %08X R15=%08X %08X", HI(f->r12),
        LO(f->r12), HI(f->r13), LO(f->r13), HI(f->r14), LO(f->r14), HI(f->r15), LO(f->r15));
    fmt_snprintf(reason, sizeof(reason), "CPU exception %u (%s) in UEFI ResetSystem at "
                 "RIP %08X%08Xh", (unsigned)f->vector, exception_name((uint32_t)f->vector),
                 HI(f->rip), LO(f->rip));
    halt(HALT_EXCEPTION, reason);
}

/* efi_call64.asm's stand-ins for ResetSystem, for inject= (see method_efi.h). */
extern const char efi_standin_ud2[], efi_standin_nmi[];

enum method_result efi_power_off(const struct efi_off *c, char *why, unsigned size)
{
    const struct efi_info *efi = c->efi;
    struct efi_fault fault;
    uint32_t fn = (uint32_t)efi->reset_system;
    const char *standin = 0;

    const char *reason = efi_unusable(efi, c->have_system_table);
    if (reason) {
        fmt_snprintf(why, size, "no UEFI ResetSystem: %s", reason);
        say("efi: %s", why);
        return METHOD_ABSENT;
    }
    if (c->inject & INJECT_EFI_FAULT) {
        fn = (uint32_t)(uintptr_t)efi_standin_ud2;
        standin = "UD2 (inject=efi-fault)";
    } else if ((c->inject & INJECT_EFI_NMI) && !c->efi64) {
        say("efi: inject=efi-nmi is for x64 firmware (the long-mode IDT); ignored on ia32");
    } else if (c->inject & INJECT_EFI_NMI) {
        fn = (uint32_t)(uintptr_t)efi_standin_nmi;
        standin = "a wait for an NMI (inject=efi-nmi)";
    }
    if (c->announce)
        c->announce();
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via efi (ResetSystem at %08Xh, EfiResetShutdown, %s)",
        (unsigned)efi->reset_system,
        c->efi64 ? "x64: through the long-mode thunk" : "ia32: a 32-bit call");
    if (standin)
        say("efi: calling, in ResetSystem's place, %s at %08Xh", standin, (unsigned)fn);
    uint32_t status = efi_reset_system(fn, c->efi64, EFI_RESET_SHUTDOWN, c->sse, &fault);
    if (fault.vector != EFI_NO_FAULT)
        efi_fault_halt(&fault);
    if (fault.nmis)
        say("efi: %u NMI%s arrived during the call; the firmware went on",
            (unsigned)fault.nmis, fault.nmis == 1 ? "" : "s");
    say("efi: ResetSystem returned, status %08Xh; waiting %u s", (unsigned)status,
        EFI_OFF_GRACE_MS / 1000);
    pit_delay_us(EFI_OFF_GRACE_MS * 1000u);
    fmt_snprintf(why, size, "ResetSystem(EfiResetShutdown) returned (status %08Xh) and "
                 "the machine is still on", (unsigned)status);
    say("power-off via efi failed: %s", why);
    return METHOD_STILL_ON;
}
