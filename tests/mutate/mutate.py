#!/usr/bin/env python3
"""make mutate: plant each bug of tests/mutate/mutants.py in a scratch copy of the
tree, one at a time, and prove the tests catch it.

For each planted bug: build, run the smallest test subset that should catch it
(a unit test binary, one emulator case, a command); if that subset passes, run the
whole `make test` suite (python3 -m tests.run_all) too. A bug is KILLED when a test fails,
SURVIVED when everything passes. The copy (the files git knows, as they are in the
working tree) is built once and then rebuilt incrementally, the original file put
back after each bug. Emulators run as tests.run_all runs them (-j: one a CPU).

    python3 -m tests.mutate.mutate [--list] [-k SUBSTRING] [--no-full] [--keep]
    python3 -m tests.mutate.mutate --check [-k SUBSTRING] [--keep]    (make mutate-check)

A run of the whole table (no -k, no --no-full) writes its result into docs/testing.md.

--check judges make check, the fast tier (run_all's group "quick"), instead: each
bug's subset as far as it lies inside the tier (its emulator cases that are in the
group; its unit test), and where that misses it, the whole tier. A bug it misses is
named with the cases outside the tier that its subset needs: those are the emulator
configurations only make test shows. Written to docs/testing.md's mutate-check block
when the whole table ran.

Exit status: 0 when every planted bug was killed; 1 when one survived; 2 when the
table is wrong (a snippet not found exactly once, a bug that does not build) or the
unmutated copy does not build or pass its subsets.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

from tests.docs import blocks
from tests.mutate.mutants import MUTANTS

SUBSET_TIMEOUT = 600
FULL_TIMEOUT = 1800


def log(msg):
    print(msg, flush=True)


def validate(mutants):
    """Every snippet must occur exactly once: a table row that matches nothing (the
    code moved on) or several places would plant nothing or the wrong bug."""
    problems = []
    for m in mutants:
        path = os.path.join(ROOT, m.file)
        if not os.path.exists(path):
            problems.append("%s: %s does not exist" % (m.id, m.file))
            continue
        with open(path) as f:
            n = f.read().count(m.old)
        if n != 1:
            problems.append("%s: the snippet occurs %d times in %s (must be once)"
                            % (m.id, n, m.file))
        if not m.tests:
            problems.append("%s: no test subset named" % m.id)
    return problems


def copy_tree(dest):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"],
                           cwd=ROOT, check=True, capture_output=True).stdout
    for name in files.decode().split("\0"):
        if not name or not os.path.isfile(os.path.join(ROOT, name)):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, name)) or dest, exist_ok=True)
        shutil.copy2(os.path.join(ROOT, name), os.path.join(dest, name))


def run(cmd, cwd, timeout, shell=False):
    """(ok, output) of a command; a timeout is a failure."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, shell=shell, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
        return proc.returncode == 0, proc.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return False, (e.stdout or b"").decode(errors="replace") + "\n(timed out)"


def build(tree, targets):
    return run(["make", "-s", "--no-print-directory", "-j2"] + targets, tree, 900)


def subset_targets(tests):
    targets = set()
    for t in tests:
        kind, _, arg = t.partition(":")
        targets.add(os.path.join("build", "tests", arg) if kind == "unit" else "all")
    return sorted(targets)


def run_subset(tree, tests):
    """(caught, by whom, output): the first test of the subset that fails."""
    for t in tests:
        kind, _, arg = t.partition(":")
        if kind == "unit":
            ok, out = run([os.path.join(tree, "build", "tests", arg)], tree, SUBSET_TIMEOUT)
        elif kind == "emu":
            ok, out = run([sys.executable, "-m", "tests.run_all", "--emu-only", "-k", arg],
                          tree, SUBSET_TIMEOUT)
            if "0 passed, 0 failed" in out:
                return False, "", "no emulator case matches %r" % arg
        elif kind == "cmd":
            ok, out = run(arg, tree, SUBSET_TIMEOUT, shell=True)
        else:
            raise ValueError("unknown test kind %r" % t)
        if not ok:
            return True, t, out
    return False, "", ""


def run_subset_quick(tree, tests):
    """(caught, by whom, output): the subset as far as it lies inside make check;
    None for caught when none of it does (a command, or only cases outside)."""
    inside = []
    for t in tests:
        kind, _, arg = t.partition(":")
        if kind == "unit":
            inside.append(t)
        elif kind == "emu":
            ok, out = run([sys.executable, "-m", "tests.run_all", "--emu-only", "-g", "quick",
                           "-k", arg], tree, SUBSET_TIMEOUT)
            if "0 passed, 0 failed" in out:
                continue
            if not ok:
                return True, t + " (its cases in make check)", out
            inside.append(t)
    if not inside:
        return None, "", ""
    caught, by, out = run_subset(tree, [t for t in inside if t.startswith("unit:")])
    return caught, by, out


def run_quick(tree):
    ok, out = build(tree, ["all", "unit-bin"])
    if not ok:
        return None, out
    ok, out = run([sys.executable, "-m", "tests.run_all", "-g", "quick"], tree, FULL_TIMEOUT)
    return not ok, out


def outside_cases(tests):
    """The emulator cases a bug's subset names that make check leaves out."""
    from tests.emu.cases import CASES
    names = []
    for t in tests:
        kind, _, arg = t.partition(":")
        if kind == "emu":
            names += [c.name for c in CASES if arg in c.name and "quick" not in c.groups]
    return names


def check_tier(tree, mutants):
    """--check: which planted bugs make check catches. 0 when every bug is caught
    or only cases outside the tier can show it; 1 when the tier misses one its own
    cases should catch."""
    start = time.monotonic()
    caught_by_check, outside, missed, whole_tier = [], [], [], set()
    for i, m in enumerate(mutants, 1):
        t0 = time.monotonic()
        with planted(tree, m) as bug:
            if not bug.built:
                log("[%d/%d] INVALID  %s: does not build" % (i, len(mutants), m.id))
                missed.append(m)
                continue
            caught, by, out = run_subset_quick(tree, m.tests)
            if not caught:
                caught, out = run_quick(tree)
                by = "make check"
                whole_tier.add(m.id)
        if caught:
            caught_by_check.append(m)
            log("[%d/%d] CAUGHT   %-24s by %s (%.1f s)" % (i, len(mutants), m.id, by,
                                                        time.monotonic() - t0))
        elif outside_cases(m.tests):
            outside.append(m)
            log("[%d/%d] OUTSIDE  %-24s only %s show it" % (
                i, len(mutants), m.id, ", ".join(outside_cases(m.tests))))
        else:
            missed.append(m)
            log("[%d/%d] MISSED   %-24s %s" % (i, len(mutants), m.id, m.why))
    elapsed = time.monotonic() - start
    log("mutate --check: make check catches %d of %d planted bugs; %d only cases outside "
        "it show; %d missed; in %d min %02d s" % (len(caught_by_check), len(mutants),
                                                 len(outside), len(missed),
                                                 elapsed // 60, elapsed % 60))
    if len(mutants) == len(MUTANTS):
        by_tier = sum(1 for m in caught_by_check if m.id in whole_tier)
        line = ("Latest `--check` run (%s): **make check catches %d of %d planted bugs**%s; "
                "%d by the part of their subset inside it, %d (their subset outside it or a "
                "command) by a whole run of it; %d min %02d s.\n" % (
                    time.strftime("%Y-%m-%d"), len(caught_by_check), len(mutants),
                    "; only cases it leaves out show %s" % ", ".join(
                        "%s (%s)" % (m.id, ", ".join(outside_cases(m.tests)))
                        for m in outside) if outside else "",
                    len(caught_by_check) - by_tier, by_tier, elapsed // 60, elapsed % 60))
        if blocks.write(os.path.join(ROOT, "docs", "testing.md"), "mutate-check", line):
            log("mutate: docs/testing.md's mutate-check block written")
    return 1 if missed else 0


class planted:
    """The bug planted in the copy, and its subset's targets built, for the length of
    a with block (`as bug`: bug.built, bug.output); the original put back after."""

    def __init__(self, tree, m):
        self.path, self.m = os.path.join(tree, m.file), m
        self.tree = tree

    def __enter__(self):
        with open(self.path) as f:
            self.original = f.read()
        with open(self.path, "w") as f:
            f.write(self.original.replace(self.m.old, self.m.new, 1))
        os.utime(self.path)                                 # newer than its objects
        self.built, self.output = build(self.tree, subset_targets(self.m.tests))
        return self

    def __exit__(self, *exc):
        with open(self.path, "w") as f:
            f.write(self.original)
        os.utime(self.path)


def run_full(tree):
    ok, out = build(tree, ["all", "unit-bin", "fuzz-bin"])
    if not ok:
        return None, out
    ok, out = run([sys.executable, "-m", "tests.run_all"], tree, FULL_TIMEOUT)
    return not ok, out


def record_run(killed, total, invalid, elapsed):
    """A whole run's result, in docs/testing.md's `mutate-run` block (tests/docs/blocks.py):
    a measurement of its day, so it says the day, the machine and the table's size."""
    line = ("Latest run (%s, a %d-core machine, a table of %d bugs then): **%d of %d planted "
            "bugs killed (%.0f%%)** in %d min %02d s%s.\n" % (
                time.strftime("%Y-%m-%d"), os.cpu_count() or 1, len(MUTANTS), killed, total,
                100.0 * killed / total if total else 0.0, elapsed // 60, elapsed % 60,
                "; %d rows no longer apply" % invalid if invalid else ""))
    if blocks.write(os.path.join(ROOT, "docs", "testing.md"), "mutate-run", line):
        log("mutate: docs/testing.md's mutate-run block written")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="The table: tests/mutate/mutants.py")
    ap.add_argument("--list", action="store_true", help="print the table and exit")
    ap.add_argument("-k", default="", help="only bugs whose id or file contains this")
    ap.add_argument("--no-full", action="store_true",
                    help="do not run the whole suite when a subset misses a bug")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy")
    ap.add_argument("--check", action="store_true",
                    help="judge make check (the fast tier) instead of the whole suite")
    args = ap.parse_args()

    mutants = [m for m in MUTANTS if args.k in m.id or args.k in m.file]
    if args.list:
        for m in mutants:
            log("%-24s %-26s %-34s %s" % (m.id, m.file, ", ".join(m.tests), m.why))
        log("%d planted bugs" % len(mutants))
        return 0
    problems = validate(mutants)
    if problems:
        for p in problems:
            log("error: " + p)
        return 2
    if not mutants:
        log("error: no planted bug matches -k %r" % args.k)
        return 2

    start = time.monotonic()
    tree = tempfile.mkdtemp(prefix="apmoff-mutate-")
    status = 0
    try:
        log("mutate: copying the tree to %s and building it" % tree)
        copy_tree(tree)
        ok, out = build(tree, ["all", "unit-bin"])
        if not ok:
            log(out[-3000:])
            log("error: the unmutated copy does not build")
            return 2
        # The subsets must pass before any bug is planted, or a kill proves nothing.
        for tests in sorted({tuple(m.tests) for m in mutants}):
            caught, by, out = run_subset(tree, list(tests))
            if caught or out:
                log(out[-3000:])
                log("error: %s fails on the unmutated copy" % (by or ", ".join(tests)))
                return 2
        log("mutate: the unmutated copy passes every subset; planting %d bugs"
            % len(mutants))
        if args.check:
            return check_tier(tree, mutants)

        killed, survived, invalid = [], [], []
        for i, m in enumerate(mutants, 1):
            t0 = time.monotonic()
            with planted(tree, m) as bug:
                if not bug.built:
                    invalid.append(m)
                    log("[%d/%d] INVALID  %s (%s): does not build\n%s" % (
                        i, len(mutants), m.id, m.file, bug.output[-1500:]))
                    continue
                caught, by, out = run_subset(tree, m.tests)
                if not caught and not args.no_full:
                    log("[%d/%d] %s: missed by %s; running the whole suite" % (
                        i, len(mutants), m.id, ", ".join(m.tests)))
                    caught, out = run_full(tree)
                    by = "the whole suite"
                    if caught is None:
                        invalid.append(m)
                        log("[%d/%d] INVALID  %s: does not build for the whole suite"
                            % (i, len(mutants), m.id))
                        continue
                (killed if caught else survived).append(m)
                log("[%d/%d] %s %-24s %-26s %s (%.1f s)" % (
                    i, len(mutants), "KILLED  " if caught else "SURVIVED", m.id, m.file,
                    "by " + by if caught else m.why, time.monotonic() - t0))

        total = len(killed) + len(survived)
        elapsed = time.monotonic() - start
        rate = 100.0 * len(killed) / total if total else 0.0
        log("mutate: %d of %d planted bugs killed (%.0f%%), %d survived, %d invalid, "
            "in %d min %02d s" % (len(killed), total, rate, len(survived), len(invalid),
                                 elapsed // 60, elapsed % 60))
        for m in survived:
            log("    survived: %s (%s): %s" % (m.id, m.file, m.why))
        if len(mutants) == len(MUTANTS) and not args.no_full:
            record_run(len(killed), total, len(invalid), elapsed)
        if invalid:
            status = 2
        elif survived:
            status = 1
        return status
    finally:
        if args.keep:
            log("mutate: scratch copy kept in %s" % tree)
        else:
            shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
