/* method=efi: see method_efi.h. */
#include "method_efi.h"
#include "../system/console.h"
#include "../system/efi_rt.h"
#include "../system/timer.h"
#include "../lib/format.h"

#define EFI_OFF_GRACE_MS 3000       /* as APM's and ACPI's */
#define FOUR_GIB 0x100000000ull

const char *efi_unusable(const struct efi_info *efi, bool have_system_table, bool efi64)
{
    if (!have_system_table)
        return "no EFI system table (not booted by GRUB's multiboot 2 on UEFI)";
    if (!efi->valid)
        return "the EFI system table's signature is wrong";
    if (!efi->runtime_ok)
        return "no runtime services table (RUNTSERV)";
    if (!efi->reset_system)
        return "the runtime services table has no ResetSystem";
    if (efi64 && efi->reset_system >= FOUR_GIB)
        return "ResetSystem lies above 4 GiB, outside the thunk's identity map";
    return 0;
}

enum method_result efi_power_off(const struct efi_info *efi, bool have_system_table,
                                 bool efi64, void (*announce)(void), char *why,
                                 unsigned size)
{
    const char *reason = efi_unusable(efi, have_system_table, efi64);
    if (reason) {
        fmt_snprintf(why, size, "no UEFI ResetSystem: %s", reason);
        say("efi: %s", why);
        return METHOD_ABSENT;
    }
    if (announce)
        announce();
    say("note: no disk was flushed or spun down first; apmoff writes to no disk");
    say("powering off via efi (ResetSystem at %08Xh, EfiResetShutdown, %s)",
        (unsigned)efi->reset_system,
        efi64 ? "x64: through the long-mode thunk" : "ia32: a 32-bit call");
    uint32_t status = efi_reset_system((uint32_t)efi->reset_system, efi64,
                                       EFI_RESET_SHUTDOWN);
    say("efi: ResetSystem returned, status %08Xh; waiting %u s", (unsigned)status,
        EFI_OFF_GRACE_MS / 1000);
    pit_delay_us(EFI_OFF_GRACE_MS * 1000u);
    fmt_snprintf(why, size, "ResetSystem(EfiResetShutdown) returned (status %08Xh) and "
                 "the machine is still on", (unsigned)status);
    say("power-off via efi failed: %s", why);
    return METHOD_STILL_ON;
}
