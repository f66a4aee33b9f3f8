#!/usr/bin/env python3
"""make test: the host unit tests, then every emulator case, then one summary line.

Unit test binaries (build/tests/test_*) speak TAP through cmocka; the emulator cases
come from tests/emu/cases.py and run two at a time (the machine has two cores).
Failed emulator runs keep their serial and emulator logs in build/test-logs/.

    tests/run_all.py [--unit-only | --emu-only] [-k SUBSTRING]
"""

import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "emu"))

import harness  # noqa: E402
import realbios  # noqa: E402
from cases import CASES  # noqa: E402

sys.path.insert(0, HERE)
import check_floppy  # noqa: E402
import check_grub_patch  # noqa: E402
import check_insns  # noqa: E402
import check_menu  # noqa: E402
import check_realmode  # noqa: E402
import recipes  # noqa: E402

LOGS = os.path.join(harness.BUILD, "test-logs")


def run_unit():
    passed = failed = 0
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    binaries = sorted(glob.glob(os.path.join(harness.BUILD, "tests", "test_*")))
    if not binaries:
        print("not ok - no unit test binaries in build/tests (run make unit-bin)")
        return 0, 1
    for binary in binaries:
        name = os.path.basename(binary)
        proc = subprocess.run([binary], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120)
        out = proc.stdout.decode(errors="replace")
        ok = len(re.findall(r"^ok \d+", out, re.M))
        skip = len(re.findall(r"^(?:not )?ok \d+.*# SKIP", out, re.M))
        bad = len(re.findall(r"^not ok \d+", out, re.M)) - skip
        ok -= len(re.findall(r"^ok \d+.*# SKIP", out, re.M))
        if skip:
            print("SKIP %s: %d skipped (see its output)" % (name, skip))
            if os.environ.get("CI"):    # deps.sh installed every tool: nothing may skip
                print("FAIL %s: skipped tests in CI (CI is set)" % name)
                bad += skip
        if proc.returncode and not bad:
            bad = 1                    # crashed or failed outside a test
        passed += ok
        failed += bad
        print("%s %s: %d passed, %d failed" % ("PASS" if not bad else "FAIL", name, ok, bad))
        if bad:
            print("\n".join("    " + l for l in out.splitlines()))
    return passed, failed


def run_checker_self_test():
    """The 386 checker itself must still catch what it exists to catch."""
    return (1, 0) if check_insns.self_test() else (0, 1)


def run_checks():
    """The kernel uses no instruction a 386 lacks outside its guarded helpers; the
    GRUB patch for CPUs without CR4 changes what it should and refuses the rest; the
    boot menu offers every action with a countdown a person can use; every CR0 write
    of the trampoline is followed by a far jump, and the GDT is 16-byte aligned
    (check_realmode.py); every floppy image loads its core in each drive that takes
    its disk, and one that outgrows its format fails the build (check_floppy.py)."""
    passed = failed = 0
    for ok, messages in (check_insns.check(os.path.join(harness.BUILD, "apmoff.elf")),
                         check_grub_patch.check(), check_menu.check(),
                         check_realmode.check(harness.BUILD),
                         check_floppy.check(harness.BUILD)):
        print("\n".join(messages))
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    return passed, failed


def run_fuzz():
    """Each libFuzzer target briefly (make fuzz-smoke): a crash is a failure."""
    proc = subprocess.run(["make", "-s", "--no-print-directory", "fuzz-smoke"],
                          cwd=os.path.dirname(HERE), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    out = proc.stdout.decode(errors="replace")
    passed = len(re.findall(r"^PASS fuzz_", out, re.M))
    failed = len(re.findall(r"^FAIL fuzz_", out, re.M))
    if proc.returncode and not failed:
        failed = 1
    for line in out.splitlines():
        if line.startswith(("PASS fuzz_", "FAIL fuzz_")) or failed:
            print(line)
    return passed, failed


def run_emu(selected, results):
    passed = failed = skipped = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(harness.run_case, c, LOGS) for c in selected]
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            results.append(r)
            c = r.case
            label = "%s (%s, %s BIOS, %s, %s%s)" % (
                c.name, c.emulator, c.bios, c.machine, c.medium,
                ", " + c.options if c.options else "")
            if r.skipped:
                skipped += 1
                print("SKIP %s: %s" % (label, r.skipped), flush=True)
            elif r.passed:
                passed += 1
                print("PASS %s: %s in %.2f s%s" % (
                    label, r.verdict, r.seconds,
                    " (second run; the first stopped at %r)" % r.retried if r.retried else ""),
                    flush=True)
            else:
                failed += 1
                print("FAIL %s: %s in %.2f s" % (label, r.verdict, r.seconds), flush=True)
                for p in r.problems:
                    print("    " + p)
                tail = harness.apmoff_lines(r.serial)[-5:]
                for line in tail:
                    print("    | " + line)
    return passed, failed, skipped


def run_recipes(k):
    """README's emulator CI recipes and the CI example, as written (tests/recipes.py);
    with -k only when it names them."""
    return recipes.run_all() if not k or "recipe" in k else (0, 0)


def real_bios_table(selected, results, update):
    """README's real-BIOS table against the 86Box runs just made, when every 86Box
    case ran (a -k subset or a machine without 86Box proves nothing about it)."""
    wanted = [c.name for c in CASES if c.emulator == "86box"]
    ran = {r.case.name: r for r in results if r.case.emulator == "86box" and not r.skipped}
    if not wanted or set(ran) != set(wanted):
        return 0, 0
    runs = [dict(name=n, machine=ran[n].case.machine, medium=ran[n].case.medium,
                 bios=ran[n].case.bios, verdict=ran[n].verdict, serial=ran[n].serial)
            for n in wanted]
    if update:
        realbios.update(runs)
        print("README.md: real-BIOS table written from %d 86Box runs" % len(runs))
        return 0, 0
    why = realbios.stale(runs)
    print("%s README real-BIOS table%s" % ("FAIL" if why else "PASS",
                                           ": " + why if why else " matches the 86Box runs"))
    return (0, 1) if why else (1, 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit-only", action="store_true")
    ap.add_argument("--emu-only", action="store_true")
    ap.add_argument("-k", default="", help="only emulator cases whose name contains this")
    ap.add_argument("--update-readme", action="store_true",
                    help="write README's real-BIOS table from the 86Box runs")
    args = ap.parse_args()

    passed = failed = skipped = 0
    if not args.emu_only:
        for step in (run_unit, run_checks, run_checker_self_test, run_fuzz):
            p, f = step()
            passed += p
            failed += f
        passed, failed = __import__("collect.step").step.run(passed, failed)
    if not args.unit_only:
        selected = [c for c in CASES if args.k in c.name]
        results = []
        passed, failed, skipped = (a + b for a, b in zip((passed, failed, skipped),
                                                          run_emu(selected, results)))
        p, f = real_bios_table(selected, results, args.update_readme)
        passed += p
        failed += f
        p, f = run_recipes(args.k)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed)
          + (", %d skipped" % skipped if skipped else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
