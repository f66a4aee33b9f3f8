#!/usr/bin/env python3
"""make bench: how fast and how small apmoff's images are, next to Syslinux and GRUB.

Builds into build/bench/
  syslinux.iso     ISOLINUX 6 whose only entry runs poweroff.c32 (Debian's syslinux,
                   isolinux and syslinux-common packages; installed when missing)
  syslinux-apmoff.iso  the same ISOLINUX booting apmoff through mboot.c32 (multiboot),
                   for comparison: what apmoff would cost with Syslinux as its loader
  grub-halt.iso    GRUB i386-pc whose grub.cfg is `halt`, built like apmoff's ISO
  apmoff-shift.iso apmoff's ISO with no menu timeout: the menu shows only while Shift is
                   held during boot (timeout=0, then `if keystatus --shift`)
and times them with build/apmoff-auto.iso and .img (the shipped menu with no countdown,
the images for automation),
then boots, round after round so that a busy machine slows every image alike, each image
N times (default 5) in QEMU -M pc (TCG) and times it from QMP `cont` to the SHUTDOWN
event with reason guest-shutdown. One emulator runs at a time, under a deadline, killed
by its process group. It prints the medians, the ratio to Syslinux, the image sizes, the
kernel's own time from entry to the power-off call (its `apmoff: timing:` line), and the
issue's targets with PASS or MISS. Targets are reported, never enforced.

    python3 -m tests.bench.bench [--runs N] [--json FILE] [--update-page]
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

from tests.bench import bench86
from tests.docs import blocks
from tests.emu.qemu import Qmp
from tests.emu.syslinux import build_syslinux_iso, newer
from tests.emu.watch import kill_group

BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench")
ELF = os.path.join(BUILD, "apmoff.elf")
ISO = os.path.join(BUILD, "apmoff.iso")
FLOPPY = os.path.join(BUILD, "apmoff.img")
AUTO_ISO = os.path.join(BUILD, "apmoff-auto.iso")
AUTO_FLOPPY = os.path.join(BUILD, "apmoff-auto.img")
# The other formats' automation images, each in a drive of its kind (QEMU's type).
AUTO_FLOPPIES = [("1.2 MB", os.path.join(BUILD, "apmoff-auto-1200.img"), 120),
                 ("720 KB", os.path.join(BUILD, "apmoff-auto-720.img"), 144),
                 ("360 KB", os.path.join(BUILD, "apmoff-auto-360.img"), 120)]

PACKAGES = ["syslinux", "isolinux", "syslinux-common"]
# Size targets, judged in docs/testing.md's sizes block (tests/docs/generate.py).
TARGET_BIOS_PART = 512 * 1024
TARGET_KERNEL = 32 * 1024
GRUB_PC = "/usr/lib/grub/i386-pc"

TIMEOUT = 30.0
TIMING_LINE = re.compile(r"^apmoff: timing: entry to power-off call (\d+) us", re.M)

# The recommended menu: boot at once, the menu while Shift is held. (timeout_style=hidden
# with timeout=0 also shows the menu on Shift, Esc or F4, but with serial input enabled
# GRUB 2.06 then spends about 3 s more before booting.)
SHIFT_MENU = ("set timeout=0\n"
              "if keystatus --shift; then set timeout=-1; fi\n")


# --- tools and images -----------------------------------------------------------

def ensure_packages():
    missing = [p for p in PACKAGES if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
        text=True).stdout != "install ok installed"]
    if not missing:
        return
    print("bench: installing %s" % " ".join(missing), file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"]
                   + missing, check=True, env=env, stdout=subprocess.DEVNULL)


def floppy_args(image, kind):
    """A write-protected floppy in a drive of QEMU type kind (120, 144, 288)."""
    return ["-drive", "if=none,id=fd,format=raw,readonly=on,file=" + image,
            "-device", "floppy,drive=fd", "-global", "floppy.drive-type=%d" % kind,
            "-boot", "a"]


def build_grub_halt_iso(out):
    """GRUB's own halt, with the same trimming as apmoff's ISO (modules embedded,
    32 KiB padding), so the difference between the two is apmoff's own work."""
    mkiso = os.path.join(ROOT, "iso", "mkiso.sh")
    if newer(out, mkiso):
        return out
    with tempfile.TemporaryDirectory() as stage:
        os.makedirs(os.path.join(stage, "boot", "grub"))
        with open(os.path.join(stage, "boot", "grub", "grub.cfg"), "w") as f:
            f.write("halt\n")
        subprocess.run(["grub-mkrescue", "--directory=" + GRUB_PC,
                        "--modules=normal halt", "--install-modules=", "--locales=",
                        "--themes=", "--fonts=", "-o", out + ".tmp", stage,
                        "--", "-padding", "32k"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.replace(out + ".tmp", out)
    return out


def build_shift_menu_iso(out):
    """apmoff's ISO with the recommended menu: no wait, the menu while Shift is held."""
    cfg_in = os.path.join(ROOT, "iso", "grub.cfg")
    mkiso = os.path.join(ROOT, "iso", "mkiso.sh")
    if newer(out, ELF, cfg_in, mkiso):
        return out
    with open(cfg_in) as f:
        cfg = f.read()
    cfg, n = re.subn(r"^set timeout=\d+\n", SHIFT_MENU, cfg, flags=re.M)
    if n != 1:
        raise SystemExit("bench: iso/grub.cfg has no `set timeout=N` line to replace")
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(cfg)
    try:
        subprocess.run([mkiso, out, ELF, f.name], check=True)
    finally:
        os.unlink(f.name)
    return out


# --- sizes ----------------------------------------------------------------------

def bios_only_bytes():
    """The size of the same ISO without its EFI boot images (APMOFF_EFI=0): what a
    BIOS-only medium costs, padding included."""
    out = os.path.join(OUT, "apmoff-bios-only.iso")
    subprocess.run([os.path.join(ROOT, "iso", "mkiso.sh"), out, ELF,
                    os.path.join(ROOT, "iso", "grub.cfg")], check=True,
                   env=dict(os.environ, APMOFF_EFI="0"))
    return os.path.getsize(out)


def efi_bytes(iso):
    """Bytes of the ISO's UEFI boot images (El Torito platform UEFI), wherever they
    lie (a file in the tree or an appended partition): xorriso reports each image's
    length in 2 KiB blocks. 0 when there are none."""
    report = subprocess.run(["xorriso", "-indev", iso, "-report_el_torito", "plain"],
                            capture_output=True, text=True).stdout
    uefi = {m.group(1) for m in re.finditer(
        r"^El Torito boot img :\s+(\d+)\s+UEFI", report, re.M)}
    total = 0
    for n in uefi:
        m = re.search(r"^El Torito img blks :\s+%s\s+(\d+)" % n, report, re.M)
        total += int(m.group(1)) * 2048 if m else 0
    return total


def kernel_sizes(elf):
    """(file bytes, loaded bytes of text+data = PT_LOAD file sizes, with bss)."""
    out = subprocess.run(["readelf", "-lW", elf], check=True, capture_output=True,
                         text=True).stdout
    filesz = memsz = 0
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "LOAD":
            filesz += int(parts[4], 16)
            memsz += int(parts[5], 16)
    return os.path.getsize(elf), filesz, memsz


# --- booting --------------------------------------------------------------------

def boot(args):
    """Seconds from `cont` to QEMU's guest-shutdown event, and the serial log."""
    workdir = tempfile.mkdtemp(prefix="apmoff-bench-")
    sock = os.path.join(workdir, "qmp.sock")
    serial = os.path.join(workdir, "serial.txt")
    cmd = ["qemu-system-i386", "-S", "-display", "none", "-no-reboot", "-nodefaults",
           "-vga", "std", "-M", "pc", "-serial", "file:" + serial,
           "-qmp", "unix:%s,server=on,wait=off" % sock] + args
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + TIMEOUT
    seconds = None
    try:
        qmp = Qmp(sock, deadline)
        qmp.command("qmp_capabilities", deadline)
        start = time.monotonic()
        qmp.command("cont", deadline)
        while time.monotonic() < deadline and seconds is None:
            try:
                events = qmp.poll_events(0.01)
            except OSError:
                break
            for ev in events:
                if ev["event"] == "SHUTDOWN":
                    if ev.get("data", {}).get("reason") == "guest-shutdown":
                        seconds = time.monotonic() - start
                    else:
                        deadline = 0
            if qmp.closed:
                break
    finally:
        kill_group(proc)
        with open(serial, "rb") as f:
            text = f.read().decode("latin-1")
        shutil.rmtree(workdir, ignore_errors=True)
    return seconds, text


class Subject:
    def __init__(self, name, args, image, apmoff=True):
        self.name, self.args, self.image, self.apmoff = name, args, image, apmoff
        self.times, self.guest_us, self.failures = [], [], 0

    def run(self):
        seconds, serial = boot(self.args)
        if seconds is None:
            self.failures += 1
            return
        self.times.append(seconds)
        m = TIMING_LINE.search(serial)
        if m:
            self.guest_us.append(int(m.group(1)))

    def median(self):
        return statistics.median(self.times) if self.times else None


# --- report ---------------------------------------------------------------------

def kib(n):
    return "%.0f KiB" % (n / 1024.0)


def verdict(ok):
    return "PASS" if ok else "MISS"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", 5)))
    ap.add_argument("--json", default=os.path.join(OUT, "results.json"))
    ap.add_argument("--runs86", type=int, default=int(os.environ.get("BENCH86_RUNS", 1)),
                    help="runs of each 86Box board and image (0: none)")
    ap.add_argument("--update-page", action="store_true",
                    help="write the table into docs/testing.md (make bench-table)")
    args = ap.parse_args()

    for path in (ELF, ISO, FLOPPY, AUTO_ISO, AUTO_FLOPPY):
        if not os.path.exists(path):
            raise SystemExit("bench: %s is missing (make all)" % path)
    ensure_packages()
    os.makedirs(OUT, exist_ok=True)
    syslinux = build_syslinux_iso(os.path.join(OUT, "syslinux.iso"))
    syslinux_apmoff = build_syslinux_iso(os.path.join(OUT, "syslinux-apmoff.iso"), ELF)
    grub_halt = build_grub_halt_iso(os.path.join(OUT, "grub-halt.iso"))
    quick = build_shift_menu_iso(os.path.join(OUT, "apmoff-shift.iso"))

    subjects = [
        Subject("apmoff ISO, menu as shipped (timeout=5)", ["-cdrom", ISO, "-boot", "d"],
                ISO),
        Subject("apmoff-auto ISO (timeout=0)", ["-cdrom", AUTO_ISO, "-boot", "d"],
                AUTO_ISO),
        Subject("apmoff ISO, menu on Shift (timeout=0)", ["-cdrom", quick, "-boot", "d"],
                quick),
        Subject("apmoff floppy, menu as shipped", floppy_args(FLOPPY, 144), FLOPPY),
        Subject("apmoff-auto floppy, 1.44 MB", floppy_args(AUTO_FLOPPY, 144), AUTO_FLOPPY),
    ] + [
        Subject("apmoff-auto floppy, %s" % name, floppy_args(image, kind), image)
        for name, image, kind in AUTO_FLOPPIES
    ] + [
        Subject("apmoff kernel alone (-kernel)", ["-kernel", ELF, "-append", "action=off"],
                ELF),
        Subject("apmoff via Syslinux mboot.c32 (comparison)",
                ["-cdrom", syslinux_apmoff, "-boot", "d"], syslinux_apmoff),
        Subject("GRUB halt ISO", ["-cdrom", grub_halt, "-boot", "d"], grub_halt, False),
        Subject("Syslinux poweroff.c32 ISO", ["-cdrom", syslinux, "-boot", "d"], syslinux,
                False),
    ]
    reference = subjects[-1]
    print("bench: %d rounds of %d images in QEMU -M pc (TCG), one at a time"
          % (args.runs, len(subjects)), flush=True)
    for _ in range(args.runs):
        for s in subjects:
            s.run()
        print(".", end="", flush=True)
    print()

    ref = reference.median()
    print()
    print("%-44s %9s %11s %10s %12s" % ("boot to power-off (QEMU saw it)", "median",
                                        "vs Syslinux", "image", "kernel says"))
    for s in subjects:
        med = s.median()
        guest = ("%.1f ms" % (statistics.median(s.guest_us) / 1000.0) if s.guest_us
                 else ("n/a" if s.apmoff else "-"))
        print("%-44s %9s %11s %10s %12s%s" % (
            s.name, "%.3f s" % med if med is not None else "failed",
            "%.2fx" % (med / ref) if med is not None and ref else "-",
            kib(os.path.getsize(s.image)), guest,
            "  (%d of %d runs failed)" % (s.failures, args.runs) if s.failures else ""))

    iso_bytes = os.path.getsize(ISO)
    efi = efi_bytes(ISO)
    bios_part = bios_only_bytes()
    elf_bytes, loaded, memsz = kernel_sizes(ELF)
    print()
    print("sizes: apmoff.iso %d bytes (%s), EFI boot images %d (%s); the BIOS part "
          "built alone %d (%s)" % (iso_bytes, kib(iso_bytes), efi, kib(efi), bios_part,
                                   kib(bios_part)))
    print("       apmoff.elf %d bytes on the medium; loads %d bytes of text and data "
          "(%d with bss)" % (elf_bytes, loaded, memsz))
    print("       apmoff.img %d bytes; syslinux.iso %d; grub-halt.iso %d "
          "(ISOLINUX pads its hybrid image to 1 MiB, apmoff's to 504 KiB)"
          % (os.path.getsize(FLOPPY), os.path.getsize(syslinux), os.path.getsize(grub_halt)))

    by_name = {x.name: x for x in subjects}
    auto_iso = by_name["apmoff-auto ISO (timeout=0)"].median()
    halt_iso = by_name["GRUB halt ISO"].median()
    kernel = by_name["apmoff kernel alone (-kernel)"]
    kernel_us = statistics.median(kernel.guest_us) if kernel.guest_us else None
    targets = [
        (auto_iso is not None and halt_iso and auto_iso <= 1.05 * halt_iso,
         "QEMU: the automation ISO within 1.05x GRUB's own halt ISO (GRUB's floor): "
         "%s vs %s" % (fmt(auto_iso), fmt(halt_iso))),
        (kernel.median() is not None and ref and kernel.median() <= ref,
         "QEMU: -kernel no slower than Syslinux's poweroff.c32 ISO: %s vs %s"
         % (fmt(kernel.median()), fmt(ref))),
        (kernel_us is not None and kernel_us <= 10000,
         "QEMU -kernel: entry to the APM off call within 10 ms of TCG: %s"
         % ("%.1f ms" % (kernel_us / 1000) if kernel_us is not None else "not said")),
    ]
    boards = bench86.run_boards(args.runs86) if args.runs86 else None
    if boards:
        targets += bench86.targets(boards)
    print()
    for ok, text in targets:
        print("%s target: %s" % (verdict(ok), text))
    print("       (sizes: BIOS part of the ISO %s, the kernel loads %s, %s ELF file)"
          % (kib(bios_part), kib(loaded), kib(elf_bytes)))

    results = {
        "date": time.strftime("%Y-%m-%d"), "runs": args.runs,
        "boots": {s.name: {"median_s": s.median(), "times_s": s.times,
                           "failures": s.failures,
                           "guest_us_median": (statistics.median(s.guest_us)
                                               if s.guest_us else None),
                           "image_bytes": os.path.getsize(s.image)} for s in subjects},
        "iso_bytes": iso_bytes, "efi_bytes": efi, "bios_part_bytes": bios_part,
        "elf_bytes": elf_bytes, "kernel_loaded_bytes": loaded, "kernel_mem_bytes": memsz,
        "targets": [{"ok": ok, "what": text} for ok, text in targets],
        "boards": boards,
    }
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    print("\nbench: results in %s" % os.path.relpath(args.json, ROOT))
    if args.update_page:
        blocks.write(os.path.join(ROOT, "docs", "testing.md"), "bench",
                     page_table(subjects, ref, args.runs, boards, targets))
        print("bench: docs/testing.md's bench block written")
    # Figures are reported, not judged; only an image that never powered off fails.
    return 1 if any(not s.times for s in subjects) else 0


def page_table(subjects, ref, runs, boards, targets):
    """docs/testing.md's `bench` block: the medians, and the day, tree and machine they
    were measured on (the image sizes of the day are in it; docs/testing.md's sizes
    block has today's); then the 86Box boards' table (tests/bench/bench86.py)."""
    qemu = subprocess.run(["qemu-system-i386", "--version"], capture_output=True,
                          text=True).stdout.split("\n")[0]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "?"
    rows = ["Measured %s at commit %s, medians of %d rounds, %s, a %d-core machine:\n"
            % (time.strftime("%Y-%m-%d"), commit, runs, qemu, os.cpu_count() or 1),
            "| image | boot to power-off | vs Syslinux | image size | kernel says |",
            "|---|---|---|---|---|"]
    for s in subjects:
        med = s.median()
        guest = ("%.0f ms" % (statistics.median(s.guest_us) / 1000.0) if s.guest_us
                 else ("n/a" if s.apmoff else "-"))
        rows.append("| %s | %s | %s | %s | %s |" % (
            s.name, fmt(med), "%.1fx" % (med / ref) if med and ref else "-",
            kib(os.path.getsize(s.image)), guest))
    board_rows = bench86.page_rows(boards) if boards else [
        "The 86Box half was not run (no kit, or BENCH86_RUNS=0)."]
    return "\n".join(rows + [""] + board_rows) + "\n\n" + "".join(
        "Target: %s: **%s**.\n" % (text, verdict(ok)) for ok, text in targets)


def fmt(seconds):
    return "%.3f s" % seconds if seconds is not None else "failed"


if __name__ == "__main__":
    sys.exit(main())
