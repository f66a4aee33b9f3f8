/* The kernel's reset methods: see reset_ways.h. */
#include "reset_ways.h"
#include "lastrun.h"
#include "method_efi.h"
#include "../system/acpi_pm.h"
#include "../system/console.h"
#include "../system/efi_rt.h"
#include "../system/halt.h"
#include "../system/reset.h"
#include "../system/timer.h"
#include "../realmode/bios.h"
#include "../lib/bda.h"

static const struct reset_context *ctx;

static void before(enum reset_method m, unsigned attempt)
{
    if (ctx->legacy_bios)
        reset_flag_set(ctx->cold ? BDA_RESET_COLD : BDA_RESET_WARM);
    lastrun_leave(LASTRUN_RESET, reset_method_name(m), attempt,
                  ctx->legacy_bios ? reset_flag_get() : 0);
}

static void efi_reset(void)
{
    struct efi_fault fault;
    uint32_t status = efi_reset_system((uint32_t)ctx->efi->reset_system, ctx->efi64,
                                       ctx->cold ? EFI_RESET_COLD : EFI_RESET_WARM, ctx->sse,
                                       &fault);
    if (fault.vector != EFI_NO_FAULT)
        efi_fault_halt(&fault);
    say("efi: ResetSystem returned, status %08Xh", (unsigned)status);
}

static void attempt(enum reset_method m)
{
    const struct reset_offer *o = ctx->offer;

    switch (m) {
    case RESET_KBD:
        if (!kbc_pulse_reset())
            say("reset: the 8042's input buffer stayed full for %u ms; FEh written anyway",
                KBC_WAIT_MS);
        break;
    case RESET_PCI:
        reset_control_write();
        break;
    case RESET_PORT92:
        port_a_fast_reset();
        break;
    case RESET_ACPI:
        if (!acpi_pm_reset(o->acpi_space, o->acpi_addr, o->acpi_value, o->pci_mech))
            say("reset: the ACPI reset register could not be written");
        break;
    case RESET_EFI:
        efi_reset();
        break;
    case RESET_TRIPLE:
        triple_fault();
    case RESET_BIOS:
        bios_reset_jump();
        say("reset: the real-mode trampoline is not there to jump from");
        break;
    default:
        break;
    }
}

static void wait_ms(unsigned ms)
{
    pit_delay_us(ms * 1000u);
}

void reset_ways_chain(const struct reset_context *c, struct reset_chain *out)
{
    ctx = c;
    *out = (struct reset_chain){
        .offer = c->offer, .cold = c->cold, .before = before, .attempt = attempt,
        .wait_ms = wait_ms,
    };
}
