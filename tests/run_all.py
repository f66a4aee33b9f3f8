"""make test: every test of apmoff, one table of steps, then one summary line.

    python3 -m tests.run_all [-l] [-g GROUP]... [-k SUBSTRING] [-j N] [--junit FILE]
                             [--unit-only | --emu-only] [--update-readme]

Run from the repository root (tests/ is a package). The steps, in order: the host
unit tests (build/tests/test_*, TAP from cmocka), the static checks and the 386
checker's self-test, the fuzz smoke run, the AML interpreter against ACPICA
(tests/aml/step.py), apmoff-collect's tests, the survey QR code's property test
(tests/qr/), apmoff-sweep's tests (tests/sweep/), make
dist built twice and from its tarball (tests/check_dist.py), the results file's
self-test, the pages' static checks (tests/docs/), every emulator case of
tests/emu/cases.py (N at a time, -j), docs/real-bioses.md's real-BIOS table against the
86Box runs, apmoff-sweep on the kit's 86Box machines, `make run` four times with both
cores busy (tests/emu/load_run.py), docs/ci.md's CI recipes, the
pages against real runs (their commands run, their examples and generated blocks
against the cases' serial logs). Each prints PASS/FAIL lines; the last line is
`N passed, N failed`. Failed emulator runs keep their serial and emulator logs in
build/test-logs/.

Groups (-g, repeatable, or comma-separated): every step and case is in some, and -l
lists them: quick (make check, the fast tier), unit, static, fuzz, aml, collect, qr,
sweep, dist, runner, docs, recipes, board-table, and for the emulator cases emu, their emulator (qemu, bochs, 86box),
medium (kernel, iso, floppy, usb, hdd), topic (poweroff, errors, v86, check, survey,
media, uefi, screen, biosrom, 86box) and what their columns imply (uefi, biosrom,
survey, check, qr, ...).
"""

import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import time

from tests import (check_dist, check_floppy, check_formats, check_grub_patch, check_insns,
                   check_layers, check_loader, check_menu, check_realmode, recipes)
from tests.aml import step as aml_step
from tests.collect import step as collect_step
from tests.docs import check as docs_check
from tests.sweep import step as sweep_step
from tests.emu import board_table, box86, harness, load_run, make_run_reboot
from tests.emu.cases import CASES
from tests.emu.watch import apmoff_lines
from tests.paths import BUILD, ROOT
from tests.results import Tally

LOGS = os.path.join(BUILD, "test-logs")
TAP_LINE = re.compile(r"^(not )?ok \d+\s*(?:- )?(.*?)\s*(# SKIP.*)?$", re.M)


# --- the steps before the emulators ---------------------------------------------------

def run_unit(tally):
    """The cmocka binaries; one record a unit test."""
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    binaries = sorted(glob.glob(os.path.join(BUILD, "tests", "test_*")))
    if not binaries:
        print("not ok - no unit test binaries in build/tests (run make unit-bin)")
        tally.add("unit", "build/tests", False, message="no unit test binaries")
        return
    for binary in binaries:
        name = os.path.basename(binary)
        start = time.monotonic()
        proc = subprocess.run([binary], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120)
        seconds = time.monotonic() - start
        out = proc.stdout.decode(errors="replace")
        ok = bad = skip = 0
        for m in TAP_LINE.finditer(out):
            test = m.group(2) or "?"
            if m.group(3):
                skip += 1
                if os.environ.get("CI"):    # deps.sh installed every tool: nothing may skip
                    bad += 1
                    tally.add("unit." + name, test, False, message="skipped in CI")
                else:
                    tally.add("unit." + name, test, False, skipped=m.group(3)[2:].strip())
            elif m.group(1):
                bad += 1
                tally.add("unit." + name, test, False, message="not ok", output=out)
            else:
                ok += 1
                tally.add("unit." + name, test, True)
        if skip:
            print("SKIP %s: %d skipped (see its output)" % (name, skip))
            if os.environ.get("CI"):
                print("FAIL %s: skipped tests in CI (CI is set)" % name)
        if proc.returncode and not bad:
            bad = 1                    # crashed or failed outside a test
            tally.add("unit." + name, "(exit status %d)" % proc.returncode, False,
                      seconds, message="failed outside a test", output=out)
        print("%s %s: %d passed, %d failed" % ("PASS" if not bad else "FAIL", name, ok, bad))
        if bad:
            print("\n".join("    " + l for l in out.splitlines()))


def run_checks(tally):
    """The kernel uses no instruction a 386 lacks outside its guarded helpers; the
    GRUB patch for CPUs without CR4 changes what it should and refuses the rest; the
    boot menu offers every action with a countdown a person can use; every CR0 write
    of the trampoline is followed by a far jump, and the GDT is 16-byte aligned; every
    include points down the kernel's floors (check_layers.py); every floppy image holds
    what the loader reads, where it reads it (check_floppy.py); the loader's real-mode
    code uses 32-bit addresses for its string instructions (check_loader.py); every
    row of make mutate's table still plants its bug (its snippet occurs once); every
    printf conversion in the kernel is one lib/format.c knows (check_formats.py)."""
    for name, check in (("mutant_table", mutant_table),
                        ("check_layers", check_layers.check),
                        ("check_formats", check_formats.check),
                        ("check_insns", lambda: check_insns.check(
                            os.path.join(BUILD, "apmoff.elf"))),
                        ("check_grub_patch", check_grub_patch.check),
                        ("check_menu", check_menu.check),
                        ("check_realmode", lambda: check_realmode.check(BUILD)),
                        ("check_floppy", lambda: check_floppy.check(BUILD)),
                        ("check_loader", lambda: check_loader.check(BUILD))):
        ok, messages = check()
        print("\n".join(messages))
        tally.add("static", name, ok, message="; ".join(messages)[:500])


def mutant_table():
    from tests.mutate.mutants import MUTANTS
    from tests.mutate.mutate import validate
    problems = validate(MUTANTS)
    if problems:
        return False, ["FAIL mutant table: " + p for p in problems]
    return True, ["PASS mutant table: each of %d rows plants its bug (its snippet occurs "
                  "once)" % len(MUTANTS)]


def run_checker_self_test(tally):
    """The 386 checker and the layer checker must still catch what they exist to
    catch."""
    tally.add("static", "check_insns self-test", check_insns.self_test())
    ok, message = check_layers.self_test()
    print("%s layers self-test: %s" % ("PASS" if ok else "FAIL", message))
    tally.add("static", "check_layers self-test", ok, message=message)
    ok, message = check_formats.self_test()
    print("%s formats self-test: %s" % ("PASS" if ok else "FAIL", message))
    tally.add("static", "check_formats self-test", ok, message=message)
    ok, message = check_loader.self_test()
    print(message)
    tally.add("static", "check_loader self-test", ok, message=message)


def run_fuzz(tally):
    """Each libFuzzer target briefly (make fuzz-smoke): a crash is a failure."""
    proc = subprocess.run(["make", "-s", "--no-print-directory", "fuzz-smoke"],
                          cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    out = proc.stdout.decode(errors="replace")
    results = re.findall(r"^(PASS|FAIL) (fuzz_\S+?):?(?:\s|$)", out, re.M)
    failed = any(r == "FAIL" for r, _ in results)
    for verdict, target in results:
        tally.add("fuzz", target, verdict == "PASS", output=out)
    if proc.returncode and not failed:
        failed = True
        tally.add("fuzz", "make fuzz-smoke", False, output=out,
                  message="exit status %d" % proc.returncode)
    for line in out.splitlines():
        if line.startswith(("PASS fuzz_", "FAIL fuzz_")) or failed:
            print(line)


def run_dist(tally):
    """make dist twice, in two folders, under two umasks and time zones, and once
    from its source tarball: the same bytes every time (tests/check_dist.py)."""
    ok, message = check_dist.self_test()
    print("%s dist self-test: %s" % ("PASS" if ok else "FAIL", message))
    tally.add("dist", "self-test", ok, message=message)
    start = time.monotonic()
    ok, messages = check_dist.check()
    print("\n".join(messages))
    tally.add("dist", "reproducible", ok, time.monotonic() - start,
              message="; ".join(messages)[:500])


def run_collect_units(tally):
    """apmoff-collect's unit tests (tests/collect/test_collect.py, but its live run)."""
    collect_step.run_units(tally)


def run_collect(tally):
    """apmoff-collect's other tests: the live run with emulators and Chromium, strangers'
    files, bounds, output, the parsers' fuzz targets (tests/collect/step.py)."""
    collect_step.run(tally)


def run_qr_property(tally):
    """The survey QR code reads back whatever it carries: 54 survey lines of real
    shapes through the kernel's encoder, the photo distortions and zbar
    (tests/qr/test_qr_property.py)."""
    collect_step.run_module(tally, "tests.qr.test_qr_property", suite="qr",
                            label="survey QR property")


def run_make_run_load(tally):
    """`make run`'s relay with both cores busy: no byte of COM1 lost, the survey line
    whole by its sum (tests/emu/load_run.py). After the emulator cases, alone."""
    for n, seconds, problems in load_run.run():
        tally.add("make-run-load", "run %d" % n, not problems, seconds,
                  message="; ".join(problems))
    seconds, problems = make_run_reboot.run()
    print("%s make run ARGS=\"action=reboot\": the next boot's report, exit 0 (%.1f s)%s"
          % ("FAIL" if problems else "PASS", seconds,
             "".join("\n    " + p for p in problems)), flush=True)
    tally.add("make-run", "action=reboot", not problems, seconds, message="; ".join(problems))


def run_sweep(tally):
    """apmoff-sweep's own tests, without the ROM set: the machine-table reader on the
    made-up table of tests/sweep/fixtures/table/, the config writer, the screen reader
    and the prompt table on recorded BIOS screens, the judge on recorded runs
    (tests/sweep/step.py)."""
    sweep_step.run_unit(tally)


def run_aml_asl(tally):
    """The AML interpreter against ACPICA, hand-made AML method by method
    (tests/aml/step.py)."""
    aml_step.run(tally, corpus=False)


def run_aml_corpus(tally):
    """The AML interpreter against ACPICA: \\_PTS(5) of every machine of the ACPI
    corpus (tests/aml/step.py)."""
    aml_step.run(tally, asl=False)


def run_results_self_test(tally):
    """The JUnit XML this runner writes parses, and says what the summary says."""
    import xml.etree.ElementTree as ET
    sample = Tally()
    sample.add("unit.test_x", "test_ok", True)
    sample.add("emu.qemu", "a <case> & \"quotes\"", False, 1.5, "serial lacks /x/",
               "apmoff: \x1b[0m\x00 bytes")
    sample.add("emu.86box", "86box-board", False, skipped="86Box not found")
    sample.add("unit.test_y", "test_skipped", False, skipped="no tool")
    try:
        root = ET.fromstring(sample.junit())
        cases = root.findall("testsuite/testcase")
        ok = (root.get("tests"), root.get("failures"), root.get("skipped")) == ("4", "1", "2") \
            and [c.get("name") for c in cases] == [r.name for r in sample.records] \
            and sample.summary() == "1 passed, 1 failed, 1 skipped"
        why = "" if ok else "the XML does not say what the records say"
    except ET.ParseError as e:
        ok, why = False, "invalid XML: %s" % e
    print("%s tests/results.py: JUnit XML%s" % ("PASS" if ok else "FAIL",
                                                ": " + why if why else " parses and agrees"))
    tally.add("runner", "junit self-test", ok, message=why)


def run_harness_self_test(tally):
    """The harness's judge of QEMU runs against recorded QMP sessions of QEMU 7.2 and
    10 (tests/emu/test_outcome.py), one record a test; make run's relay against a last
    serial line that comes after the SHUTDOWN event (tests/emu/test_run.py); the real-BIOS
    table from made-up runs (tests/emu/test_board_table.py)."""
    import unittest
    from tests.emu import test_board_table, test_outcome, test_run

    def cases(suite):
        for item in suite:
            yield from cases(item) if isinstance(item, unittest.TestSuite) else (item,)
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromModule(m)
                               for m in (test_board_table, test_outcome, test_run))
    tests = list(cases(suite))          # a suite lets go of its tests as it runs them
    result = unittest.TestResult()
    suite.run(result)
    bad = {}                            # a failed subTest counts against its test
    for t, why in result.failures + result.errors:
        bad.setdefault(getattr(t, "test_case", t).id(), why)
    for test in tests:
        name = ".".join(test.id().rsplit(".", 2)[-2:])
        why = bad.get(test.id(), "")
        print("%s harness %s%s" % ("FAIL" if why else "PASS", name, "\n" + why if why else ""))
        tally.add("runner", "harness " + name, not why, message=why[-500:])


# --- the emulator cases and what is judged from them ----------------------------------

def label_of(c):
    options = c.options if len(c.options) <= 100 else "%s... (%d bytes)" % (
        c.options[:60], len(c.options))
    return "%s (%s, %s BIOS, %s, %s%s)" % (c.name, c.emulator, c.bios, c.machine, c.medium,
                                           ", " + options if options else "")


def run_emu(selected, jobs, tally, results):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(harness.run_case, c, LOGS) for c in selected]
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            results.append(r)
            label = label_of(r.case)
            suite = "emu." + r.case.emulator
            if r.skipped:
                print("SKIP %s: %s" % (label, r.skipped), flush=True)
                tally.add(suite, r.case.name, False, skipped=r.skipped)
            elif r.passed:
                print("PASS %s: %s in %.2f s%s" % (
                    label, r.verdict, r.seconds,
                    " (second run; the first stopped at %r)" % r.retried if r.retried else ""),
                    flush=True)
                tally.add(suite, r.case.name, True, r.seconds)
            else:
                print("FAIL %s: %s in %.2f s" % (label, r.verdict, r.seconds), flush=True)
                for p in r.problems:
                    print("    " + p)
                tail = apmoff_lines(r.serial)[-5:]
                for line in tail:
                    print("    | " + line)
                tally.add(suite, r.case.name, False, r.seconds,
                          message="; ".join(r.problems)[:500],
                          output="\n".join(r.problems + [""] + apmoff_lines(r.serial)))


def real_bios_table(results, update, tally):
    """docs/real-bioses.md's real-BIOS table against the 86Box runs just made, when every 86Box
    case ran (a subset or a machine without 86Box proves nothing about it). The table is
    the kit's boards: one a script makes from the ROM set (box86.MADE_BY) is not on every
    machine, so it would stop the check wherever it is not; docs/real-bioses.md has its own
    section for it. The dump cases are not in it: the table is what each power-off
    interface did, and a dump powers nothing off (docs/dump.md has their figures)."""
    def kit(case):
        return case.emulator == "86box" and case.machine not in box86.MADE_BY and \
            "dump" not in case.groups
    wanted = [c.name for c in CASES if kit(c)]
    ran = {r.case.name: r for r in results if kit(r.case) and not r.skipped}
    if not wanted or set(ran) != set(wanted):
        return
    runs = [dict(name=n, machine=ran[n].case.machine, medium=ran[n].case.medium,
                 bios=ran[n].case.bios, verdict=ran[n].verdict, serial=ran[n].serial)
            for n in wanted]
    failed = [n for n in wanted if ran[n].problems]
    if update and failed:
        print("docs/real-bioses.md: real-BIOS table not written: %d 86Box case%s failed (%s)"
              % (len(failed), "" if len(failed) == 1 else "s", ", ".join(failed)))
        return
    if update:
        board_table.update(runs)
        print("docs/real-bioses.md: real-BIOS table written from %d 86Box runs" % len(runs))
        return
    why = board_table.stale(runs)
    print("%s real-BIOS table (docs/real-bioses.md)%s" % ("FAIL" if why else "PASS",
                                           ": " + why if why else " matches the 86Box runs"))
    tally.add("board-table", "real-BIOS table (docs/real-bioses.md)", not why, message=why)


def run_docs_static(tally):
    """README.md and docs/ against the kernel's sources and the build: the option
    and exit code tables, every shell command known (the long ones dry-run, the
    sessions run), the blocks make docs writes from the build (tests/docs/check.py)."""
    docs_check.static(tally)


def run_recipes(tally):
    """docs/ci.md's emulator CI recipes and the CI example, as written (tests/recipes.py)."""
    recipes.run_all(record=lambda name, ok, seconds, message, skipped="":
                    tally.add("recipes", name, ok, seconds, message, skipped=skipped))


# --- the table of steps ----------------------------------------------------------------

# (name, groups, step, phase): "unit" steps run without --emu-only, "emu" ones
# without --unit-only. The group "quick" is make check, the fast tier: these steps
# and the cases tests/emu/cases.py puts in it (its QUICK); make test runs everything.
STEPS = [
    ("unit-tests", ("unit", "quick"), run_unit, "unit"),
    ("static-checks", ("static", "quick"), run_checks, "unit"),
    ("checker-self-test", ("static", "quick"), run_checker_self_test, "unit"),
    ("fuzz-smoke", ("fuzz",), run_fuzz, "unit"),
    ("aml-asl", ("aml", "quick"), run_aml_asl, "unit"),
    ("aml-corpus", ("aml",), run_aml_corpus, "unit"),
    ("apmoff-collect-units", ("collect", "quick"), run_collect_units, "unit"),
    ("apmoff-collect", ("collect",), run_collect, "unit"),
    ("survey-qr-property", ("qr", "survey"), run_qr_property, "unit"),
    ("apmoff-sweep", ("sweep", "quick"), run_sweep, "unit"),
    ("dist", ("dist",), run_dist, "unit"),
    ("runner-self-test", ("runner", "quick"), run_results_self_test, "unit"),
    ("harness-self-test", ("runner", "quick"), run_harness_self_test, "unit"),
    ("docs-static", ("docs", "static", "quick"), run_docs_static, "unit"),
    ("board-table", ("board-table", "86box"), None, "emu"),
    ("sweep-kit", ("sweep", "86box"), None, "emu"),
    ("make-run-load", ("runner", "qemu"), None, "emu"),
    ("recipes", ("recipes",), run_recipes, "emu"),
    ("docs-pages", ("docs",), None, "emu"),
]


def wanted(groups, args):
    return not args.groups or bool(set(groups) & args.groups)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m tests.run_all",
        description="Runs apmoff's tests and prints `N passed, N failed` last.",
        epilog="example: python3 -m tests.run_all -g bochs,uefi -j 2 --junit build/junit.xml")
    ap.add_argument("-l", "--list", action="store_true",
                    help="list the steps and cases (with their groups), run nothing")
    ap.add_argument("-g", "--group", action="append", default=[],
                    help="only steps and cases in this group (repeat, or a,b)")
    ap.add_argument("-k", default="", help="only emulator cases whose name contains this "
                    "(recipes only when it names them)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="emulators at once (default: the number of CPUs, %(default)s)")
    ap.add_argument("--junit", metavar="FILE", help="also write every result as JUnit XML")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--unit-only", action="store_true", help="no emulator cases")
    only.add_argument("--emu-only", action="store_true", help="only emulator cases")
    ap.add_argument("--update-readme", action="store_true",
                    help="write docs/real-bioses.md's real-BIOS table from the 86Box runs")
    args = ap.parse_args(argv)
    args.groups = {g for arg in args.group for g in arg.split(",") if g}
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    known = {g for _, groups, _, _ in STEPS for g in groups} | \
        {g for c in CASES for g in c.all_groups()} | {"emu"}
    unknown = args.groups - known
    if unknown:
        ap.error("no group %s (-l lists them)" % ", ".join(sorted(unknown)))
    return args


def main(argv=None):
    args = parse_args(argv)
    steps = [s for s in STEPS if wanted(s[1], args)
             and not (args.emu_only and s[3] == "unit") and not (args.unit_only and s[3] == "emu")]
    if args.k and "recipe" not in args.k:
        steps = [s for s in steps if s[0] != "recipes"]
    if args.k and "docs" not in args.k:
        steps = [s for s in steps if s[0] != "docs-pages"]
    if args.k and "sweep" not in args.k:
        steps = [s for s in steps if s[0] != "sweep-kit"]
    if args.k and "make-run" not in args.k:
        steps = [s for s in steps if s[0] != "make-run-load"]
    selected = [] if args.unit_only else [
        c for c in CASES if args.k in c.name and wanted(c.all_groups() + ["emu"], args)]
    if args.list:
        for name, groups, _, phase in steps:
            if phase == "unit":
                print("%-40s %s" % (name, ",".join(groups)))
        for c in selected:
            print("%-40s %s" % (c.name, ",".join(["emu"] + c.all_groups())))
        for name, groups, _, phase in steps:
            if phase == "emu":
                print("%-40s %s" % (name, ",".join(groups)))
        return 0

    tally = Tally()
    for name, _, step, phase in steps:
        if phase == "unit":
            step(tally)
    if not args.unit_only:
        results = []
        run_emu(selected, args.jobs, tally, results)
        if any(s[0] == "board-table" for s in steps):
            real_bios_table(results, args.update_readme, tally)
        if any(s[0] == "sweep-kit" for s in steps):
            # apmoff-sweep on the kit's machines, its own 86Box runs, after the cases'
            # (tests/sweep/test_kit.py): at most two at a time, as the sweep runs.
            sweep_step.run_kit(tally, args.jobs)
        if any(s[0] == "make-run-load" for s in steps):
            run_make_run_load(tally)
        if any(s[0] == "recipes" for s in steps):
            run_recipes(tally)
        if any(s[0] == "docs-pages" for s in steps):
            # The pages' runnable commands, and their examples and blocks against the
            # serial logs of the cases just run (tests/docs/check.py).
            docs_check.live(tally, results)
    print(tally.summary())
    if args.junit:
        tally.write_junit(args.junit)
    return 1 if tally.count("fail") or not tally.count("pass") else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:             # -l | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
