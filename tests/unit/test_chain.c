/* app/common/chain.c, the one runner of method= and reset= lists, as method= runs it
 * (reset='s kind: tests/unit/test_resets.c): each method the user named, in order,
 * never one the user did not name, one the machine lacks named and skipped, and the
 * last method's halt code at the end; and app/common/options.c reads method= as an
 * ordered list, each name once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "log_assert.h"
#include "options_of.h"
#include "../../app/power/kind.h"

/* Fakes: each records that it was called, in order, and answers as told; a method
 * may also be missing before it is tried (as APM without a legacy BIOS). */
static char calls[64];
static enum way_result answer[METHOD_COUNT];
static const char *lacks[METHOD_COUNT];

static const char *fake_missing(void *ctx, unsigned m)
{
    (void)ctx;
    return lacks[m];
}

static enum way_result fake_make(void *ctx, unsigned m, unsigned attempt, char *why,
                                 unsigned size)
{
    static const char *const names[METHOD_COUNT] = { 0, "apm", "acpi", "efi", "chipset" };
    (void)ctx;
    (void)attempt;
    strcat(calls, names[m]);
    strcat(calls, " ");
    snprintf(why, size, "%s %s", names[m],
             answer[m] == WAY_ABSENT ? "is not there" : "left it on");
    return answer[m];
}

static const struct way ways[METHOD_COUNT] = {
    [METHOD_APM] = { "apm", fake_missing, 0, fake_make, HALT_NO_APM, HALT_POWEROFF_FAILED },
    [METHOD_ACPI] = { "acpi", fake_missing, 0, fake_make, HALT_NO_ACPI, HALT_ACPI_STILL_ON },
    [METHOD_EFI] = { "efi", fake_missing, 0, fake_make, HALT_NO_BIOS, HALT_EXCEPTION },
};
static const struct chain_kind kind = POWER_KIND;

static enum halt_code methods_power_off(int list, char *why, unsigned size)
{
    static struct chain_report rep;
    chain_run(&kind, ways, list, 0, &rep);
    return chain_end(ways, &rep, why, size);
}

static int setup(void **state)
{
    (void)state;
    calls[0] = '\0';
    for (int i = 0; i < METHOD_COUNT; i++) {
        answer[i] = WAY_STILL_ON;
        lacks[i] = NULL;
    }
    log_reset();
    return 0;
}

static int list_of(const char *text)
{
    return options_of("method", text).methods;
}

/* One method: its own reason, unchanged, and its own codes (the APM default must end
 * exactly as before methods existed). */
static void test_single(void **state)
{
    char why[160];
    (void)state;
    assert_int_equal(methods_power_off(list_of("apm"), why, sizeof(why)),
                     HALT_POWEROFF_FAILED);
    assert_string_equal(why, "apm left it on");
    assert_string_equal(calls, "apm ");
    assert_false(log_has("falling back"));
    answer[METHOD_ACPI] = WAY_ABSENT;
    calls[0] = '\0';
    assert_int_equal(methods_power_off(list_of("acpi"), why, sizeof(why)),
                     HALT_NO_ACPI);
    assert_string_equal(why, "acpi is not there");
    assert_string_equal(calls, "acpi ");    /* no silent switch to APM */
}

/* A chain: every method in the user's order, each said, and the last one's code. */
static void test_chain_order(void **state)
{
    char why[160];
    (void)state;
    answer[METHOD_APM] = WAY_ABSENT;
    assert_int_equal(methods_power_off(list_of("acpi,apm"), why, sizeof(why)),
                     HALT_NO_APM);
    assert_string_equal(calls, "acpi apm ");
    assert_string_equal(why, "acpi: acpi left it on; apm: apm is not there");
    assert_log_has("falling back to method apm");
    calls[0] = '\0';
    assert_int_equal(methods_power_off(list_of("apm,efi,acpi"), why, sizeof(why)),
                     HALT_ACPI_STILL_ON);
    assert_string_equal(calls, "apm efi acpi ");
}

/* The reason of a long chain is cut, never overrun. */
static void test_chain_reason_cut(void **state)
{
    char why[20];
    (void)state;
    methods_power_off(list_of("apm,acpi,efi"), why, sizeof(why));
    assert_int_equal(strlen(why), sizeof(why) - 1);
    assert_string_equal(calls, "apm acpi efi ");
}

/* method= parsing: the order kept, a name twice or an unknown name refused, the
 * default apm, and the description says the list back. */
static void test_method_option(void **state)
{
    struct options o;
    char buf[200];
    (void)state;
    options_defaults(&o);
    assert_int_equal(o.methods, METHOD_APM);
    assert_int_equal(method_at(list_of("acpi,apm"), 0), METHOD_ACPI);
    assert_int_equal(method_at(list_of("acpi,apm"), 1), METHOD_APM);
    assert_int_equal(method_at(list_of("acpi,apm"), 2), METHOD_NONE);
    assert_int_equal(options_parse(&o, "/k method=acpi,acpi"), 1);
    assert_log_has("error: method= names acpi twice");
    assert_int_equal(options_parse(&o, "/k method=bios"), 1);
    assert_log_has("error: method=bios is not valid: the names are apm, acpi, efi, chipset, "
                   "given comma-separated in the order to try them (the default: "
                   "method=apm)");
    assert_int_equal(options_parse(&o, "/k method="), 1);
    assert_int_equal(options_parse(&o, "/k method=apm,"), 1);
    options_defaults(&o);
    options_describe(&o, buf, sizeof(buf));
    assert_non_null(strstr(buf, " method=apm "));
    options_describe_changed(&o, buf, sizeof(buf));
    assert_null(strstr(buf, "method"));
    assert_int_equal(options_parse(&o, "/k method=apm,acpi"), 0);
    options_describe_changed(&o, buf, sizeof(buf));
    assert_string_equal(buf, "method=apm,acpi");
    assert_int_equal(options_parse(&o, "/k method=apm,acpi method=acpi"), 1);
}

/* A method missing before it is tried: named with its reason, never made, and its
 * absent code when it is the last; the next one still runs. */
static void test_missing(void **state)
{
    char why[160];
    (void)state;
    lacks[METHOD_APM] = "no APM: no legacy BIOS";
    assert_int_equal(methods_power_off(list_of("apm"), why, sizeof(why)), HALT_NO_APM);
    assert_string_equal(why, "no APM: no legacy BIOS");
    assert_string_equal(calls, "");
    assert_log_has("apm: no APM: no legacy BIOS");
    assert_int_equal(methods_power_off(list_of("apm,acpi"), why, sizeof(why)),
                     HALT_ACPI_STILL_ON);
    assert_string_equal(calls, "acpi ");
    assert_string_equal(why, "apm: no APM: no legacy BIOS; acpi: acpi left it on");
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_single),
        T(test_chain_order),
        T(test_chain_reason_cut),
        T(test_missing),
        T(test_method_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
