"""Boot apmoff in 86Box, on real boards with their original BIOS ROMs, headless.

QEMU's `-cpu 486` has CR4 and CPUID and Debian's Bochs is a P6-class CPU; 86Box runs
the 386 and 486 models without them, and the board vendors' APM BIOSes. The kit in
../shared/86box/ (a patched 86Box, the ROM files, one directory per machine with a
primed CMOS) is used when it is there; users with their own 86Box point at theirs:

    APMOFF_86BOX           the 86Box binary (the kit's patched build prints the
                           markers below; see ../shared/86box/README.md)
    APMOFF_86BOX_ROMS      the ROM directory (the one holding machines/ and video/)
    APMOFF_86BOX_MACHINES  the directory of machine directories (86box.cfg + nvr/)

A board whose ROM the kit does not carry is made by a script of ours from the full
86Box ROM set (tests/emu/p3v4x.sh: the ASUS P3V4X) into build/86box/: machines/NAME/
and a ROM directory, roms/, that holds the kit's ROMs and that board's. A machine not
in the machines directory above is looked for there, and then boots on those ROMs.

The verdict is 86Box's own, from the markers the kit's patch prints on stderr:
"BENCH86: soft-off" (the chipset cut the power), "triple fault", and any
"hard reset"/"soft reset" after the one at power-on. COM1 goes to a file that the
caller's SerialWatch reads. 86Box runs the guest in real time, so a run takes the
board's POST (10-25 s) plus the boot; it is stopped as soon as the guest has halted.
"""

import os
import re
import shutil
import signal
import subprocess
import time

from tests.emu.case import Probe
from tests.emu.images import image_for
from tests.emu.watch import SerialWatch
from tests.paths import ROOT
from tools.apmoff_sweep import emulator

KIT = os.path.join(os.path.dirname(ROOT), "shared", "86box")
BINARY = os.environ.get("APMOFF_86BOX") or os.path.join(KIT, "86Box")
ROMS = os.environ.get("APMOFF_86BOX_ROMS") or os.path.join(KIT, "roms")
MACHINES = os.environ.get("APMOFF_86BOX_MACHINES") or os.path.join(KIT, "machines")

# Machines the kit lacks, made under build/86box/ by a script (it needs the ROM set),
# and the script that makes each: a case on one is skipped, naming it, until it ran.
BUILT = os.path.join(ROOT, "build", "86box")
BUILT_MACHINES = os.path.join(BUILT, "machines")
BUILT_ROMS = os.path.join(BUILT, "roms")
MADE_BY = {"p3v4x": "tests/emu/p3v4x.sh"}

MARKER = emulator.MARKER
MEDIA = "Floppy and CD-ROM drives"


# Machines made at run time from a kit machine, as the "hdd" medium makes its disk:
# drive A: of another kind, in 86box.cfg and in the CMOS copy (byte 10h, high nibble:
# drive A's type, AT CMOS: 1 360 KB, 2 1.2 MB, 3 720 KB, 4 1.44 MB; checksum fixed).
DERIVED = {"386-award495-720": dict(base="386-award495", fdd_type="35_2dd", cmos_fdd=3),
           # The EGA board with IBM's MDA instead: the card in 86box.cfg, and the CMOS
           # equipment byte's display bits (4-5: 11b monochrome) to match it, or the
           # BIOS stops at POST over the mismatch.
           "386-award495-mda": dict(base="386-award495-ega", gfxcard="mda",
                                    cmos_display=3)}
CMOS_FLOPPY_TYPES = 0x10
CMOS_EQUIPMENT = 0x14
CMOS_DISPLAY_SHIFT = 4


def kit_machine(machine):
    return DERIVED.get(machine, {}).get("base", machine)


def machine_dir(machine):
    """(machine directory, ROM directory) of a case's machine: the kit's (or
    APMOFF_86BOX_MACHINES'), else build/86box/'s with its own ROMs; None if neither."""
    machine = kit_machine(machine)
    for machines, roms in ((MACHINES, ROMS), (BUILT_MACHINES, BUILT_ROMS)):
        if os.path.isfile(os.path.join(machines, machine, "86box.cfg")):
            return os.path.join(machines, machine), roms
    return None


def missing(machine):
    """Why a case on this machine cannot run here, or None when it can."""
    if not (os.path.isfile(BINARY) and os.access(BINARY, os.X_OK)):
        return "no 86Box binary at %s (set APMOFF_86BOX)" % BINARY
    found = machine_dir(machine)
    machine = kit_machine(machine)
    if not found:
        if machine in MADE_BY:
            return ("no 86Box machine %s in %s or %s: make it with %s (it needs the 86Box "
                    "ROM set)" % (machine, MACHINES, BUILT_MACHINES, MADE_BY[machine]))
        return "no 86Box machine %s in %s (set APMOFF_86BOX_MACHINES)" % (machine, MACHINES)
    if not os.path.isdir(found[1]):
        return "no 86Box ROM directory at %s (set APMOFF_86BOX_ROMS)" % found[1]
    return None


def ini_set(text, section, key, value):
    """The config with KEY = VALUE in [SECTION], replacing or adding it."""
    lines = text.splitlines()
    head = "[%s]" % section
    if head not in lines:
        lines += ["", head]
    start = lines.index(head) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("[")), len(lines))
    for i in range(start, end):
        if lines[i].split("=", 1)[0].strip() == key:
            lines[i] = "%s = %s" % (key, value)
            break
    else:
        while end > start and not lines[end - 1].strip():
            end -= 1
        lines.insert(end, "%s = %s" % (key, value))
    return "\n".join(lines) + "\n"


# medium "hdd": the image written to the start of an IDE disk on the primary master.
# A BIOS that detects the disk by itself gets the smallest one of whole cylinders of
# 16 heads x 63 sectors that holds the image, as a CF card cut to size. The 1993 Award
# 4.50 of the 386 board knows a disk only by its CMOS drive type: there the disk is AT
# type 2 (615 cylinders, 4 heads, 17 sectors: 20 MB), set in the machine's CMOS copy,
# on an ISA IDE controller (86Box gives that board none of its own).
HDD_HEADS, HDD_SECTORS = 16, 63
HDD_BY_TYPE = {"386-award495": dict(cylinders=615, heads=4, sectors=17, cmos_type=2,
                                    controller="ide_isa")}
CMOS_DISK_TYPES = 0x12                  # high nibble: drive C's type
CMOS_SUM_FIRST, CMOS_SUM_LAST, CMOS_SUM = 0x10, 0x2D, 0x2E   # the AT checksum


def hard_disk(image, machine, vmdir):
    """(path, cylinders, heads, sectors) of a disk holding IMAGE at its start."""
    by_type = HDD_BY_TYPE.get(machine)
    heads = by_type["heads"] if by_type else HDD_HEADS
    sectors = by_type["sectors"] if by_type else HDD_SECTORS
    cylinder = heads * sectors * 512
    cylinders = by_type["cylinders"] if by_type else -(-os.path.getsize(image) // cylinder)
    if cylinders * cylinder < os.path.getsize(image):
        raise RuntimeError("the image does not fit the %s disk" % machine)
    disk = os.path.join(vmdir, "disk.img")
    with open(image, "rb") as src, open(disk, "wb") as dst:
        shutil.copyfileobj(src, dst)
        dst.truncate(cylinders * cylinder)
    return disk, cylinders, heads, sectors


def set_cmos_disk_type(vmdir, board, disk_type, byte=CMOS_DISK_TYPES):
    """Drive C's type (or with byte=CMOS_FLOPPY_TYPES drive A's) in the copy of the
    board's CMOS (nvr/BOARD.nvr), checksum fixed."""
    path = os.path.join(vmdir, "nvr", board + ".nvr")
    os.chmod(path, 0o644)
    with open(path, "rb") as f:
        cmos = bytearray(f.read())
    cmos[byte] = (disk_type << 4) | (cmos[byte] & 0x0F)
    total = sum(cmos[CMOS_SUM_FIRST:CMOS_SUM_LAST + 1])
    cmos[CMOS_SUM], cmos[CMOS_SUM + 1] = total >> 8 & 0xFF, total & 0xFF
    with open(path, "wb") as f:
        f.write(cmos)


def set_cmos_bits(vmdir, board, byte, mask, value):
    """Bits of one byte in the copy of the board's CMOS, checksum fixed."""
    path = os.path.join(vmdir, "nvr", board + ".nvr")
    os.chmod(path, 0o644)
    with open(path, "rb") as f:
        cmos = bytearray(f.read())
    cmos[byte] = (cmos[byte] & ~mask & 0xFF) | value
    total = sum(cmos[CMOS_SUM_FIRST:CMOS_SUM_LAST + 1])
    cmos[CMOS_SUM], cmos[CMOS_SUM + 1] = total >> 8 & 0xFF, total & 0xFF
    with open(path, "wb") as f:
        f.write(cmos)


def prepare(machine, image, medium, vmdir, com1):
    """A private copy of the machine (86Box writes its config and CMOS back on exit),
    with the image in drive A: (write-protected), the CD-ROM drive or on the primary
    IDE master, and COM1 going to a file. Returns the config's path."""
    shutil.copytree(machine_dir(machine)[0], vmdir)
    cfg = os.path.join(vmdir, "86box.cfg")
    with open(cfg) as f:
        text = f.read()
    derived = DERIVED.get(machine, {})
    board = re.search(r"^machine *= *(\S+)", text, re.M).group(1)
    if "fdd_type" in derived:
        text = ini_set(text, MEDIA, "fdd_01_type", derived["fdd_type"])
        set_cmos_disk_type(vmdir, board, derived["cmos_fdd"], CMOS_FLOPPY_TYPES)
    if "gfxcard" in derived:
        text = ini_set(text, "Video", "gfxcard", derived["gfxcard"])
        set_cmos_bits(vmdir, board, CMOS_EQUIPMENT, 3 << CMOS_DISPLAY_SHIFT,
                      derived["cmos_display"] << CMOS_DISPLAY_SHIFT)
    if medium == "hdd":
        disk, cylinders, heads, sectors = hard_disk(image, machine, vmdir)
        text = ini_set(text, "Hard disks", "hdd_01_parameters",
                       "%d, %d, %d, 0, ide" % (sectors, heads, cylinders))
        text = ini_set(text, "Hard disks", "hdd_01_fn", disk)
        text = ini_set(text, "Hard disks", "hdd_01_ide_channel", "0:0")
        by_type = HDD_BY_TYPE.get(machine)
        if by_type:
            text = ini_set(text, "Storage controllers", "hdc_1", by_type["controller"])
            board = re.search(r"^machine *= *(\S+)", text, re.M).group(1)
            set_cmos_disk_type(vmdir, board, by_type["cmos_type"])
    elif medium == "iso":
        if not re.search(r"^cdrom_01_parameters *= *\d, *atapi", text, re.M):
            raise RuntimeError("86Box machine %s has no ATAPI CD-ROM drive" % machine)
        text = ini_set(text, MEDIA, "cdrom_01_image_path", image)
    else:
        text = ini_set(text, MEDIA, "fdd_01_fn", "wp://" + image)
    # 86Box's own way out with a code (onfail=exit), as QEMU's isa-debug-exit.
    text = ini_set(text, "Other peripherals", "unittester_enabled", "1")
    text = ini_set(text, "Ports (COM & LPT)", "serial1_enabled", "1")
    text = ini_set(text, "Ports (COM & LPT)", "serial1_device", "file")
    text = ini_set(text, "File (COM) #1", "path", com1)
    with open(cfg, "w") as f:
        f.write(text)
    open(com1, "wb").close()
    return cfg


def resets(stderr_text):
    return sum(1 for m in MARKER.findall(stderr_text) if m.endswith("reset"))


def verdict_from(stderr_text, resets_before_serial=1):
    """86Box's verdict from its markers. A reset counts only once the guest has
    written to COM1: 86Box prints one hard reset at power-on, and some Award BIOSes
    (the FIC VA-503+'s) reset once more during their POST."""
    markers = MARKER.findall(stderr_text)
    if "soft-off" in markers:
        return "poweroff"
    if "triple fault" in markers:
        return "triple-fault"
    if resets(stderr_text) > max(1, resets_before_serial):
        return "reset"
    return None


def exit_verdict(stderr_text, status):
    """The verdict of an 86Box that exited by itself with status (the sweep's rule:
    status 0 without the patch's markers is its soft-off, an odd one apmoff's
    onfail=exit code)."""
    return emulator.exit_verdict(MARKER.findall(stderr_text), status)


def stop(proc):
    """TERM, then KILL, the process group we started (the copy of the machine 86Box
    saves on TERM is ours to throw away, so waiting long for it buys nothing)."""
    emulator.stop_group(proc, 3)


def screenshot(proc, vmdir, timeout=5):
    """The screen as the patched 86Box saves it on SIGUSR1 (a PNG), or None."""
    shots = os.path.join(vmdir, "screenshots")
    before = set(os.listdir(shots)) if os.path.isdir(shots) else set()
    os.kill(proc.pid, signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.isdir(shots):
            new = sorted(set(os.listdir(shots)) - before)
            if new:
                path = os.path.join(shots, new[-1])
                time.sleep(0.3)             # let 86Box finish writing it
                return path
        time.sleep(0.1)
    return None


def spawn(machine, image, medium, workdir, com1):
    """86Box started on a private copy of the machine with IMAGE in its drive, in a
    process group of its own; (process, stderr's path, start time)."""
    vmdir = os.path.join(workdir, "vm")
    cfg = prepare(machine, os.path.abspath(image), medium, vmdir, com1)
    xdg = os.path.join(workdir, "xdg")
    os.makedirs(os.path.join(xdg, "data"))
    os.makedirs(os.path.join(xdg, "config"))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ALSOFT_DRIVERS="null", XDG_DATA_HOME=os.path.join(xdg, "data"),
               XDG_CONFIG_HOME=os.path.join(xdg, "config"), XDG_DATA_DIRS=xdg)
    err_path = os.path.join(workdir, "86box-stderr.txt")
    start = time.monotonic()
    with open(err_path, "wb") as err:
        proc = subprocess.Popen([BINARY, "-N", "-R", machine_dir(machine)[1], "-P",
                                 vmdir, cfg],
                                stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                env=env, start_new_session=True)
    return proc, err_path, start


class NextBoot(Probe):
    """86Box goes on after its verdict (a reset) until the serial log matches pattern:
    the next boot's words, the record the last run left read by it or missed. The
    verdict stays 86Box's; the case's serial lines judge the next boot."""

    def __init__(self, pattern):
        self.pattern = pattern


def next_boot_pattern(case):
    return next((p.pattern for p in case.probes() if isinstance(p, NextBoot)), None)


def boot(case, workdir, image, watch, want_screen=False):
    """Boots IMAGE on case.machine; returns (verdict, seconds, screenshot or None)."""
    vmdir = os.path.join(workdir, "vm")
    proc, err_path, start = spawn(case.machine, image, case.medium, workdir, watch.path)
    deadline = start + case.timeout
    verdict = shot = None
    quiet_resets = 1
    until = next_boot_pattern(case)
    try:
        while verdict is None:
            time.sleep(0.25)
            with open(err_path, "rb") as f:
                stderr_text = f.read().decode("latin-1")
            if not watch.text():
                quiet_resets = resets(stderr_text)
            verdict = verdict_from(stderr_text, quiet_resets)
            if verdict:
                while until and time.monotonic() < deadline and \
                        not re.search(until, watch.text(), re.M):
                    time.sleep(0.25)
                break
            if proc.poll() is not None:
                # Read again: the marker may have come just before the exit.
                with open(err_path, "rb") as f:
                    stderr_text = f.read().decode("latin-1")
                verdict = verdict_from(stderr_text, quiet_resets) or \
                    exit_verdict(stderr_text, proc.returncode)
            elif watch.settled():
                verdict = "quiet"
                if want_screen:
                    shot = screenshot(proc, vmdir)
            elif time.monotonic() >= deadline:
                verdict = "timeout"
                if want_screen:
                    shot = screenshot(proc, vmdir)
    finally:
        stop(proc)
    return verdict, time.monotonic() - start, shot


def run(case, workdir):
    """Boots the case; returns (verdict, seconds, serial text). A probe that wants the
    screen (ScreenHasText) finds 86Box's picture as final.png in workdir."""
    watch = SerialWatch(os.path.join(workdir, "serial.txt"), case)
    verdict, seconds, shot = boot(case, workdir, image_for(case), watch,
                                  want_screen=any(p.screenshot for p in case.probes()))
    if shot:
        shutil.copyfile(shot, os.path.join(workdir, "final.png"))
    return verdict, seconds, watch.text()
