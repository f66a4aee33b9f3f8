/* bios_int() and the check that there is a BIOS to call: see bios.h. */
#include "bios.h"
#include "trampoline.h"
#include "v86.h"
#include "../kernel/bootinfo.h"
#include "../kernel/console.h"
#include "../kernel/format.h"
#include "../kernel/io.h"

#define IVT_ENTRY(v)    peek32((v) * 4u)
#define BIOS_ROM_START  0xC0000u        /* option ROMs and the system BIOS */
#define EBDA_START      0x80000u        /* the lowest an EBDA may start */

static enum bios_path path = BIOS_PATH_TRAMPOLINE;

static uint32_t linear(uint32_t segoff)
{
    return (segoff >> 16) * 16 + (segoff & 0xFFFF);
}

bool bios_init(const struct bootinfo *bi, enum bios_path p, char *why, unsigned why_size)
{
    /* Under UEFI the low megabyte holds no BIOS: a real-mode call would jump into
     * whatever the firmware left there. */
    if (bi->efi_system_table || bi->efi_boot_services) {
        fmt_snprintf(why, why_size, "no APM on UEFI firmware (no legacy BIOS)");
        return false;
    }
    uint32_t int15 = IVT_ENTRY(0x15);
    if (int15 == 0) {
        fmt_snprintf(why, why_size, "no legacy BIOS: the INT 15h vector is zero");
        return false;
    }
    /* GRUB trusts any non-zero vector; we also expect it in ROM or in the EBDA, where
     * a BIOS (or a memory manager on a BIOS) keeps it, and say so otherwise. */
    if (linear(int15) < EBDA_START)
        say("warning: INT 15h points to %04X:%04X, below the EBDA and ROM; calling it "
            "anyway", (unsigned)(int15 >> 16), (unsigned)(int15 & 0xFFFF));
    else
        say("INT 15h vector %04X:%04X", (unsigned)(int15 >> 16), (unsigned)(int15 & 0xFFFF));

    if (!tramp_install(bi)) {
        fmt_snprintf(why, why_size, "no room below 1 MiB for the real-mode trampoline");
        return false;
    }
    path = p;
    if (path == BIOS_PATH_V86)
        v86_init();
    return true;
}

enum bios_path bios_path(void)
{
    return path;
}

bool bios_int(uint8_t vector, const struct biosregs *in, struct biosregs *out,
              const char **why)
{
    return bios_int_via(path, vector, in, out, why);
}

bool bios_int_via(enum bios_path p, uint8_t vector, const struct biosregs *in,
                  struct biosregs *out, const char **why)
{
    uint32_t target = IVT_ENTRY(vector);
    struct biosregs regs = *in;

    if (!tramp_installed()) {
        *why = "the real-mode trampoline is not installed";
        return false;
    }
    if (p == BIOS_PATH_V86) {
        if (!v86_int(vector, &regs, why))
            return false;
        *out = regs;
        return true;
    }
    tramp_call(TRAMP_MODE_INT, (uint16_t)(target >> 16), (uint16_t)target, &regs);
    if (tramp_a20_was_off())
        say("note: INT %02Xh left A20 off; it was turned back on", vector);
    *out = regs;
    return true;
}
