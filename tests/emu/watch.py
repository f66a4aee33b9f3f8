"""What every emulator runner shares: following the guest's serial log until the run
has settled, and ending the process group the runner started."""

import os
import re
import signal
import subprocess
import time

# How long to keep watching after the serial log says the run is over (a halted
# line, or the line a hang is expected after): long enough for any power-off the
# emulator might still report, short enough not to wait out every timeout.
SETTLE_SECONDS = 1.5

# GRUB draws its menu on the serial terminal with ANSI sequences; they are not text.
ANSI_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z])")


def apmoff_lines(text):
    return [l.rstrip("\r") for l in text.splitlines() if l.startswith("apmoff: ")]


def loader_lines(text):
    """The floppy loader's own lines (loader/), which come before the kernel's."""
    return [l.rstrip("\r") for l in text.splitlines() if l.startswith("apmoff loader: ")]


class SerialWatch:
    """Follows the serial log file and notices when the run has settled."""

    def __init__(self, path, case):
        self.path = path
        self.case = case
        self.settled_at = None

    def text(self):
        try:
            with open(self.path, "rb") as f:
                text = f.read().decode("latin-1")
        except FileNotFoundError:
            return ""
        return ANSI_ESCAPE.sub("", text).replace("\r", "")

    def settled(self):
        """True once the run is over as far as the guest is concerned and the
        settle time has passed without the emulator reporting anything."""
        if self.settled_at is None:
            text = self.text()
            lines = apmoff_lines(text)
            over = any(l.startswith("apmoff: halted:") for l in lines) or any(
                l.startswith("apmoff loader: halted:") for l in loader_lines(text))
            if self.case.hang_after:
                # before the kernel speaks, the loader's lines are the run's
                seen = lines or loader_lines(text)
                over = over or any(re.search(self.case.hang_after, l) for l in seen)
            if over:
                self.settled_at = time.monotonic()
            return False
        return time.monotonic() - self.settled_at >= SETTLE_SECONDS


def poll(deadline, step, every=0.05):
    """Calls step() every `every` seconds until it returns a verdict, or until the
    deadline (time.monotonic()) passes: then "timeout". The runners' one loop."""
    while time.monotonic() < deadline:
        verdict = step()
        if verdict:
            return verdict
        time.sleep(every)
    return "timeout"


def kill_group(proc):
    """Ends the process group we started, and reaps it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
