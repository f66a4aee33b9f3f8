"""`make run ARGS="action=reboot"`: the run goes on into the next boot, which says how
the last one ended (README: "the next boot says how the last run ended"), and make run
exits 0 (0.3 exited 1, so make failed with Error 1, and showed no next boot).

    python3 -m tests.emu.make_run_reboot
"""

import re
import subprocess
import sys
import time

from tests.paths import ELF, ROOT

TIMEOUT = 120
NEXT_BOOT = re.compile(r"^make run: the guest reset the machine \(QEMU: RESET guest-reset\), "
                       r"and the next boot said: the previous run asked for a reset via kbd",
                       re.M)


def run():
    """(seconds, problems) of one run."""
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "tests.emu.run", "--args",
                               "action=reboot reset=kbd", "--timeout", "90", ELF], cwd=ROOT,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return time.monotonic() - start, ["no verdict within %d s" % TIMEOUT]
    out = proc.stdout.decode("latin-1")
    problems = []
    if not NEXT_BOOT.search(out):
        problems.append("no `make run: ... the next boot said: the previous run asked for "
                        "a reset via kbd` line; the last lines: %s"
                        % " | ".join(out.strip().splitlines()[-3:]))
    if proc.returncode:
        problems.append("make run exited %d" % proc.returncode)
    return time.monotonic() - start, problems


if __name__ == "__main__":
    seconds, found = run()
    print("%s make run ARGS=\"action=reboot\" (%.1f s)%s" % (
        "FAIL" if found else "PASS", seconds, "".join("\n    " + p for p in found)))
    print("%d passed, %d failed" % (0 if found else 1, 1 if found else 0))
    sys.exit(1 if found else 0)
