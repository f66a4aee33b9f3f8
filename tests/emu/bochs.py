"""Boot a case in Bochs (Debian's build, display_library term) and read the verdict
from its log: the shutdown port or ACPI soft power-off line is a power-off,
"exception with no resolution" a triple fault. The debugger commands file keeps
Bochs from waiting at its prompt; a probe may supply its own (QrDecodes dumps the
VGA plane at the kernel's magic breakpoints), and the dumps become pictures here.
Bochs 2.7 always starts its debugger, and so reads the commands file and stops at
magic breakpoints; 3.0 does only when asked (-debugger), a flag 2.7 does not know."""

import functools
import os
import re
import subprocess
import time

from tests.emu.images import floppy_suffix, image_for, is_floppy
from tests.emu.judges import BOCHS_QR_PAGES, VGA_PLANE_BYTES
from tests.emu.case import Run
from tests.emu.watch import SerialWatch, kill_group, poll

BOCHS_BIOS = {
    "bochs": "/usr/share/bochs/BIOS-bochs-latest",
    "seabios": "/usr/share/seabios/bios.bin",
}
BOCHS_VGA = "/usr/share/bochs/VGABIOS-lgpl-latest"
BOCHS_FLOPPY = {"": "1_44", "-1200": "1_2", "-720": "720k", "-360": "360k"}


@functools.lru_cache(maxsize=None)
def debugger_flags():
    """["-debugger"] where Bochs' help lists it (3.0), [] where it starts its debugger
    by itself (2.7)."""
    try:
        out = subprocess.run(["bochs", "--help"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ["-debugger"] if re.search(rb"^\s*-debugger\b", out, re.M) else []


def bochs_config(case, image, serial_path, log_path):
    lines = [
        "megs: %d" % case.megs,
        "romimage: file=%s" % BOCHS_BIOS[case.bios],
        "vgaromimage: file=%s" % BOCHS_VGA,
        "display_library: term",
        "com1: enabled=1, mode=file, dev=%s" % serial_path,
        "log: %s" % log_path,
        "port_e9_hack: enabled=1",
        "panic: action=fatal",
        "error: action=report",
        "info: action=report",
        "clock: sync=none, time0=946684800",
        "cpu: ips=10000000, reset_on_triple_fault=0",
        "magic_break: enabled=1",
        "speaker: enabled=0",
    ]
    if is_floppy(case.medium):
        # The media key (1_44, 1_2, 720k, 360k) makes drive A: one of the image's kind.
        lines += ["floppya: %s=%s, status=inserted"
                  % (BOCHS_FLOPPY[floppy_suffix(case.medium)], image), "boot: floppy"]
    else:
        lines += ["ata0-master: type=cdrom, path=%s, status=inserted" % image,
                  "boot: cdrom"]
    return "\n".join(lines + case.extra) + "\n"


def vga_plane_to_pgm(raw_path, pgm_path):
    """Mode 12h plane 0 (1 bit a pixel, bit 7 leftmost) as a greyscale picture."""
    with open(raw_path, "rb") as f:
        raw = f.read()
    pixels = bytearray()
    for byte in raw[:VGA_PLANE_BYTES]:
        for bit in range(8):
            pixels.append(255 if byte & (0x80 >> bit) else 0)
    with open(pgm_path, "wb") as f:
        f.write(b"P5\n640 480\n255\n" + bytes(pixels))


BOCHS_VERDICTS = [
    (re.compile(r"Shutdown port: shutdown requested"), "poweroff"),
    (re.compile(r"ACPI control: soft power off"), "poweroff"),
    (re.compile(r"exception with no resolution"), "triple-fault"),
    # The 8042's and port 92h's CPU reset, and any system reset after the one at power-on
    # (tick 0): CF9h's hard reset logs only that (Bochs 2.7 and 3.0).
    (re.compile(r"cpu software reset|reset_cpu|system reset"
                r"|^(?!0{11}i)\d+i\[SYS +\] bx_pc_system_c::Reset\(\w+\) called", re.M),
     "reset"),
]


def verdict_of(log):
    """The emulator's verdict from its log: the first event in it. After a reset the
    machine goes on (Bochs 2.7's own BIOS then dies in rombios32 on a soft reset, a
    triple fault: WRMSR to IA32_FEATURE_CONTROL, locked since the first boot), so what
    came first is what the guest did."""
    found = [(m.start(), name) for pattern, name in BOCHS_VERDICTS
             for m in [pattern.search(log)] if m]
    return min(found)[1] if found else None


def run_on(case, proc, log_path, deadline):
    """After the verdict, Bochs runs on while a judge of its log (BochsLogShows) waits
    for what comes after it, until Bochs ends by itself or the case's time is up."""
    waiting = [p for p in case.probes() if hasattr(p, "log_complete")]
    while waiting and proc.poll() is None and time.monotonic() < deadline:
        with open(log_path, "rb") as f:
            log = f.read().decode("latin-1")
        if all(p.log_complete(log) for p in waiting):
            return
        time.sleep(0.05)


def debugger_commands(case, workdir):
    run = Run(case, workdir)
    for probe in case.probes():
        commands = probe.bochs_commands(run)
        if commands:
            return commands
    # Run; past the QR pages' magic breakpoints, if any; after any other debugger
    # stop, end the run instead of waiting at the prompt.
    return "c\n" * (BOCHS_QR_PAGES + 1) + "quit\n"


def run(case, workdir):
    """Boots the case; returns (verdict, seconds, serial text)."""
    serial_path = os.path.join(workdir, "serial.txt")
    log_path = os.path.join(workdir, "bochs.log")
    rc_path = os.path.join(workdir, "bochsrc")
    cmds_path = os.path.join(workdir, "commands")
    image = image_for(case)
    with open(rc_path, "w") as f:
        f.write(bochs_config(case, image, serial_path, log_path))
    with open(cmds_path, "w") as f:
        f.write(debugger_commands(case, workdir))
    start = time.monotonic()
    deadline = start + case.timeout
    with open(os.path.join(workdir, "stdout.txt"), "wb") as out:
        proc = subprocess.Popen(["bochs", "-q"] + debugger_flags() + ["-f", rc_path,
                                                                      "-rc", cmds_path],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                cwd=workdir, start_new_session=True)
    watch = SerialWatch(serial_path, case)

    def step():
        exited = proc.poll() is not None
        log = ""
        if os.path.exists(log_path):
            with open(log_path, "rb") as f:
                log = f.read().decode("latin-1")
        verdict = verdict_of(log)
        if verdict:
            run_on(case, proc, log_path, deadline)
            return verdict
        if exited:
            return "exited:%d" % proc.returncode
        return "quiet" if watch.settled() else None

    try:
        verdict = poll(deadline, step)
    finally:
        kill_group(proc)
    for i in range(1, BOCHS_QR_PAGES + 1):
        raw = os.path.join(workdir, "vga-%d.bin" % i)
        if os.path.exists(raw):
            vga_plane_to_pgm(raw, os.path.join(workdir, "screen-%d.pgm" % i))
    return verdict, time.monotonic() - start, watch.text()
