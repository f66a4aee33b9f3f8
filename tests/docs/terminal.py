"""`make run` on a terminal, as README.md promises it: keys reach GRUB's menu, the
kernel's lines arrive, one verdict line ends the run, and the terminal is left as it
was found (its settings, and GRUB's drawing kept on the alternate screen).

A pseudo-terminal plays the person: at the menu it presses Down and Enter (the second
entry, the survey), on the QR screen a key. Used by check.live().

    problems() -> [what make run did not do]
"""

import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time

from tests.paths import ISO, ROOT, VERSION

DOWN, ENTER = b"\x1b[B", b"\r"
ALT_ON, ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
DRAWING = re.compile(rb"\x1b\[(?:H|J|2J|\?25l|7m)")      # what GRUB draws with
VERDICT = "make run: the guest halted: survey complete (action=survey)"
STEPS = ((b"The highlighted entry will be executed", DOWN + ENTER),
         (b"survey screen: showing for", b"x"))
TIMEOUT = 90


def session():
    """(output bytes, settings before, settings after) of one make run on a pty."""
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "tests.emu.run", "--timeout", "60", ISO],
                            cwd=ROOT, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    out, step, deadline = b"", 0, time.monotonic() + TIMEOUT
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                out += os.read(master, 65536)
            if step < len(STEPS) and STEPS[step][0] in out:
                time.sleep(0.5)                 # GRUB reads keys once it has drawn
                os.write(master, STEPS[step][1])
                step += 1
        while select.select([master], [], [], 0.2)[0]:
            try:
                out += os.read(master, 65536)
            except OSError:
                break
        after = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
        os.close(slave)
    return out, before, after


def problems():
    out, before, after = session()
    found = []
    if out.count(ALT_ON) != 1 or out.count(ALT_OFF) != 1:
        found.append("the alternate screen was entered %d times and left %d times, not once "
                     "each" % (out.count(ALT_ON), out.count(ALT_OFF)))
    else:
        start, end = out.index(ALT_ON), out.index(ALT_OFF)
        outside = [m.group() for m in DRAWING.finditer(out) if not start < m.start() < end]
        if outside:
            found.append("GRUB's drawing reached the main screen: %r" % outside[:3])
    text = out.decode("latin-1").replace("\r", "")
    title = "apmoff %s: power off through APM" % VERSION
    if title not in text:
        found.append("GRUB's menu does not show %r (the version in the titles)" % title)
    if 'apmoff: boot: command line "action=survey wait=300"' not in text:
        found.append("Down and Enter did not reach GRUB's menu (no survey entry booted)")
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines or lines[-1] != VERDICT:
        found.append("the last line is %r, not %r" % (lines[-1] if lines else "", VERDICT))
    if before != after:
        found.append("the terminal's settings differ after the run")
    return found
