/* method=efi: power off through the UEFI runtime service ResetSystem(EfiResetShutdown),
 * found through the EFI system table GRUB's multiboot 2 hands over (survey/efi.h), and
 * called by system/efi_rt.h (a 32-bit call on ia32 firmware, a thunk into long mode on
 * x64). */
#ifndef APMOFF_METHOD_EFI_H
#define APMOFF_METHOD_EFI_H

#include <stdbool.h>

#include "methods.h"
#include "../survey/efi.h"

/* Why method=efi cannot be tried here, or NULL (also for action=check). */
const char *efi_unusable(const struct efi_info *efi, bool have_system_table, bool efi64);

/* announce() runs just before the call. Returns METHOD_ABSENT without a call when
 * efi_unusable() says so, else METHOD_STILL_ON after the firmware returned or a grace
 * wait. */
enum method_result efi_power_off(const struct efi_info *efi, bool have_system_table,
                                 bool efi64, void (*announce)(void), char *why,
                                 unsigned size);

#endif
