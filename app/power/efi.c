/* method=efi: see efi.h. */
#include "efi.h"
#include "../../system/console.h"
#include "../../system/efi_rt.h"
#include "../../system/halt.h"
#include "../../system/timer.h"
#include "../common/options.h"
#include "../../lib/format.h"

#define EFI_OFF_GRACE_MS 3000       /* as APM's and ACPI's */

/* efi_call64.asm's stand-ins for ResetSystem, for inject= (see method_efi.h). */
extern const char efi_standin_ud2[], efi_standin_nmi[];

enum way_result efi_power_off(const struct efi_off *c, char *why, unsigned size)
{
    const struct efi_info *efi = c->efi;
    struct efi_fault fault;
    uint32_t fn = (uint32_t)efi->reset_system;
    const char *standin = 0;

    if (c->inject & INJECT_EFI_FAULT) {
        fn = (uint32_t)(uintptr_t)efi_standin_ud2;
        standin = "UD2 (inject=efi-fault)";
    } else if ((c->inject & INJECT_EFI_NMI) && !efi->efi64) {
        say("efi: inject=efi-nmi is for x64 firmware (the long-mode IDT); ignored on ia32");
    } else if (c->inject & INJECT_EFI_NMI) {
        fn = (uint32_t)(uintptr_t)efi_standin_nmi;
        standin = "a wait for an NMI (inject=efi-nmi)";
    }
    if (c->announce)
        c->announce(c->ctx, "efi");
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via efi (ResetSystem at %08Xh, EfiResetShutdown, %s)",
        (unsigned)efi->reset_system,
        efi->efi64 ? "x64: through the long-mode thunk" : "ia32: a 32-bit call");
    if (standin)
        say("efi: calling, in ResetSystem's place, %s at %08Xh", standin, (unsigned)fn);
    uint32_t status = efi_reset_system(fn, efi->efi64, EFI_RESET_SHUTDOWN, c->sse, &fault);
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
    return WAY_STILL_ON;
}
