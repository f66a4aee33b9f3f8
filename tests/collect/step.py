"""tests.run_all's step for apmoff-collect: runs tests/collect/test_collect.py
(unit tests, then the end-to-end run with live emulators and headless Chromium),
tests/collect/test_hostile.py (strangers' files: limits, schema, escaping, exit
codes, the everyday commands), test_bounds.py (time in proportion to the input,
every limit for every kind of file, the memory bound, pictures of any size),
test_output.py (no write through a link, CSV cells, the terminal, names and
encodings, two adds at once), test_dumps.py (action=dump's reader, its files, and
the emulator cases' judge of them) and fuzz_collect.py (the parsers' fuzz targets,
briefly: `make fuzz` runs them longer), and records their TAP lines the way run_all
records the unit test binaries."""

import importlib
import re
import subprocess
import sys
import time

from tests.paths import ROOT

TAP_LINE = re.compile(r"^(not )?ok \d+ (\S+)(.*# SKIP.*)?", re.M)


COLLECT = "tests.collect.test_collect"
LIVE = "EndToEnd"           # its live emulators and headless Chromium
MODULES = ("tests.collect.test_hostile", "tests.collect.test_bounds",
           "tests.collect.test_output", "tests.collect.test_dumps",
           "tests.collect.fuzz_collect")


def unit_classes():
    """test_collect's test classes but the live one: seconds, where the rest takes
    minutes (make check runs these only)."""
    import unittest
    module = importlib.import_module(COLLECT)
    return sorted(name for name, obj in vars(module).items()
                  if isinstance(obj, type) and issubclass(obj, unittest.TestCase)
                  and obj.__module__ == module.__name__ and name != LIVE
                  and unittest.defaultTestLoader.getTestCaseNames(obj))


def run_units(tally):
    run_module(tally, COLLECT, args=unit_classes())


def run(tally):
    """The rest: the live run, then each other module; one record in `tally`
    (tests/results.py) a test."""
    run_module(tally, COLLECT, args=[LIVE])
    for module in MODULES:
        run_module(tally, module)


def run_module(tally, module, args=(), suite="collect", label="apmoff-collect",
               timeout=900):
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", module, "--tap"] + list(args),
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout)
    out = proc.stdout.decode(errors="replace")
    ok = skip = bad = 0
    for m in TAP_LINE.finditer(out):
        if m.group(1):
            bad += 1
            tally.add(suite, m.group(2), False, output=out)
        elif m.group(3):
            skip += 1
            tally.add(suite, m.group(2), False, skipped=m.group(3).split("# SKIP", 1)[1])
        else:
            ok += 1
            tally.add(suite, m.group(2), True)
    if proc.returncode and not bad:
        bad = 1                        # crashed, or failed outside a test
        tally.add(suite, module, False, time.monotonic() - start,
                  message="exit status %d" % proc.returncode, output=out)
    if skip:
        print("SKIP %s: %d skipped (see python3 -m %s -v)" % (label, skip, module))
    print("%s %s (%s): %d passed, %d failed"
          % ("FAIL" if bad else "PASS", label, module, ok, bad), flush=True)
    if bad:
        print("\n".join("    " + l for l in out.splitlines()))
