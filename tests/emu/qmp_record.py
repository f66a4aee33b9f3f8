"""Records what QEMU says over QMP, and how it exits, for one kind of run's end: the
fixtures in tests/emu/fixtures/qmp/ that tests/emu/test_outcome.py replays through
the harness's judge (qemu.follow()), one file for each kind and QEMU version.

    python3 -m tests.emu.qmp_record KIND [OUT.json]

KIND is poweroff (action=off), exit (action=survey wait=0 onfail=exit: the guest
writes isa-debug-exit) or reset (every power-off call failed on purpose, then
onfail=reboot under -no-reboot). The kernel is build/apmoff.elf, booted by -kernel on
QEMU's pc machine, as the harness boots it. OUT defaults to
tests/emu/fixtures/qmp/KIND-qemu<MAJOR>.<MINOR>.json.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from tests.emu.qemu import Qmp
from tests.emu.watch import kill_group
from tests.paths import BUILD, ROOT

KINDS = {
    "poweroff": ("action=off", "poweroff"),
    "exit": ("action=survey wait=0 onfail=exit", "exit:17"),
    "reset": ("action=off inject=rm-off,pm32-off,pm16-off onfail=reboot", "reset"),
}
FIXTURES = os.path.join(ROOT, "tests", "emu", "fixtures", "qmp")


def record(kind, timeout=60):
    words, expect = KINDS[kind]
    with tempfile.TemporaryDirectory(prefix="apmoff-qmp-") as tmp:
        sock = os.path.join(tmp, "qmp.sock")
        proc = subprocess.Popen(
            ["qemu-system-i386", "-S", "-display", "none", "-no-reboot", "-nodefaults",
             "-vga", "std", "-serial", "file:" + os.path.join(tmp, "serial.txt"),
             "-qmp", "unix:%s,server=on,wait=off" % sock,
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
             "-kernel", os.path.join(BUILD, "apmoff.elf"), "-append", words],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + timeout
        try:
            qmp = Qmp(sock, deadline)
            qmp.command("qmp_capabilities", deadline)
            version = qmp.command("query-version", deadline)["return"]["qemu"]
            qmp.command("cont", deadline)
            while not qmp.closed and time.monotonic() < deadline:
                qmp.poll_events(0.1)
            status = proc.wait(timeout=max(1, deadline - time.monotonic()))
        finally:
            kill_group(proc)
    # Timestamps vary from run to run and are not what is judged.
    events = [{k: v for k, v in ev.items() if k != "timestamp"} for ev in qmp.events]
    return {"qemu": "%d.%d.%d" % (version["major"], version["minor"], version["micro"]),
            "kind": kind, "kernel words": words, "events": events,
            "exit status": status, "expect": expect}


def main():
    ap = argparse.ArgumentParser(prog="python3 -m tests.emu.qmp_record",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("out", nargs="?")
    args = ap.parse_args()
    rec = record(args.kind)
    major, minor = rec["qemu"].split(".")[:2]
    out = args.out or os.path.join(FIXTURES, "%s-qemu%s.%s.json" % (args.kind, major, minor))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    print("%s: QEMU %s, %d events, exit status %d" % (out, rec["qemu"], len(rec["events"]),
                                                      rec["exit status"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
