#!/usr/bin/env python3
"""make run: boot an apmoff image in QEMU, headless, with the serial console on this
terminal, and return when the guest powers off (or after a timeout).

    python3 -m tests.emu.run IMAGE.iso [--timeout SECONDS] [-- extra QEMU arguments]

Exit status 0 when QEMU reported the guest's power-off, 1 otherwise.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from tests.emu.qemu import Qmp
from tests.emu.watch import kill_group


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="apmoff-run-")
    qmp_path = os.path.join(workdir, "qmp.sock")
    cmd = ["qemu-system-i386", "-S", "-display", "none", "-no-reboot", "-nodefaults",
           "-vga", "std", "-serial", "stdio", "-cdrom", args.image,
           "-qmp", "unix:%s,server=on,wait=off" % qmp_path] + args.extra
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + args.timeout
    outcome = "no power-off within %g s" % args.timeout
    try:
        qmp = Qmp(qmp_path, deadline)
        qmp.command("qmp_capabilities", deadline)
        qmp.command("cont", deadline)
        while time.monotonic() < deadline and not qmp.closed:
            events = [e for e in qmp.poll_events(0.1) if e["event"] == "SHUTDOWN"]
            if events:
                reason = events[0].get("data", {}).get("reason", "?")
                outcome = "QEMU reported SHUTDOWN, reason %s" % reason
                break
        else:
            if qmp.closed:
                outcome = "QEMU exited"
    except KeyboardInterrupt:
        outcome = "interrupted"
    finally:
        kill_group(proc)
        for name in os.listdir(workdir):
            os.unlink(os.path.join(workdir, name))
        os.rmdir(workdir)
    print("\nmake run: %s" % outcome, file=sys.stderr)
    return 0 if outcome.endswith("guest-shutdown") else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
