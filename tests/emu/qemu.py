"""Boot a case in QEMU and judge it from what QEMU did (outcome()): its QMP events,
then its exit status. The guest starts paused, so no event is missed. The case's
probes (judges and the actions below) are called on each turn of the loop and once
at the end, while QMP still answers."""

import json
import os
import re
import select
import shutil
import socket
import subprocess
import time

from tests.biosrom import build as biosrom
from tests.emu.case import Probe, Run
from tests.emu.images import image_for, is_floppy
from tests.emu.judges import text_screen
from tests.emu.watch import SerialWatch, kill_group
from tests.paths import BUILD, ROOT

OVMF = "/usr/share/ovmf/OVMF.fd"             # x86_64 UEFI firmware (qemu-system-x86_64)
# ia32 UEFI: Debian ships only a secure-boot build, which needs SMM and a writable copy
# of its variable store; that store has no keys enrolled, so secure boot is off.
OVMF32_CODE = "/usr/share/OVMF/OVMF32_CODE_4M.secboot.fd"
OVMF32_VARS = "/usr/share/OVMF/OVMF32_VARS_4M.fd"

# A run that timed out: the BIOS's or the loader's last words, read off the screen.
STUCK_SCREEN = "timeout-screen.txt"


class Qmp:
    def __init__(self, path, deadline):
        self.sock = None
        while time.monotonic() < deadline:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                self.sock = s
                break
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                time.sleep(0.02)
        if not self.sock:
            raise RuntimeError("QMP socket never appeared")
        self.buf = b""
        self.closed = False
        self.events = []

    def _messages(self, timeout):
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return []
        data = self.sock.recv(65536)
        if not data:
            self.closed = True
            return []
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if line.strip():
                out.append(json.loads(line))
        return out

    def command(self, name, deadline, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while time.monotonic() < deadline and not self.closed:
            for m in self._messages(0.1):
                if "event" in m:
                    self.events.append(m)
                elif "return" in m or "error" in m:
                    return m
        return None

    def poll_events(self, timeout):
        for m in self._messages(timeout):
            if "event" in m:
                self.events.append(m)
        return self.events


# --- actions: what a case does to the running guest ----------------------------------

class NmiAfter(Probe):
    """Inject an NMI (QMP inject-nmi) `seconds` after the serial log matches `pattern`.
    The delay puts it well inside the call that line announces: sent at once, on a
    host busy elsewhere it could reach the guest before the call began (CI saw it
    land in the kernel itself, a CPU exception 2)."""
    command = "inject-nmi"

    def __init__(self, pattern, seconds=1.0):
        self.pattern, self.seconds = pattern, seconds

    def qemu_poll(self, run):
        mine = run.mine(self, due=None, sent=False)
        if mine["due"] is None and re.search(self.pattern, run.watch.text(), re.M):
            mine["due"] = time.monotonic() + self.seconds
        if not mine["sent"] and mine["due"] is not None and time.monotonic() >= mine["due"]:
            mine["sent"] = True
            run.qmp.command(self.command, run.deadline)


class KeyAfter(Probe):
    """Press keys (QMP send-key, one after another; QEMU's qcodes: "ret", "down", "a")
    `seconds` after the serial log matches `pattern`. Enter by default."""

    def __init__(self, pattern, seconds, keys=("ret",)):
        self.pattern, self.seconds, self.keys = pattern, seconds, tuple(keys)

    def qemu_poll(self, run):
        mine = run.mine(self, due=None)
        if mine["due"] is None and re.search(self.pattern, run.watch.text(), re.M):
            mine["due"] = time.monotonic() + self.seconds
        if mine["due"] is not None and time.monotonic() >= mine["due"]:
            mine["due"] = float("inf")
            for key in self.keys:
                run.qmp.command("send-key", run.deadline,
                                keys=[{"type": "qcode", "data": key}])


class ResetAfter(NmiAfter):
    """Press the reset button (QMP system_reset: RAM kept, POST again, the -kernel
    booted again) `seconds` after the serial log matches `pattern`, once: a person
    who gave up waiting on a machine that hung. NmiAfter's timing, another command."""
    command = "system_reset"

    def qemu_args(self, workdir):
        return ["-action", "reboot=reset"]     # -no-reboot would end QEMU at the reset


class AcpiTable(Probe):
    """One more ACPI table for the guest: tests/emu/acpi/<name>.asl, compiled by
    acpica-tools' iasl with the given -D symbols into build/tests/acpi/."""
    groups = ("acpi",)

    def __init__(self, name, defines=()):
        self.name, self.defines = name, tuple(defines)

    def qemu_args(self, workdir):
        src = os.path.join(ROOT, "tests", "emu", "acpi", self.name + ".asl")
        out = os.path.join(BUILD, "tests", "acpi",
                           "-".join((self.name,) + self.defines).lower() + ".aml")
        if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            # Compiled where the run is, then moved: two cases may build it at once.
            prefix = os.path.join(workdir, self.name)
            flags = [arg for d in self.defines for arg in ("-D", d)]
            proc = subprocess.run(["iasl"] + flags + ["-p", prefix, src],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if proc.returncode != 0:
                raise RuntimeError("iasl %s: %s" % (src, proc.stdout.decode(errors="replace")))
            # Copied beside the target, then renamed over it: the run's folder may be
            # on another file system (a tmpfs /tmp), where a rename cannot go.
            tmp = "%s.%d.tmp" % (out, os.getpid())
            shutil.copyfile(prefix + ".aml", tmp)
            os.replace(tmp, out)
        return ["-acpitable", "file=" + out]


class ComesBack(Probe):
    """The guest's reset restarts the machine instead of ending QEMU: -action
    reboot=reset, which overrides -no-reboot, so QEMU reports each reset as a QMP RESET
    event and the next boot runs (its loader, its kernel, the record the last run left).
    The run must show QEMU's own RESET with reason guest-reset, the emulator's word that
    the first boot reset the machine; the case's serial lines say what the next boot
    made of it."""
    groups = ("reset",)
    SEEN = "resets.txt"

    def qemu_args(self, workdir):
        return ["-action", "reboot=reset"]

    def qemu_poll(self, run):
        resets = [ev.get("data", {}).get("reason", "") for ev in run.qmp.events
                  if ev.get("event") == "RESET"]
        mine = run.mine(self, written=0)
        if len(resets) != mine["written"]:
            mine["written"] = len(resets)
            with open(run.path(self.SEEN), "w") as f:
                f.write("\n".join(resets) + "\n")

    def problems(self, run):
        try:
            with open(run.path(self.SEEN)) as f:
                reasons = f.read().split()
        except FileNotFoundError:
            reasons = []
        if "guest-reset" not in reasons:
            return ["QEMU reported no RESET with reason guest-reset (%s)"
                    % (", ".join(reasons) or "no RESET at all")]
        return []


def ssdt(body, n=0):
    """An SSDT around an AML body, its checksum right."""
    length = 36 + len(body)
    table = bytearray(b"SSDT" + length.to_bytes(4, "little") + b"\x02\x00" +
                      b"APMOFF" + b"PADDED%X " % n + (1).to_bytes(4, "little") +
                      b"INTL" + (0x20200925).to_bytes(4, "little")) + body
    table[9] = (-sum(table)) & 0xFF
    return table


class PaddedSsdt(Probe):
    """More ACPI tables for the guest, `count` SSDTs of `kib` KiB (QEMU takes 64 KiB a
    table at most): each one name holding a buffer of zeros, made here (iasl has no
    way to write a buffer that long). Their size is what counts: the interpreter's
    pool grows with the AML's bytes."""
    groups = ("acpi",)

    def __init__(self, kib, count=1):
        self.kib, self.count = kib, count

    def table(self, n):
        size = self.kib * 1024 - 36 - 5 - 10         # header, Name APBn, Buffer op
        pkg = size + 4 + 5                           # PkgLength(4), DWordConst(5)
        body = (b"\x08APB" + b"%X" % n + b"\x11" +  # Name (APBn, Buffer (size) {...})
                bytes([0xC0 | (pkg & 0xF), (pkg >> 4) & 0xFF, (pkg >> 12) & 0xFF,
                       (pkg >> 20) & 0xFF]) +
                b"\x0C" + size.to_bytes(4, "little") + bytes(size))
        return ssdt(body, n)

    def qemu_args(self, workdir):
        args = []
        for n in range(self.count):
            path = os.path.join(workdir, "padded%d.aml" % n)
            with open(path, "wb") as f:
                f.write(self.table(n))
            args += ["-acpitable", "file=" + path]
        return args


class UnclosedScopeSsdt(PaddedSsdt):
    """One SSDT whose Scope (\\_SB) keeps the 4-byte PkgLength placeholder 0FFFFFFFh
    its writer never filled in, as DOSBox-X's DSDT does (docs/emulator-bugs.md): a
    table that cannot load, which the survey must name."""

    def __init__(self):
        super().__init__(0, 1)

    def table(self, n):
        return ssdt(b"\x10\xCF\xFF\xFF\xFF\\_SB_" + b"\x08APMX\x0A\x01", n)


# --- the run -------------------------------------------------------------------------

def qemu_command(case, image, serial_path, qmp_path):
    # x64 OVMF does not run in qemu-system-i386; the kernel is 32-bit either way.
    microvm = case.machine.startswith("microvm")
    binary = "qemu-system-x86_64" if case.bios == "ovmf" or microvm else "qemu-system-i386"
    cmd = [binary, "-S", "-display", "none", "-no-reboot", "-nodefaults"]
    if not microvm:
        cmd += ["-vga", "std"]      # microvm has no PCI bus for one: COM1 is its screen
    cmd += ["-serial", "file:" + serial_path,
            "-qmp", "unix:%s,server=on,wait=off" % qmp_path,
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if case.machine != "-":
        cmd += ["-M", case.machine]
    if case.bios == "ovmf":
        cmd += ["-bios", OVMF]
    if case.bios == "ovmf32":
        vars_copy = os.path.join(os.path.dirname(serial_path), "vars.fd")
        shutil.copyfile(OVMF32_VARS, vars_copy)
        cmd += ["-global", "driver=cfi.pflash01,property=secure,value=on",
                "-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF32_CODE,
                "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy]
    if case.medium == "kernel":
        cmd += ["-kernel", image, "-append", case.options]
    elif is_floppy(case.medium):
        # A floppy device of its own, so that a case's "-global floppy.drive-type=120"
        # (144, 288) makes the drive that kind; "-drive if=floppy" keeps the drive
        # QEMU picks for the image. Write-protected, as the 86Box cases' drives are:
        # nothing is written, and two cases booting the same image at once do not
        # fight over QEMU's write lock on it.
        cmd += ["-drive", "if=none,id=floppy0,format=raw,readonly=on,file=" + image,
                "-device", "floppy,drive=floppy0", "-boot", "a"]
    elif case.medium == "usb":
        # The ISO written raw to a USB stick: the isohybrid MBR for a BIOS, the GPT's
        # EFI partition for UEFI.
        cmd += ["-usb", "-drive", "if=none,id=stick,format=raw,snapshot=on,file=" + image,
                "-device", "usb-storage,drive=stick,bootindex=0"]
    else:
        cmd += ["-cdrom", image, "-boot", "d"]
    if case.rom:
        cmd += ["-option-rom", biosrom.rom_path(case.rom)]
    return cmd + case.extra


SHUTDOWN_REASONS = {"guest-shutdown": "poweroff", "guest-reset": "reset",
                    "guest-panic": "panic"}

# How long QEMU may take to exit once it has reported a SHUTDOWN: it exits at once
# (-no-reboot), so this bound only matters when it does not.
EXIT_GRACE = 10


def outcome(events, status):
    """The verdict of a run from QEMU's QMP events and its exit status (None: it had
    not exited). The status decides: an odd one is isa-debug-exit's (V << 1) | 1,
    `exit:N`, whatever event came first, because QEMU 10 sends SHUTDOWN with reason
    guest-shutdown for that write as well (QEMU 7.2 sends no event for it). Only a
    QEMU that then exits 0 has seen a power-off (or, under -no-reboot, a reset), and
    the event's reason tells which. Seen on QEMU 7.2 (Debian 12) and 10.0 (Debian 13):
    tests/emu/fixtures/qmp/ holds a recorded run of each kind."""
    if status is not None and status != 0:
        return "exit:%d" % status
    shutdown = [ev for ev in events if ev.get("event") in ("SHUTDOWN", "GUEST_PANICKED")]
    if not shutdown:
        return None if status is None else "exit:%d" % status
    first = shutdown[0]
    if first["event"] == "GUEST_PANICKED":
        return "panic"
    reason = first.get("data", {}).get("reason", "")
    verdict = SHUTDOWN_REASONS.get(reason, "shutdown:" + reason)
    return verdict if status == 0 else verdict + "-without-exit"


def wait_exit(proc, deadline):
    """QEMU's exit status, or None when it has not exited by the deadline."""
    try:
        return proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return None


def follow(qmp, proc, deadline, poll=lambda: None, settled=lambda: False):
    """Follows a running QEMU until it ends or the deadline passes; returns
    (verdict, ended): ended is False for `quiet` and `timeout`, when QEMU is still
    running and QMP still answers. Once QEMU reports a SHUTDOWN, or closes QMP, the
    verdict waits for its exit status (outcome())."""
    while time.monotonic() < deadline:
        poll()
        events = qmp.poll_events(0.05)
        if qmp.closed or any(ev["event"] in ("SHUTDOWN", "GUEST_PANICKED") for ev in events):
            status = wait_exit(proc, time.monotonic() + EXIT_GRACE)
            return outcome(qmp.events, status), True
        if settled():
            return "quiet", False
    return "timeout", False


def run(case, workdir):
    """Boots the case; returns (verdict, seconds, serial text)."""
    serial_path = os.path.join(workdir, "serial.txt")
    qmp_path = os.path.join(workdir, "qmp.sock")
    cmd = qemu_command(case, image_for(case), serial_path, qmp_path)
    for probe in case.probes():
        cmd += probe.qemu_args(workdir)
    start = time.monotonic()
    deadline = start + case.timeout
    with open(os.path.join(workdir, "stderr.txt"), "wb") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                start_new_session=True)
    verdict = "hang"
    try:
        qmp = Qmp(qmp_path, deadline)
        qmp.command("qmp_capabilities", deadline)
        qmp.command("cont", deadline)
        live = Run(case, workdir, qmp=qmp, watch=SerialWatch(serial_path, case),
                   deadline=deadline)

        def poll():
            for probe in case.probes():
                probe.qemu_poll(live)
        verdict, ended = follow(qmp, proc, deadline, poll, live.watch.settled)
        if not ended:
            for probe in case.probes():
                live.deadline = time.monotonic() + 10
                probe.qemu_end(live)
        if verdict == "timeout":
            # A machine that never got anywhere: the BIOS's or the loader's last words
            # are on the screen, not on our serial line.
            with open(os.path.join(workdir, STUCK_SCREEN), "w") as f:
                f.write(text_screen(qmp, time.monotonic() + 10))
    finally:
        kill_group(proc)
    return verdict, time.monotonic() - start, SerialWatch(serial_path, case).text()
