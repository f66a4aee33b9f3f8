/* The kernel's reset methods: see ways.h. */
#include "ways.h"
#include "../common/record.h"
#include "../../system/acpi_pm.h"
#include "../../system/console.h"
#include "../../system/efi_rt.h"
#include "../../system/halt.h"
#include "../../system/reset.h"
#include "../../system/timer.h"
#include "../../realmode/bios.h"
#include "../../lib/bda.h"

/* The facts each method's offer rests on (the 8042's status port is read each time). */
static const unsigned needs[RESET_COUNT] = {
    [RESET_PCI] = FACTS_PCI, [RESET_PORT92] = FACTS_PCI,
    [RESET_ACPI] = FACTS_ACPI | FACTS_PCI, [RESET_EFI] = FACTS_EFI,
};

/* The offer from what is known now: a method's own answer is right once its needs
 * are read (the facts only grow, so an answer never changes after). */
static void decide(struct reset_context *c, unsigned facts)
{
    struct survey *sv = c->sv;

    facts_need(sv, facts);
    struct reset_facts f = {
        .isa = sv->pci.mech == PCI_MECH_NONE, .pci_mech = sv->pci.mech,
        .chipset = &sv->chipset, .fadt = &sv->s5.tables.fadt,
        .no_fadt = acpi_s5_reason_text((enum acpi_s5_reason)sv->s5.reason),
        .efi_why = sv->efi_why,
        .bios_why = sv->bios_calls ? 0 : sv->firmware_reason ? sv->firmware_reason
                                                             : "no BIOS calls here",
    };
    f.kbc = kbc_present(&f.kbc_status);
    reset_offer_find(&f, &c->offer);
}

static const char *missing(void *ctx, unsigned m)
{
    struct reset_context *c = ctx;
    decide(c, needs[m]);
    return c->offer.why[m];
}

static void describe(void *ctx, unsigned m, char *buf, unsigned size)
{
    struct reset_context *c = ctx;
    reset_offer_describe(&c->offer, (enum reset_method)m, c->cold, buf, size);
}

static void efi_reset(const struct reset_context *c)
{
    const struct efi_info *efi = &c->sv->efi;
    struct efi_fault fault;
    uint32_t status = efi_reset_system((uint32_t)efi->reset_system, efi->efi64,
                                       c->cold ? EFI_RESET_COLD : EFI_RESET_WARM, c->sse,
                                       &fault);
    if (fault.vector != EFI_NO_FAULT)
        efi_fault_halt(&fault);
    say("efi: ResetSystem returned, status %08Xh", (unsigned)status);
}

/* The warm-boot flag for the BIOS's POST, and the record for the next boot. */
static void before(void *ctx, unsigned m, unsigned attempt)
{
    const struct reset_context *c = ctx;

    if (c->legacy_bios)
        reset_flag_set(c->cold ? BDA_RESET_COLD : BDA_RESET_WARM);
    record_leave(RECORD_RESET, reset_method_name((enum reset_method)m), attempt,
                 c->legacy_bios ? reset_flag_get() : 0);
}

static enum way_result make(void *ctx, unsigned m, unsigned attempt, char *why,
                            unsigned size)
{
    const struct reset_context *c = ctx;
    const struct reset_offer *o = &c->offer;

    (void)attempt;
    (void)why;
    (void)size;
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
        efi_reset(c);
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
    return WAY_STILL_ON;
}

#define RESET_WAY(name) { name, missing, describe, make, HALT_NO_RESET, HALT_RESET_FAILED }

const struct way reset_ways[RESET_COUNT] = {
    [RESET_KBD] = RESET_WAY("kbd"),
    [RESET_PCI] = RESET_WAY("pci"),
    [RESET_PORT92] = RESET_WAY("port92"),
    [RESET_ACPI] = RESET_WAY("acpi"),
    [RESET_EFI] = RESET_WAY("efi"),
    [RESET_TRIPLE] = RESET_WAY("triple"),
    [RESET_BIOS] = RESET_WAY("bios"),
};

static void wait_ms(unsigned ms)
{
    pit_delay_us(ms * 1000u);
}

const struct chain_kind reset_kind = RESET_KIND(before, wait_ms);

const struct reset_offer *reset_offer_all(struct reset_context *c)
{
    decide(c, FACTS_ACPI | FACTS_PCI | FACTS_EFI);
    return &c->offer;
}

void reset_say_offer(struct reset_context *c)
{
    const struct reset_offer *o = reset_offer_all(c);
    char here[96];

    reset_offer_list(o, ", ", here, sizeof(here));
    say("reset: here: %s (8042 status %02Xh)", here, o->kbc_status);
    for (int m = RESET_NONE + 1; m < RESET_COUNT; m++)
        if (!reset_offered(o, (enum reset_method)m))
            say("reset: %s is not: %s", reset_method_name((enum reset_method)m), o->why[m]);
}
