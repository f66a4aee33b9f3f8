/* The shipped expected check lists (apm/checklist.h): the table generated from
 * tests/emu/expect/ holds the known BIOSes, keyed exactly by their SMBIOS identity,
 * and a report is compared with a list entry by entry, so one verdict that differs
 * from the list (a BIOS or apmoff that changed) is caught and named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../apm/checklist.h"
#include "log_assert.h"

static const struct check_expected three[] = {
    { "install-check.signature", CHECK_PASS, 0 },
    { "connect.rm-twice", CHECK_FAIL, 0 },
    { "power-state.reserved", CHECK_SKIP, 0 },
};
static const struct check_identity ids1[] = { { "Test", "1.0", 0 }, { "Other", "x", 0 } };
static const struct check_identity ids2[] = { { "Test", "2.0", 0 } };
static const struct check_identity ids3[] = { { "Family", "1.16.*", 0 } };
static const struct check_identity ids4[] = { { 0, 0, "Old BIOS v1.0" } };
static const struct check_expected explained[] = {
    { "install-check.signature", CHECK_PASS, 0 },
    { "connect.rm-twice", CHECK_FAIL, "a second 5301h succeeds" },
    { "power-state.reserved", CHECK_SKIP, 0 },
};
static const struct check_list lists[] = {
    { "Test BIOS 1", ids1, 2, three, 3 },
    { "Test BIOS 2", ids2, 1, three, 2 },
    { "Family BIOS", ids3, 1, three, 3 },
    { "Old BIOS", ids4, 1, explained, 3 },
};

static struct check_report report(enum check_verdict a, enum check_verdict b,
                                  enum check_verdict c)
{
    struct check_report r = { 0 };
    r.results[r.count++] = (struct check_result){ "install-check.signature", a };
    r.results[r.count++] = (struct check_result){ "connect.rm-twice", b };
    r.results[r.count++] = (struct check_result){ "power-state.reserved", c };
    return r;
}

static void test_find_is_exact(void **state)
{
    (void)state;
    assert_ptr_equal(check_list_find(lists, 2, "Test", "1.0"), &lists[0]);
    assert_ptr_equal(check_list_find(lists, 2, "Other", "x"), &lists[0]);
    assert_ptr_equal(check_list_find(lists, 2, "Test", "2.0"), &lists[1]);
    assert_null(check_list_find(lists, 2, "Other", "1.0"));
    assert_null(check_list_find(lists, 2, "Test", "1.0 "));
    assert_null(check_list_find(lists, 2, "test", "1.0"));
    assert_null(check_list_find(lists, 2, "Test", "1"));
    assert_null(check_list_find(lists, 2, 0, "1.0"));
}

/* A version ending in '*' takes every version that starts with the rest, and only
 * those; the vendor stays exact. */
static void test_find_a_family(void **state)
{
    (void)state;
    assert_ptr_equal(check_list_find(lists, 3, "Family", "1.16.2-debian-1.16.2-1"), &lists[2]);
    assert_ptr_equal(check_list_find(lists, 3, "Family", "1.16.3-debian-1.16.3-2"), &lists[2]);
    assert_ptr_equal(check_list_find(lists, 3, "Family", "1.16."), &lists[2]);
    assert_null(check_list_find(lists, 3, "Family", "1.17.0"));
    assert_null(check_list_find(lists, 3, "Family", "1.16"));
    assert_null(check_list_find(lists, 3, "family", "1.16.3"));
}

/* A BIOS without SMBIOS is known by a banner its ROM holds, exactly; an identity by
 * banner is never taken for an SMBIOS one, nor the reverse. */
static void test_find_by_rom_banner(void **state)
{
    (void)state;
    const char *rom[] = { "(C) 1992 Someone", "Old BIOS v1.0" };
    const char *near[] = { "Old BIOS v1.0 ", "old BIOS v1.0", 0 };
    const char *smbios_names[] = { "Test", "1.0" };
    assert_ptr_equal(check_list_find_rom(lists, 4, rom, 2), &lists[3]);
    assert_null(check_list_find_rom(lists, 4, rom, 1));
    assert_null(check_list_find_rom(lists, 4, near, 3));
    assert_null(check_list_find_rom(lists, 4, smbios_names, 2));
    assert_null(check_list_find(lists, 4, "Old BIOS v1.0", "1.0"));
    assert_null(check_list_find_rom(lists, 4, rom, 0));
}

/* A FAIL the list expects and explains is said with its cause and whose it is; it is
 * no difference. An unexplained one says nothing. */
static void test_known_fail_is_named(void **state)
{
    (void)state;
    struct check_report r = report(CHECK_PASS, CHECK_FAIL, CHECK_SKIP);
    log_reset();
    assert_int_equal(check_list_compare(&lists[3], &r), 0);
    assert_log_has("check: known FAIL connect.rm-twice (Old BIOS's): a second 5301h succeeds");
    assert_int_equal(log_count(), 1);
    log_reset();
    assert_int_equal(check_list_compare(&lists[0], &r), 0);
    assert_int_equal(log_count(), 0);
}

static void test_same_verdicts_match(void **state)
{
    (void)state;
    struct check_report r = report(CHECK_PASS, CHECK_FAIL, CHECK_SKIP);
    log_reset();
    assert_int_equal(check_list_compare(&lists[0], &r), 0);
    assert_int_equal(log_count(), 0);
}

/* The list says SKIP (check=strict not given); a strict run's FAIL differs. */
static void test_one_different_verdict_is_named(void **state)
{
    (void)state;
    struct check_report r = report(CHECK_PASS, CHECK_FAIL, CHECK_FAIL);
    log_reset();
    assert_int_equal(check_list_compare(&lists[0], &r), 1);
    assert_log_has("check: differs: power-state.reserved: expected SKIP, got FAIL");
    assert_int_equal(log_count(), 1);
}

/* A BIOS fixed: the FAIL the list expects became a PASS. Still a difference. */
static void test_a_fixed_check_differs_too(void **state)
{
    (void)state;
    struct check_report r = report(CHECK_PASS, CHECK_PASS, CHECK_SKIP);
    log_reset();
    assert_int_equal(check_list_compare(&lists[0], &r), 1);
    assert_log_has("check: differs: connect.rm-twice: expected FAIL, got PASS");
}

static void test_missing_and_unlisted_checks_differ(void **state)
{
    (void)state;
    struct check_report r = report(CHECK_PASS, CHECK_FAIL, CHECK_SKIP);
    r.count = 2;                                /* power-state.reserved never ran */
    r.results[r.count++] = (struct check_result){ "new.check", CHECK_PASS };
    log_reset();
    assert_int_equal(check_list_compare(&lists[0], &r), 2);
    assert_log_has("check: differs: power-state.reserved: expected SKIP, did not run");
    assert_log_has("check: differs: new.check: not in the list, got PASS");
    /* Against a list without power-state.reserved, that check is the difference. */
    log_reset();
    r = report(CHECK_PASS, CHECK_FAIL, CHECK_SKIP);
    assert_int_equal(check_list_compare(&lists[1], &r), 1);
    assert_log_has("check: differs: power-state.reserved: not in the list, got SKIP");
}

/* The generated table (scripts/mkchecklists.py over tests/emu/expect/) holds the
 * BIOSes the emulator cases run, under the identities those BIOSes report. */
static void test_shipped_lists(void **state)
{
    (void)state;
    const struct check_list *sea = check_list_find(check_lists, check_list_count,
                                                   "SeaBIOS", "1.16.2-debian-1.16.2-1");
    /* Debian 13's SeaBIOS is of the same family: the same list. */
    assert_ptr_equal(check_list_find(check_lists, check_list_count, "SeaBIOS",
                                     "1.16.3-debian-1.16.3-2"), sea);
    const struct check_list *bochs = check_list_find(check_lists, check_list_count,
                                                     "The Bochs Project", "Bochs 2.7");
    assert_non_null(sea);
    assert_ptr_equal(check_list_find(check_lists, check_list_count, "Bochs", "Bochs"), sea);
    assert_non_null(bochs);
    assert_string_equal(sea->bios, "SeaBIOS 1.16");
    assert_string_equal(bochs->bios, "Bochs rombios");
    /* Debian 13's Bochs 3.0 has the same BIOS code: the same list. */
    assert_ptr_equal(check_list_find(check_lists, check_list_count, "The Bochs Project",
                                     "Bochs 3.0"), bochs);
    assert_int_equal(sea->count, 31);
    unsigned fails = 0;
    for (unsigned i = 0; i < sea->count; i++) {
        fails += sea->checks[i].verdict == CHECK_FAIL;
        if (!strcmp(sea->checks[i].name, "power-state.reserved"))
            assert_int_equal(sea->checks[i].verdict, CHECK_SKIP);
    }
    assert_int_equal(fails, 8);

    /* DOSBox-X has no SMBIOS: its ROM's banner keys its list, whose two FAILs are
     * DOSBox-X's own (docs/emulator-bugs.md). */
    const char *dosbox[] = { "IBM COMPATIBLE BIOS for DOSBox-X", "DOSBox-X BIOS v1.0" };
    const struct check_list *dbx = check_list_find_rom(check_lists, check_list_count,
                                                       dosbox, 2);
    assert_non_null(dbx);
    assert_string_equal(dbx->bios, "DOSBox-X");
    assert_int_equal(dbx->count, 31);
    fails = 0;
    for (unsigned i = 0; i < dbx->count; i++)
        if (dbx->checks[i].verdict == CHECK_FAIL) {
            fails++;
            assert_non_null(dbx->checks[i].why);
        }
    assert_int_equal(fails, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_is_exact),
        cmocka_unit_test(test_find_a_family),
        cmocka_unit_test(test_find_by_rom_banner),
        cmocka_unit_test(test_known_fail_is_named),
        cmocka_unit_test(test_same_verdicts_match),
        cmocka_unit_test(test_one_different_verdict_is_named),
        cmocka_unit_test(test_a_fixed_check_differs_too),
        cmocka_unit_test(test_missing_and_unlisted_checks_differ),
        cmocka_unit_test(test_shipped_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
