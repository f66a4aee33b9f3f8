/* method=efi: power off through the UEFI runtime service ResetSystem(EfiResetShutdown),
 * found through the EFI system table GRUB's multiboot 2 hands over (survey/efi.h), and
 * called by system/efi_rt.h (a 32-bit call on ia32 firmware, a thunk into long mode on
 * x64). */
#ifndef APMOFF_METHOD_EFI_H
#define APMOFF_METHOD_EFI_H

#include <stdbool.h>

#include "../common/chain.h"
#include "../../survey/efi.h"

/* What method=efi is given (app/power/methods.c), once efi_unusable() (survey/efi.h)
 * has found ResetSystem callable. */
struct efi_off {
    const struct efi_info *efi;
    bool sse;                   /* the CPU has SSE (for MXCSR) */
    int inject;                 /* INJECT_EFI_FAULT, INJECT_EFI_NMI (app/common/options.h) */
    /* Just before the first write or call: the time from entry, the record for
     * the next run (given ctx and the method's name) */
    void (*announce)(void *ctx, const char *method);
    void *ctx;
};

/* Returns WAY_STILL_ON after the firmware returned and a grace wait. A CPU exception
 * inside x64 firmware halts with its register dump, as one in apmoff would.
 *
 * inject= replaces ResetSystem with a stand-in of efi_call64.asm's, to prove the
 * thunk's 64-bit IDT where no firmware misbehaves: efi-fault runs UD2 (an exception
 * in the call), efi-nmi waits up to about ten seconds for an NMI and returns. */
enum way_result efi_power_off(const struct efi_off *c, char *why, unsigned size);

#endif
