"""tests/run_all.py's step for apmoff-collect: runs tests/collect/test_collect.py
(unit tests, then the end-to-end run with live emulators and headless Chromium) and
counts its TAP lines the way run_all counts the unit test binaries."""

import os
import re
import subprocess
import sys

TEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_collect.py")


def run(passed=0, failed=0):
    """(passed, failed) with this step's counts added."""
    proc = subprocess.run([sys.executable, TEST, "--tap"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    out = proc.stdout.decode(errors="replace")
    ok = len(re.findall(r"^ok \d+(?!.*# SKIP)", out, re.M))
    skip = len(re.findall(r"^ok \d+.*# SKIP", out, re.M))
    bad = len(re.findall(r"^not ok \d+", out, re.M))
    if proc.returncode and not bad:
        bad = 1                        # crashed, or failed outside a test
    if skip:
        print("SKIP apmoff-collect: %d skipped (see tests/collect/test_collect.py -v)" % skip)
    print("%s apmoff-collect (tests/collect): %d passed, %d failed"
          % ("FAIL" if bad else "PASS", ok, bad), flush=True)
    if bad:
        print("\n".join("    " + l for l in out.splitlines()))
    return passed + ok, failed + bad


if __name__ == "__main__":
    p, f = run()
    sys.exit(1 if f or not p else 0)
