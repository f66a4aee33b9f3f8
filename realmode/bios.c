/* bios_int() and the check that there is a BIOS to call: see bios.h. */
#include "bios.h"
#include "trampoline.h"
#include "v86.h"
#include "../system/bootinfo.h"
#include "../system/console.h"
#include "../lib/format.h"
#include "../system/io.h"
#include "../lib/bda.h"
#include "../lib/pc.h"

static enum bios_path path = BIOS_PATH_TRAMPOLINE;

_Static_assert(BIOS_BUFFER_SIZE <= TRAMP_BUFFER_SIZE, "the BIOS buffer is the trampoline's");
const struct bios_access bios_access = { bios_int, tramp_buffer };

bool bios_init(const struct bootinfo *bi, enum bios_path p, char *why, unsigned why_size)
{
    /* Under UEFI the low megabyte holds no BIOS: a real-mode call would jump into
     * whatever the firmware left there. */
    if (bi->efi_system_table || bi->efi_boot_services) {
        fmt_snprintf(why, why_size, "no APM on UEFI firmware (no legacy BIOS)");
        return false;
    }
    uint32_t int15 = peek32(IVT_ENTRY_ADDR(BIOS_INT_SYSTEM));
    if (int15 == 0) {
        fmt_snprintf(why, why_size, "no legacy BIOS: the INT 15h vector is zero");
        return false;
    }
    /* GRUB trusts any non-zero vector. A BIOS keeps its handler in ROM or in its EBDA
     * (the BDA word at 40Eh gives the EBDA's segment); anything else is RAM, where a
     * memory manager or a TSR may have hooked the vector in front of the BIOS, which
     * still works, or where there is no BIOS at all. Say which. */
    uint32_t target = far_ptr_linear(int15);
    uint32_t ebda = ebda_from_bda((uint16_t)peek32(BDA_EBDA_SEGMENT));
    bool in_rom = target >= OPTION_ROM_START;
    bool in_ebda = ebda && target >= ebda && target < OPTION_ROM_START;
    say("INT 15h vector %04X:%04X (%s)", (unsigned)(int15 >> 16), (unsigned)(int15 & 0xFFFF),
        in_rom ? "in ROM" : in_ebda ? "in the EBDA" : "in RAM");
    if (!in_rom && !in_ebda)
        say("warning: INT 15h points into RAM: a memory manager's hook, or no BIOS; "
            "calling it anyway");

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

void bios_call_limit(unsigned seconds)
{
    v86_watchdog(seconds);
}

bool bios_int(uint8_t vector, const struct biosregs *in, struct biosregs *out,
              const char **why)
{
    return bios_int_via(path, vector, in, out, why);
}

bool bios_int_via(enum bios_path p, uint8_t vector, const struct biosregs *in,
                  struct biosregs *out, const char **why)
{
    uint32_t target = peek32(IVT_ENTRY_ADDR(vector));
    struct biosregs regs = *in;

    if (!tramp_installed()) {
        *why = "the real-mode trampoline is not installed";
        return false;
    }
    if (p == BIOS_PATH_V86) {
        if (v86_int(vector, &regs, why)) {
            *out = regs;
            return true;
        }
        /* One privileged instruction in the BIOS's dispatcher (a MOV from CR0 to see
         * whether it runs in protected mode) fails every call under v86, although
         * real mode runs it: repeat the call through the trampoline. */
        if (!v86_stopped_on_privileged())
            return false;
        if (!v86_is_quiet())
            say("v86: repeating INT %02Xh AX=%04Xh through the real-mode trampoline",
                vector, in->ax);
        regs = *in;
    }
    tramp_call(TRAMP_MODE_INT, (uint16_t)(target >> 16), (uint16_t)target, &regs);
    if (tramp_a20_was_off())
        say("note: INT %02Xh left A20 off; it was turned back on", vector);
    *out = regs;
    return true;
}

void bios_reset_jump(void)
{
    struct biosregs r;

    if (!tramp_installed())
        return;
    initregs(&r);
    /* The trampoline's INT path is a far call with IF clear: F000:FFF0 takes it as
     * the reset it is, and never returns. */
    tramp_call(TRAMP_MODE_INT, BIOS_RESET_SEGMENT, BIOS_RESET_OFFSET, &r);
}
