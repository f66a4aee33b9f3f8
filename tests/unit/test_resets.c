/* action=reboot: reset= read as an ordered list with its documented default; which
 * methods a machine offers and why not (app/reset/offer.c, from the facts the survey
 * reads); and the chain (app/reset/resets.c): each method tried once, in order, a missing
 * one named and skipped, each said before it is made, the PIT's wait after it, and
 * the halt code and reason at the end. The hardware is fakes that record calls. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "log_assert.h"
#include "options_of.h"
#include "../../app/reset/resets.h"
#include "../../system/console.h"

static char calls[256];
static unsigned waited_ms;
static struct chipset_verdict chipset;
static struct acpi_fadt fadt;
static struct reset_facts facts;
static struct reset_offer offer;

static void add_call(const char *what)
{
    strcat(calls, what);
    strcat(calls, " ");
}

/* What the kernel's table (app/reset/ways.c) is given: the offer decided, boot=. */
struct fake_ctx {
    const struct reset_offer *offer;
    bool cold;
};

static const char *fake_missing(void *ctx, unsigned m)
{
    const struct fake_ctx *c = ctx;
    return c->offer->why[m];
}

static void fake_describe(void *ctx, unsigned m, char *buf, unsigned size)
{
    const struct fake_ctx *c = ctx;
    reset_offer_describe(c->offer, (enum reset_method)m, c->cold, buf, size);
}

/* The warm-boot flag and the record first, then the write. */
static void fake_before(void *ctx, unsigned m, unsigned attempt)
{
    char text[32];
    (void)ctx;
    snprintf(text, sizeof(text), "before:%s:%u", reset_method_name(m), attempt);
    add_call(text);
    say("record left: %s", text);
}

static enum way_result fake_make(void *ctx, unsigned m, unsigned attempt, char *why,
                                 unsigned size)
{
    (void)ctx;
    (void)attempt;
    (void)why;
    (void)size;
    add_call(reset_method_name(m));
    return WAY_STILL_ON;
}

static void fake_wait(unsigned ms)
{
    waited_ms += ms;
    add_call("wait");
}

/* A PIIX3 board with an 8042, an ACPI 1.0 FADT, no UEFI, a legacy BIOS: QEMU's pc. */
static int setup(void **state)
{
    (void)state;
    calls[0] = '\0';
    waited_ms = 0;
    log_reset();
    chipset = (struct chipset_verdict){
        .reset_cf9 = FACT_YES, .reset_cf9_by = "PIIX3", .port92 = FACT_YES,
        .port92_by = "PIIX3",
    };
    strcpy(chipset.name, "Intel 440FX (PIIX3)");
    fadt = (struct acpi_fadt){ .length = 116, .revision = 1 };
    facts = (struct reset_facts){
        .kbc = true, .kbc_status = 0x1C, .pci_mech = 1, .chipset = &chipset, .fadt = &fadt,
        .efi_why = "no EFI system table",
    };
    return 0;
}

static int list_of(const char *text)
{
    return options_of("reset", text).resets;
}

#define FAKE_WAY(name) { name, fake_missing, fake_describe, fake_make, HALT_NO_RESET, \
                        HALT_RESET_FAILED }
static const struct way ways[RESET_COUNT] = {
    [RESET_KBD] = FAKE_WAY("kbd"), [RESET_PCI] = FAKE_WAY("pci"),
    [RESET_PORT92] = FAKE_WAY("port92"), [RESET_ACPI] = FAKE_WAY("acpi"),
    [RESET_EFI] = FAKE_WAY("efi"), [RESET_TRIPLE] = FAKE_WAY("triple"),
    [RESET_BIOS] = FAKE_WAY("bios"),
};
static const struct chain_kind kind = RESET_KIND(fake_before, fake_wait);

static struct fake_ctx chain(void)
{
    reset_offer_find(&facts, &offer);
    return (struct fake_ctx){ .offer = &offer };
}

/* action=reboot's run: the chain, then its end. */
static enum halt_code resets_try(struct fake_ctx *c, int list, struct chain_report *rep,
                                 char *why, unsigned size)
{
    chain_run(&kind, ways, list, c, rep);
    return resets_end(ways, rep, why, size);
}

/* --- reset=, boot=, wake= and action=reboot on the command line ------------------- */

static void test_option_default_order(void **state)
{
    struct options o;
    char buf[400];
    (void)state;
    options_defaults(&o);
    static const enum reset_method linux_like[] = {
        RESET_ACPI, RESET_KBD, RESET_EFI, RESET_PCI, RESET_PORT92, RESET_TRIPLE, RESET_NONE,
    };
    for (unsigned i = 0; i < sizeof(linux_like) / sizeof(linux_like[0]); i++)
        assert_int_equal(reset_at(o.resets, i), linux_like[i]);
    assert_int_equal(o.boot, BOOT_WARM);
    assert_int_equal(o.wake, WAKE_KEY);
    options_describe(&o, buf, sizeof(buf));
    assert_non_null(strstr(buf, " reset=acpi,kbd,efi,pci,port92,triple "));
    assert_non_null(strstr(buf, " boot=warm "));
    options_describe_changed(&o, buf, sizeof(buf));
    assert_null(strstr(buf, "reset="));         /* the default is no change */
    assert_int_equal(options_parse(&o, "/k action=reboot reset=bios,kbd boot=cold wake=30"),
                     0);
    assert_int_equal(o.action, ACTION_REBOOT);
    assert_int_equal(reset_at(o.resets, 0), RESET_BIOS);
    assert_int_equal(reset_at(o.resets, 1), RESET_KBD);
    assert_int_equal(reset_at(o.resets, 2), RESET_NONE);
    assert_int_equal(o.boot, BOOT_COLD);
    assert_int_equal(o.wake, 30);
    options_describe_changed(&o, buf, sizeof(buf));
    assert_non_null(strstr(buf, "reset=bios,kbd"));
}

/* All seven at once, each once; a repeat, an unknown name, an empty item refused. */
static void test_option_errors(void **state)
{
    struct options o;
    (void)state;
    assert_int_equal(reset_at(list_of("kbd,pci,port92,acpi,efi,triple,bios"), 6), RESET_BIOS);
    options_defaults(&o);
    assert_int_equal(options_parse(&o, "/k reset=kbd,kbd"), 1);
    assert_log_has("error: reset= names kbd twice");
    assert_int_equal(options_parse(&o, "/k reset=cf9"), 1);
    /* The names, and the default order apart: the table's order is no order of trial. */
    assert_log_has("error: reset=cf9 is not valid: the names are kbd, pci, port92, acpi, "
                   "efi, triple, bios, given comma-separated in the order to try them (the "
                   "default: reset=acpi,kbd,efi,pci,port92,triple)");
    assert_int_equal(options_parse(&o, "/k reset=kbd,"), 1);
    assert_int_equal(options_parse(&o, "/k boot=lukewarm"), 1);
    assert_log_has("error: boot=lukewarm is not valid (choices: warm, cold)");
    assert_int_equal(options_parse(&o, "/k wake=86400"), 1);
    assert_log_has("choices: key, or 0-86399");
    assert_int_equal(options_parse(&o, "/k reset=kbd reset=pci"), 1);
    assert_log_has("error: reset= is given twice with different values");
}

/* --- what a machine offers -------------------------------------------------------- */

static void test_offer_qemu_pc(void **state)
{
    (void)state;
    reset_offer_find(&facts, &offer);
    assert_true(reset_offered(&offer, RESET_KBD));
    assert_true(reset_offered(&offer, RESET_PCI));
    assert_true(reset_offered(&offer, RESET_PORT92));
    assert_true(reset_offered(&offer, RESET_TRIPLE));
    assert_true(reset_offered(&offer, RESET_BIOS));
    assert_string_equal(offer.why[RESET_ACPI], "no ACPI reset register: FADT revision 1");
    assert_string_equal(offer.why[RESET_EFI], "no UEFI ResetSystem: no EFI system table");
}

static void test_offer_reasons(void **state)
{
    (void)state;
    facts.kbc = false;
    facts.kbc_status = 0xFF;
    facts.isa = true;
    facts.chipset = NULL;
    fadt.length = 0;
    facts.no_fadt = "no RSDP";
    facts.bios_why = "no BIOS calls here";
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_KBD], "no 8042: its status port 64h reads FFh");
    assert_string_equal(offer.why[RESET_PCI], "ISA machine: no reset control register at "
                        "CF9h known here");
    assert_string_equal(offer.why[RESET_PORT92], "ISA machine: port 92h is not known here "
                        "(on some old boards 92h is another device)");
    assert_string_equal(offer.why[RESET_ACPI], "no ACPI reset register: no RSDP");
    assert_string_equal(offer.why[RESET_BIOS], "no BIOS reset entry: no BIOS calls here");
    assert_true(reset_offered(&offer, RESET_TRIPLE));   /* every PC */

    /* A chipset the table knows without the register, and one it does not know. */
    setup(state);
    chipset.reset_cf9 = FACT_NO;
    chipset.reset_cf9_by = "SIO";
    chipset.port92 = FACT_UNKNOWN;
    strcpy(chipset.name, "SiS 496/497");
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_PCI], "the SIO has no reset control register at "
                        "CF9h");
    assert_string_equal(offer.why[RESET_PORT92], "SiS 496/497: not known to have port 92h");
    chipset.reset_cf9 = FACT_UNKNOWN;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_PCI], "SiS 496/497: not known to have a reset "
                        "control register at CF9h");
}

/* The FADT's RESET_REG as Linux's acpi_reboot() takes it: revision 2 and on, the flag,
 * an address, and a space apmoff reaches. */
static void test_offer_fadt(void **state)
{
    (void)state;
    fadt = (struct acpi_fadt){ .length = 244, .revision = 3, .have_flags = true,
                               .have_reset = true, .flags = ACPI_FADT_RESET_REG_SUP,
                               .reset_value = 0x0F,
                               .reset_reg = { .space = ACPI_SPACE_IO, .bit_width = 8,
                                              .addr = 0xCF9 } };
    reset_offer_find(&facts, &offer);
    assert_true(reset_offered(&offer, RESET_ACPI));
    char text[96];
    reset_offer_describe(&offer, RESET_ACPI, false, text, sizeof(text));
    assert_string_equal(text, "FADT RESET_REG: 0Fh to I/O port CF9h");
    reset_offer_acpi_text(&offer, text, sizeof(text));
    assert_string_equal(text, "io:0CF9=0F");

    fadt.flags = 0;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "no ACPI reset register: the FADT's "
                        "RESET_REG_SUP flag is clear");
    fadt.flags = ACPI_FADT_RESET_REG_SUP;
    fadt.have_reset = false;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "no ACPI reset register: the FADT ends "
                        "before RESET_REG");
    fadt.have_reset = true;
    fadt.reset_reg.addr = 0;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "no ACPI reset register: RESET_REG's "
                        "address is 0");

    /* PCI configuration space: bus 0, device 1Fh, function 0, register 44h. */
    fadt.reset_reg = (struct acpi_gas){ .space = ACPI_SPACE_PCI_CONFIG,
                                        .addr = 0x1Full << 32 | 0x0044 };
    reset_offer_find(&facts, &offer);
    assert_true(reset_offered(&offer, RESET_ACPI));
    reset_offer_describe(&offer, RESET_ACPI, false, text, sizeof(text));
    assert_string_equal(text, "FADT RESET_REG: 0Fh to PCI 00:1F.0 register 44h");
    reset_offer_acpi_text(&offer, text, sizeof(text));
    assert_string_equal(text, "pci:00:1F.0:44=0F");
    facts.isa = true;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "the ACPI reset register is in PCI "
                        "configuration space, and no PCI mechanism answers");
    facts.isa = false;
    fadt.reset_reg.addr = 0x20ull << 32;                /* device 32: none */
    reset_offer_find(&facts, &offer);
    assert_non_null(strstr(offer.why[RESET_ACPI], "names no function of bus 0"));

    fadt.reset_reg = (struct acpi_gas){ .space = ACPI_SPACE_MEMORY, .addr = 0xFED80004 };
    reset_offer_find(&facts, &offer);
    reset_offer_acpi_text(&offer, text, sizeof(text));
    assert_string_equal(text, "mem:FED80004=0F");
    fadt.reset_reg.addr = 0x100000000ull;
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "the ACPI reset register lies above 4 GiB");
    fadt.reset_reg = (struct acpi_gas){ .space = 0x7F, .addr = 0x10 };   /* functional */
    reset_offer_find(&facts, &offer);
    assert_string_equal(offer.why[RESET_ACPI], "the ACPI reset register is in address "
                        "space 127, which apmoff does not write");
}

/* --- the chain -------------------------------------------------------------------- */

/* The default order on QEMU's pc: acpi skipped with its reason, kbd announced and made,
 * the wait, "still running", then efi skipped, pci, port92, triple, each in turn. */
static void test_chain_in_order(void **state)
{
    struct chain_report rep;
    char why[200];
    struct options o;
    (void)state;
    options_defaults(&o);
    struct fake_ctx c = chain();
    assert_int_equal(resets_try(&c, o.resets, &rep, why, sizeof(why)), HALT_RESET_FAILED);
    assert_string_equal(calls, "before:kbd:1 kbd wait before:pci:2 pci wait before:port92:3 "
                        "port92 wait before:triple:4 triple wait ");
    assert_int_equal(waited_ms, 4 * RESET_GRACE_MS);
    assert_int_equal(rep.count, 6);
    assert_int_equal(rep.tries[0].way, RESET_ACPI);
    assert_int_equal(rep.tries[0].outcome, CHAIN_SKIPPED);
    assert_int_equal(rep.tries[1].outcome, CHAIN_STILL_ON);
    assert_log_has("reset: acpi skipped: no ACPI reset register: FADT revision 1");
    assert_log_order("reset: acpi skipped", "resetting via kbd (8042 command FEh)");
    /* The record is left before the line that says the reset comes: a reset that
     * works cuts the serial line, and what was said last must be the announcement. */
    assert_log_order("record left: before:kbd:1", "resetting via kbd (8042 command FEh)");
    assert_log_order("resetting via kbd (8042 command FEh)",
                     "reset via kbd: still running after 1000 ms");
    assert_log_order("reset via kbd: still running", "resetting via pci (reset control "
                     "register CF9h: 02h, then 06h)");
    assert_string_equal(why, "reset failed: still running after kbd, pci, port92, triple "
                        "(2 skipped)");
}

/* Only what was named, in the named order; never one the user did not name. */
static void test_chain_named_only(void **state)
{
    struct chain_report rep;
    char why[200];
    (void)state;
    struct fake_ctx c = chain();
    resets_try(&c, list_of("port92,kbd"), &rep, why, sizeof(why));
    assert_string_equal(calls, "before:port92:1 port92 wait before:kbd:2 kbd wait ");
    assert_string_equal(why, "reset failed: still running after port92, kbd");
    assert_log_lacks("acpi");
}

/* Every one absent: nothing written, no wait, the reasons in the halted line. */
static void test_chain_none_here(void **state)
{
    struct chain_report rep;
    char why[200], line[200];
    (void)state;
    struct fake_ctx c = chain();
    assert_int_equal(resets_try(&c, list_of("acpi,efi"), &rep, why, sizeof(why)),
                     HALT_NO_RESET);
    assert_string_equal(calls, "");
    assert_int_equal(waited_ms, 0);
    assert_string_equal(why, "no reset method of the list is here: acpi: no ACPI reset "
                        "register: FADT revision 1; efi: no UEFI ResetSystem: no EFI system "
                        "table");
    resets_outcome_text(ways, &c, &rep.tries[0], line, sizeof(line));
    assert_string_equal(line, "skipped: no ACPI reset register: FADT revision 1");
}

/* A panel line for a method that was made: the outcome and what was written. */
static void test_outcome_text(void **state)
{
    struct chain_report rep;
    char why[200], line[200];
    (void)state;
    struct fake_ctx c = chain();
    c.cold = true;
    resets_try(&c, list_of("efi,kbd"), &rep, why, sizeof(why));
    resets_outcome_text(ways, &c, &rep.tries[1], line, sizeof(line));
    assert_string_equal(line, "still running after 1000 ms (8042 command FEh)");
    struct chain_try unreached = { .way = RESET_BIOS, .outcome = CHAIN_NOT_REACHED };
    resets_outcome_text(ways, &c, &unreached, line, sizeof(line));
    assert_string_equal(line, "not reached");
    reset_offer_describe(&offer, RESET_EFI, true, line, sizeof(line));
    assert_string_equal(line, "UEFI ResetSystem, EfiResetCold");
    reset_offer_describe(&offer, RESET_EFI, false, line, sizeof(line));
    assert_string_equal(line, "UEFI ResetSystem, EfiResetWarm");
}

/* The reason is cut to its buffer, never overrun. */
static void test_chain_reason_cut(void **state)
{
    struct chain_report rep;
    char why[24];
    (void)state;
    struct fake_ctx c = chain();
    resets_try(&c, list_of("kbd,pci,port92,triple,bios"), &rep, why, sizeof(why));
    assert_int_equal(strlen(why), sizeof(why) - 1);
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_option_default_order),
        T(test_option_errors),
        T(test_offer_qemu_pc),
        T(test_offer_reasons),
        T(test_offer_fadt),
        T(test_chain_in_order),
        T(test_chain_named_only),
        T(test_chain_none_here),
        T(test_outcome_text),
        T(test_chain_reason_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
