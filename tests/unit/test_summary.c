/* app/show/summary.c: the panel a person reads at the end of a run, built from filled
 * states. Every line fits the screen, the identity and every interface's outcome are
 * there, failed checks are named, and each ending has its advice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../app/show/summary.h"
#include "../../apm/apm_spec.h"

static struct survey sv;
static struct apm_state apm;
static struct check_report rep;
static char lines[SUMMARY_LINES][SUMMARY_COLS + 1];
static unsigned count;

/* COM1 as system/serial.c found it: the 386's 8250 at 3F8h unless a test moves it. */
static const char *uart_kind = "8250";
static unsigned uart_base = 0x3F8;

static int setup(void **state)
{
    (void)state;
    memset(&sv, 0, sizeof(sv));
    memset(&apm, 0, sizeof(apm));
    memset(&rep, 0, sizeof(rep));
    uart_kind = "8250";
    uart_base = 0x3F8;
    sv.firmware = "bios";
    sv.cpu.class = "486";
    sv.cpu.fpu = true;
    strcpy(sv.bios_date, "06/25/96");
    sv.model_byte = 0xFC;
    sv.have_int12 = true;
    sv.int12_kb = 640;
    sv.map_available_kb = 640 + 15360;
    return 0;
}

static void build(enum halt_code code, const char *reason, bool with_checks)
{
    struct summary_input in = {
        .version = "0.1", .sv = &sv, .apm = &apm, .checks = with_checks ? &rep : NULL,
        .serial_kind = uart_kind, .serial_base = uart_base, .label = "bench 3",
        .code = code, .reason = reason };
    count = summary_lines(&in, lines, SUMMARY_LINES);
    for (unsigned i = 0; i < count; i++)
        assert_true(strlen(lines[i]) <= SUMMARY_COLS);
}

/* The line starting with label (" rm      : "...), joined with its continuations. */
static const char *field(const char *label)
{
    static char joined[1024];
    joined[0] = '\0';
    for (unsigned i = 0; i < count; i++) {
        char head[16];
        snprintf(head, sizeof(head), " %-8s: ", label);
        if (strncmp(lines[i], head, strlen(head)))
            continue;
        strcat(joined, lines[i] + strlen(head));
        for (unsigned j = i + 1; j < count && !strncmp(lines[j], "           ", 11); j++) {
            strcat(joined, " ");
            strcat(joined, lines[j] + 11);
        }
        return joined;
    }
    return NULL;
}

static void assert_field(const char *label, const char *want)
{
    const char *got = field(label);
    if (!got || strcmp(got, want)) {
        for (unsigned i = 0; i < count; i++)
            fprintf(stderr, "%s\n", lines[i]);
        fail_msg("%s is \"%s\", want \"%s\"", label, got ? got : "(absent)", want);
    }
}

static void test_failed_power_off(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    apm.version = APM_V1_1;
    apm.flags = APM_FLAG_PM16 | APM_FLAG_PM32;
    apm.ifaces[APM_IFACE_RM] = (struct apm_iface_result){
        .tried = true, .connected = true, .conn_version = APM_V1_1, .off_tried = true };
    strcpy(apm.ifaces[APM_IFACE_RM].off_result, "5307h error 60h: unable to enter "
           "requested state");
    apm.ifaces[APM_IFACE_PM32] = (struct apm_iface_result){
        .tried = true, .connect_result = APM_ERR_PM32_UNSUPPORTED };
    build(HALT_POWEROFF_FAILED, "power-off failed via rm, pm32 and pm16", false);
    assert_string_equal(lines[0] + strlen(lines[0]) - 4, "====");
    assert_field("BIOS", "date 06/25/96, model byte FCh (no SMBIOS)");
    assert_field("CPU", "486 class (no CPUID), FPU; 640 KiB + 15360 KiB");
    assert_field("APM", "1.1, flags 0003h: 16-bit PM interface, 32-bit PM interface");
    assert_field("rm", "connected, APM 1.1; off: 5307h error 60h: unable to enter "
                 "requested state");
    assert_field("pm32", "connect error 08h: 32-bit protected-mode interface not supported");
    assert_field("pm16", "not tried");
    assert_field("Result", "power-off failed via rm, pm32 and pm16");
    assert_true(strstr(field("Next"), "irq=on") != NULL);
    assert_field("Log", "every line is on COM1 (3F8h, 8250), 115200 8N1");
    assert_null(field("Checks"));
}

static void test_not_offered_and_no_apm(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    apm.version = APM_V1_2;
    apm.flags = 0;
    build(HALT_POWEROFF_FAILED, "x", false);
    assert_field("pm32", "not offered by the BIOS");
    assert_field("pm16", "not offered by the BIOS");

    memset(&apm, 0, sizeof(apm));
    apm.reached = true;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("APM", "none: INT 15h AX=5300h says APM is not present");
    assert_null(field("rm"));
    assert_true(strstr(field("Next"), "SL-enhanced") != NULL);
}

/* "No APM" advice fits the CPU found: the 386 parts with SMM on a 386, an
 * SL-enhanced 486 on any 486, nothing of the kind on a Pentium. */
static void test_no_apm_advice_by_cpu(void **state)
{
    static const char setup_only[] = "enable APM or power management in BIOS setup";
    (void)state;
    apm.reached = true;

    sv.cpu.class = "386";
    sv.cpu.fpu = false;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Next", "enable APM or power management in BIOS setup; on a 386, APM "
                 "needs a 386SL or a 386SX with SMM");

    sv.cpu.class = "486";
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Next", "enable APM or power management in BIOS setup; on a 486, APM "
                 "needs an SL-enhanced CPU (SMM)");

    sv.cpu.class = "cpuid";                 /* an i486DX2-S: CPUID family 4 */
    sv.cpu.has_cpuid = true;
    strcpy(sv.cpu.vendor, "GenuineIntel");
    sv.cpu.family = 4;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_true(strstr(field("Next"), "on a 486, APM needs an SL-enhanced CPU") != NULL);

    sv.cpu.family = 5;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Next", setup_only);

    sv.cpu.family = 6;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Next", setup_only);
}

static void test_checks_named(void **state)
{
    static const char *const names[] = { "a.first", "b.second", "c.third" };
    (void)state;
    apm.reached = apm.present = true;
    apm.version = APM_V1_2;
    for (unsigned i = 0; i < 3; i++)
        rep.results[rep.count++] = (struct check_result){ names[i],
                                                          i == 1 ? CHECK_PASS : CHECK_FAIL };
    rep.passed = 1;
    rep.failed = 2;
    build(HALT_CHECK_FAILED, "check complete", true);
    assert_field("Checks", "1 passed, 2 failed, 0 skipped; failed: a.first, c.third");
    assert_non_null(strstr(field("Next"), "check=strict adds"));
}

/* After check=strict the panel does not suggest the probe that already ran. */
static void test_strict_check_next(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    apm.version = APM_V1_2;
    rep.strict = true;
    rep.passed = 3;
    build(HALT_CHECK_PASSED, "check complete", true);
    assert_field("Next", "compare with docs/check.md's conformance table");
}

static void test_smbios_identity(void **state)
{
    (void)state;
    sv.smbios.have_system = sv.smbios.have_bios = true;
    strcpy(sv.smbios.sys_vendor, "ASUSTeK");
    strcpy(sv.smbios.sys_product, "P/I-P55T2P4");
    strcpy(sv.smbios.bios_vendor, "Award");
    strcpy(sv.smbios.bios_version, "4.51PG");
    strcpy(sv.smbios.bios_date, "04/28/99");
    build(HALT_SURVEY_DONE, "survey complete", false);
    assert_field("Label", "bench 3");
    assert_field("Machine", "ASUSTeK P/I-P55T2P4");
    assert_field("BIOS", "Award 4.51PG, 04/28/99");
    assert_field("APM", "not asked");
}

/* A number stays with its unit when a line wraps: never "639" at one line's end and
 * "KiB" at the next's start. */
static void test_numbers_keep_their_units(void **state)
{
    (void)state;
    sv.cpu.has_cpuid = true;
    strcpy(sv.cpu.vendor, "GenuineIntel");
    sv.cpu.family = 6;
    strcpy(sv.cpu.name, "QEMU Virtual CPU version 2.5+");
    sv.int12_kb = 639;
    sv.map_available_kb = 639 + 129920;
    build(HALT_SURVEY_DONE, "survey complete", false);
    for (unsigned i = 0; i + 1 < count; i++) {
        size_t n = strlen(lines[i]);
        bool ends_in_digit = n && lines[i][n - 1] >= '0' && lines[i][n - 1] <= '9';
        bool next_is_unit = !strncmp(lines[i + 1], "           KiB", 14);
        assert_false(ends_in_digit && next_is_unit);
    }
    assert_field("CPU", "GenuineIntel family 6 model 0, QEMU Virtual CPU version 2.5+; "
                        "639 KiB + 129920 KiB");
}

/* APM failed, and the survey found ACPI S5: method=acpi comes first in the advice. */
static void test_acpi_suggested(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    build(HALT_POWEROFF_FAILED, "power-off failed via rm, pm32 and pm16", false);
    assert_null(strstr(field("Next"), "method=acpi"));
    /* \_S5_ with no PM1a block method=acpi could write: not suggested */
    sv.s5.found = true;
    sv.s5.tables.fadt.pm1a_cnt = 0x604;
    build(HALT_POWEROFF_FAILED, "power-off failed via rm, pm32 and pm16", false);
    assert_null(strstr(field("Next"), "method=acpi"));
    sv.s5.tables.fadt.pm1a_cnt_from = ACPI_BLK_32;
    build(HALT_POWEROFF_FAILED, "power-off failed via rm, pm32 and pm16", false);
    assert_non_null(strstr(field("Next"), "ACPI S5 is there: try method=acpi; "));
    assert_non_null(strstr(field("Next"), "irq=on"));
    memset(&apm, 0, sizeof(apm));
    apm.reached = true;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_non_null(strstr(field("Next"), "try method=acpi"));
}

/* No firmware at all (QEMU's microvm): not UEFI's advice; ACPI named where its
 * hardware-reduced sleep register is there. */
static void test_no_firmware_advice(void **state)
{
    (void)state;
    sv.firmware = "none";
    build(HALT_NO_BIOS, "no legacy BIOS: the INT 15h vector is zero", false);
    assert_null(strstr(field("Next"), "UEFI firmware has no APM"));
    assert_non_null(strstr(field("Next"), "no firmware to call"));
    assert_null(strstr(field("Next"), "ACPI S5 is there"));
    sv.s5.found = true;
    sv.s5.tables.fadt.have_flags = true;
    sv.s5.tables.fadt.flags = ACPI_FADT_HW_REDUCED;
    sv.s5.tables.fadt.have_sleep_regs = true;
    build(HALT_NO_BIOS, "no legacy BIOS: the INT 15h vector is zero", false);
    assert_non_null(strstr(field("Next"), "ACPI S5 is there: try method=acpi; no firmware"));
    sv.firmware = "uefi";
    build(HALT_NO_BIOS, "no APM on UEFI firmware (no legacy BIOS)", false);
    assert_non_null(strstr(field("Next"), "UEFI firmware has no APM"));
}

/* After action=check, an interface the check connected says so, not "not tried". */
static void test_check_connects_shown(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    apm.version = APM_V1_2;
    apm.flags = APM_FLAG_PM16 | APM_FLAG_PM32;
    rep.results[rep.count++] = (struct check_result){ "connect.rm", CHECK_PASS };
    rep.results[rep.count++] = (struct check_result){ "connect.pm32", CHECK_FAIL };
    build(HALT_CHECK_FAILED, "check complete", true);
    assert_field("rm", "connect passed (action=check)");
    assert_field("pm32", "connect failed (action=check)");
    assert_field("pm16", "not tried");
    apm.ifaces[APM_IFACE_PM16] = (struct apm_iface_result){
        .tried = true, .connect_result = APM_RESULT_INJECTED };
    build(HALT_CHECK_FAILED, "check complete", true);
    assert_field("pm16", "connect failure injected (inject=pm16-connect), BIOS not called");
}

/* Every ending has advice, and the panel leaves room for the halted line. */
/* "Success but still on": the chipset's verdict is the advice, whichever way it
 * goes; an error answer or an unknown chipset keeps the usual advice. */
static void test_still_on_explained_by_chipset(void **state)
{
    (void)state;
    apm.reached = apm.present = true;
    apm.ifaces[APM_IFACE_RM].tried = true;
    apm.ifaces[APM_IFACE_RM].off_tried = true;
    apm.ifaces[APM_IFACE_RM].off_still_on = true;
    sv.chipset.soft_off = SOFT_OFF_NO;
    strcpy(sv.chipset.name, "Intel 430HX (PIIX3)");
    strcpy(sv.chipset.explain, "the PIIX3 south bridge has no soft-off: the BIOS cannot cut "
                               "the power; expected on this board (AT-style power)");
    build(HALT_POWEROFF_FAILED, "5307h returned success but the machine is still on", false);
    assert_field("Next", "the PIIX3 south bridge has no soft-off: the BIOS cannot cut the "
                         "power; expected on this board (AT-style power); switch it off by "
                         "hand");
    sv.chipset.soft_off = SOFT_OFF_YES;
    strcpy(sv.chipset.explain, "the PIIX4 PM function has soft-off: the BIOS can cut an "
                               "ATX supply's power");
    build(HALT_POWEROFF_FAILED, "5307h returned success but the machine is still on", false);
    assert_field("Next", "the PIIX4 PM function has soft-off: the BIOS can cut an ATX "
                         "supply's power: check BIOS setup's soft-off option and that the "
                         "supply is ATX");
    sv.chipset.soft_off = SOFT_OFF_UNKNOWN;
    build(HALT_POWEROFF_FAILED, "5307h returned success but the machine is still on", false);
    assert_non_null(strstr(field("Next"), "power management (APM) is enabled"));
    sv.chipset.soft_off = SOFT_OFF_NO;
    apm.ifaces[APM_IFACE_RM].off_still_on = false;      /* an error answer instead */
    build(HALT_POWEROFF_FAILED, "5307h error 60h: unable to enter requested state", false);
    assert_non_null(strstr(field("Next"), "power management (APM) is enabled"));
}

/* The Log line names the port the BIOS calls COM1, where serial.c found the UART
 * (86Box's Intel AN430TX: its only serial port at 2F8h), or says there is none. */
static void test_log_names_the_port(void **state)
{
    (void)state;
    uart_kind = "16550A";
    uart_base = 0x2F8;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Log", "every line is on COM1 (2F8h, 16550A), 115200 8N1");
    uart_kind = NULL;
    build(HALT_NO_APM, "no APM BIOS", false);
    assert_field("Log", "no serial port answered: this screen is all");
}

static void test_every_code(void **state)
{
    (void)state;
    for (int code = HALT_POWEROFF_FAILED; code <= HALT_CHIPSET_STILL_ON; code++) {
        build((enum halt_code)code, "a reason that is long enough to need a second line "
              "on the screen, which it gets under the same label", true);
        assert_non_null(field("Next"));
        assert_true(count < SUMMARY_LINES);
    }
}

/* The reset table as the panel reads it: each method's name, and what it wrote. */
static void describe(void *ctx, unsigned m, char *buf, unsigned size)
{
    reset_offer_describe(ctx, (enum reset_method)m, false, buf, size);
}

/* action=reboot: a line for each method of the list, in its order, instead of APM's
 * interfaces (APM was never asked), and the reset failure's advice. */
static void test_reboot_panel(void **state)
{
    (void)state;
    struct reset_offer offer = { .why = { [RESET_ACPI] = "no ACPI reset register: FADT "
                                                          "revision 1" } };
    const struct way ways[RESET_COUNT] = {
        [RESET_KBD] = { "kbd", 0, describe, 0, HALT_NO_RESET, HALT_RESET_FAILED },
        [RESET_ACPI] = { "acpi", 0, describe, 0, HALT_NO_RESET, HALT_RESET_FAILED },
        [RESET_TRIPLE] = { "triple", 0, describe, 0, HALT_NO_RESET, HALT_RESET_FAILED },
    };
    struct chain_report report = {
        .count = 3,
        .made = 1,
        .tries = {
            { RESET_ACPI, CHAIN_SKIPPED, "no ACPI reset register: FADT revision 1" },
            { RESET_KBD, CHAIN_STILL_ON, "" },
            { RESET_TRIPLE, CHAIN_NOT_REACHED, "" },
        },
    };
    struct summary_input in = { .version = "0.1", .sv = &sv, .apm = &apm,
                                .serial_kind = "8250", .code = HALT_RESET_FAILED,
                                .reason = "reset failed: still running after kbd",
                                .resets = &report, .reset_ways = ways, .reset_ctx = &offer };
    count = summary_lines(&in, lines, SUMMARY_LINES);
    assert_string_equal(field("acpi"), "skipped: no ACPI reset register: FADT revision 1");
    assert_string_equal(field("kbd"), "still running after 1000 ms (8042 command FEh)");
    assert_string_equal(field("triple"), "not reached");
    assert_null(field("APM"));
    assert_non_null(strstr(field("Next"), "reset=bios"));
    assert_string_equal(field("Result"), "reset failed: still running after kbd");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_failed_power_off, setup),
        cmocka_unit_test_setup(test_not_offered_and_no_apm, setup),
        cmocka_unit_test_setup(test_no_apm_advice_by_cpu, setup),
        cmocka_unit_test_setup(test_checks_named, setup),
        cmocka_unit_test_setup(test_strict_check_next, setup),
        cmocka_unit_test_setup(test_numbers_keep_their_units, setup),
        cmocka_unit_test_setup(test_acpi_suggested, setup),
        cmocka_unit_test_setup(test_no_firmware_advice, setup),
        cmocka_unit_test_setup(test_check_connects_shown, setup),
        cmocka_unit_test_setup(test_smbios_identity, setup),
        cmocka_unit_test_setup(test_still_on_explained_by_chipset, setup),
        cmocka_unit_test_setup(test_log_names_the_port, setup),
        cmocka_unit_test_setup(test_every_code, setup),
        cmocka_unit_test_setup(test_reboot_panel, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
