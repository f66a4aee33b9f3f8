"""Boot a case in QEMU, Bochs or 86Box and judge the run from the emulator's side.

A case passes on what the emulator saw (a QMP SHUTDOWN event with reason
guest-shutdown, Bochs' power-off log line, QEMU's exit status from isa-debug-exit,
86Box's chipset soft-off), never on what the guest printed it would do. The serial
log is checked as well, for the lines the output contract promises. Every emulator
runs in its own process group with a wall-clock limit and is killed by that group, so
nothing is left behind.

The modules, one concern each:
    case.py     the table's schema (Case, Run, Result, Probe)
    cases.py    the table, gathered from the cases_*.py files by topic
    images.py   the image a case boots (variants of the menu, cached)
    qemu.py, bochs.py, box86.py   one runner an emulator: (verdict, seconds, serial)
    judges.py   judge_core() and the judge objects a row may carry
    watch.py    the serial log watch and the process-group kill
This one runs a case: the runner, then the judges, then the logs of a failure.
"""

import os
import re
import shutil
import tempfile

from tests.emu import bochs, box86, qemu
from tests.emu.case import Result, Run
from tests.emu.judges import judge_core, judges_of
from tests.emu.watch import apmoff_lines

<<<<<<< HEAD
RUNNERS = {"qemu": qemu.run, "bochs": bochs.run, "86box": box86.run}
=======
import importlib.util as _ilu
_spec = _ilu.spec_from_file_location("biosrom", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "biosrom", "build.py"))
biosrom = _ilu.module_from_spec(_spec)
_spec.loader.exec_module(biosrom)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
ELF = os.path.join(BUILD, "apmoff.elf")
ISO = os.path.join(BUILD, "apmoff.iso")

BOCHS_BIOS = {
    "bochs": "/usr/share/bochs/BIOS-bochs-latest",
    "seabios": "/usr/share/seabios/bios.bin",
}
BOCHS_VGA = "/usr/share/bochs/VGABIOS-lgpl-latest"
BOCHS_FLOPPY = {"": "1_44", "-1200": "1_2", "-720": "720k", "-360": "360k"}
OVMF = "/usr/share/ovmf/OVMF.fd"             # x86_64 UEFI firmware (qemu-system-x86_64)
# ia32 UEFI: Debian ships only a secure-boot build, which needs SMM and a writable copy
# of its variable store; that store has no keys enrolled, so secure boot is off.
OVMF32_CODE = "/usr/share/OVMF/OVMF32_CODE_4M.secboot.fd"
OVMF32_VARS = "/usr/share/OVMF/OVMF32_VARS_4M.fd"

# How long to keep watching after the serial log says the run is over (a halted
# line, or the line a hang is expected after): long enough for any power-off the
# emulator might still report, short enough not to wait out every timeout.
SETTLE_SECONDS = 1.5


@dataclass
class Case:
    """One row of the table: where to boot, with what, and what must happen."""
    name: str
    emulator: str                   # "qemu", "bochs" or "86box"
    bios: str                       # "seabios", "bochs" (Bochs' own rombios), "ovmf"
                                    # (x86_64 UEFI), "ovmf32" (ia32 UEFI), or the
                                    # board's BIOS vendor in 86Box ("award")
    machine: str                    # QEMU -M value; "-" for Bochs; for 86Box a machine
                                    # directory of the kit (tests/emu/box86.py)
    medium: str                     # "iso", "kernel" (QEMU -kernel), "floppy" (1.44 MB;
                                    # "floppy-1200", "-720", "-360": the other formats),
                                    # "usb" (the ISO as a raw disk), or "hdd" (86Box:
                                    # the ISO written to an IDE disk)
    options: str                    # kernel command line ("" = the shipped menu default)
    expect: str                     # "poweroff", "halt", "hang", "reset" or "exit:N"
    timeout: float                  # wall-clock seconds for the whole run
    serial: list = field(default_factory=list)          # regexes that must match
    serial_absent: list = field(default_factory=list)   # regexes that must not match
    last_line: str = ""             # regex the last "apmoff: " line must match
    hang_after: str = ""            # for "hang": the line after which nothing happens
    extra: list = field(default_factory=list)           # more emulator arguments
    megs: int = 32                  # Bochs memory
    check_expect: str = ""          # tests/emu/expect/ file the action=check verdicts must equal
    qr: bool = False                # screenshot the QR code (QEMU: QMP screendump, then a
                                    # key; Bochs: memory dump at the magic breakpoint),
                                    # decode it, compare with the JSON line
    qr_photos: bool = False         # with qr: every page must also read back from each
                                    # degraded "phone photo" (tests/emu/photo.py)
    screen_text: bool = False       # QEMU, 86Box: at the end, the screen must show text
    screen: list = field(default_factory=list)  # QEMU: regexes the 80x25 text screen
                                    # must show at the end (read from VGA memory)
    loader: str = ""                # ISO media: "" GRUB's multiboot (the shipped menu),
                                    # "grub-mb2" GRUB's multiboot2 on a BIOS machine,
                                    # "syslinux" ISOLINUX's mboot.c32; ISO and floppy:
                                    # "auto", the shipped automation image (no countdown)
    survey: dict = field(default_factory=dict)  # dotted path -> value the last
                                    # "apmoff: survey" JSON line must hold
    insns: dict = field(default_factory=dict)   # v86test=insns: stub -> {register:
                                    # (mask, value)} a real CPU leaves, or "stopped"
    bda_ticks: int = 0              # QEMU, selftest=idle: how far the BIOS tick count
                                    # (40:6Ch, read by QMP) must move after the
                                    # kernel's read window
    rom: str = ""                   # QEMU: an emulated APM BIOS of tests/biosrom/ (its
                                    # behaviour's name), run as an option ROM at POST
    nmi_after: str = ""             # QEMU: inject an NMI (QMP) once serial matches this
    key_after: tuple = ()           # QEMU: (regex, seconds): press Enter (QMP send-key)
                                    # that long after serial matches the regex
    retry_if: str = ""              # QEMU: run once more when the kernel never spoke and
                                    # the screen left by the firmware or loader matches
                                    # this (a host-side transport hiccup, not apmoff)


@dataclass
class Result:
    case: Case
    verdict: str                    # what the emulator showed ("quiet": nothing, and
                                    # the guest's serial log said it was done)
    passed: bool                    # (False when skipped)
    seconds: float
    problems: list
    serial: str
    skipped: str = ""               # why the case could not run here
    retried: str = ""               # the first attempt's screen line that earned a rerun


# GRUB draws its menu on the serial terminal with ANSI sequences; they are not text.
ANSI_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z])")


def apmoff_lines(text):
    return [l.rstrip("\r") for l in text.splitlines() if l.startswith("apmoff: ")]


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
            lines = apmoff_lines(self.text())
            over = any(l.startswith("apmoff: halted:") for l in lines)
            if self.case.hang_after:
                over = over or any(re.search(self.case.hang_after, l) for l in lines)
            if over:
                self.settled_at = time.monotonic()
            return False
        return time.monotonic() - self.settled_at >= SETTLE_SECONDS


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


# --- images --------------------------------------------------------------------

def variant_cfg(options, loader=""):
    """The shipped menu with its first entry's options replaced and no timeout; for
    "grub-mb2", multiboot2 on BIOS too (as a user's own GRUB entry may say)."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    cfg = re.sub(r"^set timeout=.*$", "set timeout=0", cfg, count=1, flags=re.M)
    if loader == "grub-mb2":
        cfg = re.sub(r"^(\s*)multiboot /boot/apmoff.elf", r"\1multiboot2 /boot/apmoff.elf",
                     cfg, flags=re.M)
    return re.sub(r"^(\s*apmoff) action=off$", lambda m: "%s %s" % (m.group(1), options),
                  cfg, count=1, flags=re.M)


_variant_lock = threading.Lock()     # two cases may want the same variant at once


def variant_image(options, medium, loader=""):
    """An ISO or floppy whose first menu entry boots at once with these options (for
    Bochs and 86Box, which cannot pass a command line any other way), or an ISOLINUX
    ISO booting the kernel with them. Cached by option string."""
    with _variant_lock:
        if loader == "syslinux":
            out = os.path.join(BUILD, "variants", "syslinux-%s.iso" % slug_of(options))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            return build_syslinux_iso(out, ELF, options)
        return _build_variant(options, medium, loader)


def slug_of(options):
    return re.sub(r"[^A-Za-z0-9]+", "_", options).strip("_") or "default"


def floppy_suffix(medium):
    """"" for the 1.44 MB floppy ("floppy"), "-720" for "floppy-720" and so on: the
    image names' tail (build/apmoff-720.img), as iso/floppy.mk names them."""
    return medium[len("floppy"):]


def is_floppy(medium):
    return medium.startswith("floppy")


def _build_variant(options, medium, loader):
    slug = slug_of(options) + ("-" + loader if loader else "")
    script, suffix = (("mkfloppy.sh", floppy_suffix(medium) + ".img") if is_floppy(medium)
                      else ("mkiso.sh", ".iso"))
    out = os.path.join(BUILD, "variants", slug + suffix)
    inputs = [ELF] + [os.path.join(ROOT, "iso", n)
                      for n in ("grub.cfg", script, "mkefiimg.sh", "menu.modules",
                                "grub-no-cr4.py")]
    if os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(i)
                                   for i in inputs):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as cfg:
        cfg.write(variant_cfg(options, loader))
    try:
        subprocess.run([os.path.join(ROOT, "iso", script), out, ELF, cfg.name]
                       + ([floppy_suffix(medium)[1:]] if floppy_suffix(medium) else []),
                       check=True)
    finally:
        os.unlink(cfg.name)
    return out


def image_for(case):
    if case.loader == "auto":
        return os.path.join(BUILD, "apmoff-auto" + (floppy_suffix(case.medium) + ".img"
                                                    if is_floppy(case.medium) else ".iso"))
    if case.medium in ("iso", "usb", "hdd"):
        if case.options or case.loader:
            return variant_image(case.options, "iso", case.loader)
        return ISO
    if is_floppy(case.medium):
        if case.options:
            return variant_image(case.options, case.medium)
        return os.path.join(BUILD, "apmoff%s.img" % floppy_suffix(case.medium))
    return ELF


# --- QEMU ----------------------------------------------------------------------

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


def qemu_command(case, image, serial_path, qmp_path):
    # x64 OVMF does not run in qemu-system-i386; the kernel is 32-bit either way.
    binary = "qemu-system-x86_64" if case.bios == "ovmf" else "qemu-system-i386"
    cmd = [binary, "-S", "-display", "none", "-no-reboot", "-nodefaults",
           "-vga", "std", "-serial", "file:" + serial_path,
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
        # QEMU picks for the image.
        cmd += ["-drive", "if=none,id=floppy0,format=raw,file=" + image,
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


QR_ON_SCREEN = re.compile(r"^apmoff: survey screen: QR code .* on screen", re.M)
BOCHS_QR_PAGES = 8      # pages dumped at most (the kernel stops at the breakpoint on each)
TICK_WINDOW = re.compile(r"^apmoff: selftest: idle: tick read window", re.M)


def read_bda_ticks(qmp, deadline):
    """The BIOS data area's tick count, read from guest memory by QEMU."""
    reply = qmp.command("human-monitor-command", deadline, **{"command-line": "xp /1wx 0x46c"})
    m = re.search(r":\s*0x([0-9a-f]+)", (reply or {}).get("return", ""))
    return int(m.group(1), 16) if m else None


def run_qemu(case, workdir):
    serial_path = os.path.join(workdir, "serial.txt")
    qmp_path = os.path.join(workdir, "qmp.sock")
    cmd = qemu_command(case, image_for(case), serial_path, qmp_path)
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
        watch = SerialWatch(serial_path, case)
        pages_shown = 0
        nmi_sent = False
        key_due = None                  # key_after: when, once its line has been seen
        ticks = []
        while time.monotonic() < deadline:
            if case.nmi_after and not nmi_sent and re.search(case.nmi_after, watch.text(),
                                                             re.M):
                nmi_sent = True
                qmp.command("inject-nmi", deadline)
            if case.key_after and key_due is None and re.search(case.key_after[0],
                                                                 watch.text(), re.M):
                key_due = time.monotonic() + case.key_after[1]
            if key_due is not None and time.monotonic() >= key_due:
                key_due = float("inf")
                qmp.command("send-key", deadline, keys=[{"type": "qcode", "data": "ret"}])
            if case.bda_ticks and not ticks and TICK_WINDOW.search(watch.text()):
                ticks.append(read_bda_ticks(qmp, deadline))
            if case.qr and len(QR_ON_SCREEN.findall(watch.text())) > pages_shown:
                pages_shown += 1
                qmp.command("screendump", deadline,
                            filename=os.path.join(workdir, "screen-%d.ppm" % pages_shown))
                qmp.command("send-key", deadline, keys=[{"type": "qcode", "data": "ret"}])
            for ev in qmp.poll_events(0.05):
                if ev["event"] == "SHUTDOWN":
                    reason = ev.get("data", {}).get("reason", "")
                    verdict = {"guest-shutdown": "poweroff", "guest-reset": "reset",
                               "guest-panic": "panic"}.get(reason, "shutdown:" + reason)
                elif ev["event"] == "GUEST_PANICKED":
                    verdict = "panic"
            if verdict != "hang":
                break
            if qmp.closed:
                proc.wait(timeout=5)
                verdict = "exit:%d" % proc.returncode
                break
            if watch.settled():
                verdict = "quiet"
                break
        else:
            verdict = "timeout"
        if case.bda_ticks and not qmp.closed:
            ticks.append(read_bda_ticks(qmp, time.monotonic() + 10))
            with open(os.path.join(workdir, "ticks.txt"), "w") as f:
                f.write(" ".join(str(t) for t in ticks))
        if case.screen_text and not qmp.closed:
            qmp.command("screendump", time.monotonic() + 10,
                        filename=os.path.join(workdir, "final.ppm"))
        if case.screen and not qmp.closed:
            with open(os.path.join(workdir, "screen.txt"), "w") as f:
                f.write(text_screen(qmp, time.monotonic() + 10))
        if verdict == "timeout" and not qmp.closed:
            # A machine that never got anywhere: the BIOS's or the loader's last words
            # are on the screen, not on our serial line.
            with open(os.path.join(workdir, STUCK_SCREEN), "w") as f:
                f.write(text_screen(qmp, time.monotonic() + 10))
    finally:
        kill_group(proc)
    return verdict, time.monotonic() - start, SerialWatch(serial_path, case).text()


STUCK_SCREEN = "timeout-screen.txt"


def text_screen(qmp, deadline):
    """The 80x25 VGA text screen as a person reads it: the character bytes at B8000h,
    read by QEMU from guest memory (not what the guest says it drew)."""
    reply = qmp.command("human-monitor-command", deadline,
                        **{"command-line": "xp /2000hx 0xb8000"}) or {}
    cells = []
    for line in reply.get("return", "").splitlines():      # "00000000000b8000: 0x0761 ..."
        cells += [int(w, 16) for w in re.findall(r"0x([0-9a-f]{4})", line.split(":", 1)[-1])]
    chars = "".join(chr(c & 0xFF) if 0x20 <= (c & 0xFF) < 0x7F else " " for c in cells)
    return "\n".join(chars[i:i + 80].rstrip() for i in range(0, len(chars), 80))


# --- Bochs ---------------------------------------------------------------------

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
        lines += ["floppya: %s=%s, status=inserted" % (BOCHS_FLOPPY[floppy_suffix(case.medium)],
                                                       image), "boot: floppy"]
    else:
        lines += ["ata0-master: type=cdrom, path=%s, status=inserted" % image,
                  "boot: cdrom"]
    return "\n".join(lines + case.extra) + "\n"


VGA_PLANE_BYTES = 640 * 480 // 8       # mode 12h, one bit a pixel in each plane


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
    (re.compile(r"cpu software reset|reset_cpu|system reset"), "reset"),
]


def run_bochs(case, workdir):
    serial_path = os.path.join(workdir, "serial.txt")
    log_path = os.path.join(workdir, "bochs.log")
    rc_path = os.path.join(workdir, "bochsrc")
    cmds_path = os.path.join(workdir, "commands")
    image = image_for(case)
    with open(rc_path, "w") as f:
        f.write(bochs_config(case, image, serial_path, log_path))
    with open(cmds_path, "w") as f:
        if case.qr:
            # The kernel stops at Bochs' magic breakpoint once each QR code is drawn:
            # dump plane 0 of the VGA (every plane holds the same bits), go on. Stops
            # that never come leave the run at the halt, where the harness ends it.
            f.write("c\n" + "".join('writemem "%s" 0xa0000 %d\nc\n'
                                    % (os.path.join(workdir, "vga-%d.bin" % i),
                                       VGA_PLANE_BYTES)
                                    for i in range(1, BOCHS_QR_PAGES + 1)) + "quit\n")
        else:
            # Run; past the QR pages' magic breakpoints, if any; after any other
            # debugger stop, end the run instead of waiting at the prompt.
            f.write("c\n" * (BOCHS_QR_PAGES + 1) + "quit\n")
    start = time.monotonic()
    deadline = start + case.timeout
    with open(os.path.join(workdir, "stdout.txt"), "wb") as out:
        proc = subprocess.Popen(["bochs", "-q", "-f", rc_path, "-rc", cmds_path],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                cwd=workdir, start_new_session=True)
    verdict = None
    watch = SerialWatch(serial_path, case)
    try:
        while time.monotonic() < deadline:
            exited = proc.poll() is not None
            log = ""
            if os.path.exists(log_path):
                with open(log_path, "rb") as f:
                    log = f.read().decode("latin-1")
            for pattern, name in BOCHS_VERDICTS:
                if pattern.search(log):
                    verdict = name
                    break
            if verdict:
                break
            if exited:
                verdict = "exited:%d" % proc.returncode
                break
            if watch.settled():
                verdict = "quiet"
                break
            time.sleep(0.05)
        else:
            verdict = "timeout"
    finally:
        kill_group(proc)
    return verdict, time.monotonic() - start, watch.text()


# --- 86Box ---------------------------------------------------------------------

def run_86box(case, workdir):
    serial_path = os.path.join(workdir, "serial.txt")
    watch = SerialWatch(serial_path, case)
    verdict, seconds, shot = box86.run(case, workdir, image_for(case), watch,
                                       want_screen=case.screen_text)
    if shot:
        shutil.copyfile(shot, os.path.join(workdir, "final.png"))
    return verdict, seconds, watch.text()


RUNNERS = {"qemu": run_qemu, "bochs": run_bochs, "86box": run_86box}


# --- judging -------------------------------------------------------------------

EXPECT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expect")
CHECK_LINE = re.compile(r"^apmoff: check (PASS|FAIL|SKIP) (\S+) ", re.M)


def read_expectation(name):
    """{check name: verdict} from an expectation file: `VERDICT name  # note` lines."""
    expected = {}
    with open(os.path.join(EXPECT_DIR, name)) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                verdict, check = line.split()
                expected[check] = verdict
    return expected


def compare_checks(name, serial):
    expected = read_expectation(name)
    seen = {m.group(2): m.group(1) for m in CHECK_LINE.finditer(serial)}
    problems = []
    for check in sorted(set(expected) | set(seen)):
        want, got = expected.get(check, "absent"), seen.get(check, "absent")
        if want != got:
            problems.append("check %s: expected %s (%s), got %s" % (check, want, name, got))
    return problems


def read_picture(path):
    """(width, height, RGB bytes) of a screenshot: a binary PPM as QEMU's screendump
    writes it, or (with Pillow) the PNG that 86Box saves."""
    if path.endswith(".png"):
        from PIL import Image
        with Image.open(path) as im:
            rgb = im.convert("RGB")
            return rgb.width, rgb.height, rgb.tobytes()
    with open(path, "rb") as f:
        data = f.read()
    magic, dims, maxval, pixels = data.split(b"\n", 3)
    width, height = map(int, dims.split())
    return width, height, pixels


def check_screen_text(path):
    """The console drew characters: a good share of the pixel rows near the top hold
    both lit and dark pixels (glyphs), and the picture is not one colour."""
    if not os.path.exists(path):
        return ["no screenshot was taken"]
    width, height, pixels = read_picture(path)
    rows_with_ink = 0
    for y in range(min(height, 400)):
        row = pixels[y * width * 3:(y + 1) * width * 3]
        lit = sum(1 for x in range(0, len(row), 3) if row[x] > 0x40)
        if 0 < lit < width:
            rows_with_ink += 1
    if rows_with_ink < 50:
        return ["the screen shows no text (%d of the top rows have glyph pixels)"
                % rows_with_ink]
    return []


def check_text_screen(patterns, path):
    """Every regex must match the text screen QEMU read at the end."""
    if not os.path.exists(path):
        return ["the text screen was not read"]
    with open(path) as f:
        text = f.read()
    return ["the screen lacks /%s/" % p for p in patterns if not re.search(p, text, re.M)]


def compare_qr(screenshots, serial):
    """The QR codes on the screen, one a page, must decode (zbarimg) and join
    (tests/emu/qrpages.py) to exactly the JSON line that the serial log carries after
    "apmoff: survey "."""
    lines = [l for l in serial.splitlines() if l.startswith("apmoff: survey {")]
    if not lines:
        return ["no 'apmoff: survey {...}' line on serial"]
    if not screenshots:
        return ["no screenshot was taken (the QR screen never appeared)"]
    json_line = lines[-1][len("apmoff: survey "):]
    try:
        json.loads(json_line)
    except ValueError as e:
        return ["the survey line is not valid JSON: %s" % e]
    pages = len(QR_ON_SCREEN.findall(serial))
    if len(screenshots) != pages:
        return ["%d QR pages were announced, %d captured" % (pages, len(screenshots))]
    try:
        symbols = [s for shot in screenshots for s in qrpages.read_symbols(shot)]
        joined = qrpages.join_pages(symbols)
    except qrpages.PageError as e:
        return ["the QR pages do not read back: %s" % e]
    if joined != json_line:
        return ["the QR pages join to %d bytes that differ from the %d-byte survey line"
                % (len(joined), len(json_line))]
    return []


def check_survey(expected, serial):
    """The survey line parses as JSON and holds the expected values."""
    lines = [l for l in serial.splitlines() if l.startswith("apmoff: survey {")]
    if not lines:
        return ["no 'apmoff: survey {...}' line on serial"]
    try:
        report = json.loads(lines[-1][len("apmoff: survey "):])
    except ValueError as e:
        return ["the survey line is not valid JSON: %s" % e]
    problems = []
    for path, want in expected.items():
        node = report
        for key in path.split("."):
            node = node.get(key) if isinstance(node, dict) else None
        if node != want:
            problems.append("survey %s is %r, expected %r" % (path, node, want))
    return problems


# v86test: the trampoline (the CPU itself, in real mode) and the v86 monitor ran the
# same code; the harness, not the kernel, compares what each left.
CMP_LINE = re.compile(r"^apmoff: v86test: (?:PASS|FAIL) (.*): trampoline (.*), v86 (.*)$",
                      re.M)
INSN_LINE = re.compile(r"^apmoff: v86test: insn (\S+) (trampoline|v86) (.*)$", re.M)
INSN_STOP = re.compile(r"^apmoff: v86test: insn (\S+) v86 stopped: ", re.M)


def regs_of(text):
    return dict(re.findall(r"(\w+)=([0-9A-F]+)", text))


def compare_v86_paths(expected, serial):
    """Every v86test comparison line: the monitor's registers equal the CPU's. With
    `expected` (v86test=insns), each stub must have run, the CPU's values must be
    what the instruction set reference says (IF bits, mostly), and the stubs a real
    CPU would hang on must have been stopped by the monitor."""
    problems = []
    for m in CMP_LINE.finditer(serial):
        if regs_of(m.group(2)) != regs_of(m.group(3)):
            problems.append("v86test %s: trampoline %s, v86 %s" % m.groups())
    runs = {}
    for m in INSN_LINE.finditer(serial):
        if not m.group(3).startswith("stopped"):
            runs.setdefault(m.group(1), {})[m.group(2)] = regs_of(m.group(3))
    stopped = set(INSN_STOP.findall(serial))
    for name, paths in sorted(runs.items()):
        if len(paths) == 2 and paths["trampoline"] != paths["v86"]:
            problems.append("v86test insn %s: the CPU left %s, the monitor %s" % (
                name, paths["trampoline"], paths["v86"]))
    for name, want in sorted(expected.items()):
        if want == "stopped":
            if name not in stopped:
                problems.append("v86test insn %s: the monitor did not stop it" % name)
            continue
        paths = runs.get(name, {})
        if set(paths) != {"trampoline", "v86"}:
            problems.append("v86test insn %s: ran on %s, not on both paths"
                            % (name, ", ".join(sorted(paths)) or "neither"))
            continue
        for reg, (mask, value) in sorted(want.items()):
            got = int(paths["trampoline"].get(reg, "-1"), 16)
            if got & mask != value:
                problems.append("v86test insn %s: the CPU left %s=%04X, expected %04X "
                                "under mask %04X" % (name, reg, got, value, mask))
    return problems


def check_ticks(minimum, path):
    """The timer's interrupts reached the BIOS calls: the tick count QEMU read in
    guest memory moved by at least `minimum` between the kernel's read window (when
    nothing runs) and the end of the run."""
    try:
        with open(path) as f:
            values = [int(v) for v in f.read().split()]
    except (OSError, ValueError):
        values = []
    if len(values) != 2:
        return ["the BIOS tick count was not read before and after the calls (%s)"
                % (values or "never")]
    if values[1] - values[0] < minimum:
        return ["the BIOS tick count moved by %d (from %d to %d), expected at least %d: "
                "no timer interrupt reached the BIOS calls" % (values[1] - values[0],
                                                               values[0], values[1], minimum)]
    return []


def judge(case, verdict, serial):
    problems = []
    lines = apmoff_lines(serial)
    expected = case.expect
    if expected == "hang":
        ok = verdict in ("quiet", "timeout") and case.hang_after and any(
            re.search(case.hang_after, l) for l in lines[-1:])
        if not ok:
            problems.append("expected a hang right after /%s/, got %s" % (case.hang_after,
                                                                          verdict))
    elif expected == "halt":
        if verdict not in ("quiet", "timeout") or not (
                lines and lines[-1].startswith("apmoff: halted:")):
            problems.append("expected a halt with 'apmoff: halted:' last, got %s" % verdict)
    elif verdict != expected:
        problems.append("expected %s, emulator showed %s" % (expected, verdict))
    for pattern in case.serial:
        if not re.search(pattern, serial, re.M):
            problems.append("serial lacks /%s/" % pattern)
    for pattern in case.serial_absent:
        if re.search(pattern, serial, re.M):
            problems.append("serial has unexpected /%s/" % pattern)
    if case.last_line and not (lines and re.search(case.last_line, lines[-1])):
        problems.append("last line %r does not match /%s/" %
                        (lines[-1] if lines else "", case.last_line))
    if case.check_expect:
        problems += compare_checks(case.check_expect, serial)
    if case.survey:
        problems += check_survey(case.survey, serial)
    problems += compare_v86_paths(case.insns, serial)
    bad = [l for l in serial.splitlines() if l.startswith("apmoff: CPU exception")]
    if bad and not any("CPU exception" in p for p in case.serial):
        problems.append("CPU exception: " + bad[0])
    return problems


def compare_photos(shots, workdir):
    """Each page reads back the same from every degraded copy of its screenshot."""
    problems = []
    for shot in shots:
        clean = qrpages.read_symbols(shot)
        for name, path in photo.degrade(shot, workdir).items():
            if qrpages.read_symbols(path) != clean:
                problems.append("%s: the QR code does not read back when %s"
                                % (os.path.basename(shot), name))
    return problems


def qr_screenshots(case, workdir):
    """The pictures of the QR pages, in page order (Bochs: from the VGA dumps)."""
    shots = []
    for i in range(1, BOCHS_QR_PAGES + 1):
        ppm = os.path.join(workdir, "screen-%d.ppm" % i)
        raw = os.path.join(workdir, "vga-%d.bin" % i)
        if case.emulator == "bochs" and os.path.exists(raw):
            ppm = os.path.join(workdir, "screen-%d.pgm" % i)
            vga_plane_to_pgm(raw, ppm)
        if os.path.exists(ppm):
            shots.append(ppm)
    return shots
>>>>>>> floppy


def unavailable(case):
    """Why this case cannot run on this machine, or "" when it can."""
    if case.emulator == "86box":
        return box86.missing(case.machine) or ""
    return ""


def run_case(case, keep_dir=None):
    """Boots and judges one case (twice at most: see Case.retry_if)."""
    why = unavailable(case)
    if why:
        return Result(case, "skipped", False, 0.0, [], "", skipped=why)
    first = run_once(case, keep_dir)
    if first.passed or not case.retry_if or apmoff_lines(first.serial):
        return first
    hiccup = [p[len("screen: "):] for p in first.problems
              if p.startswith("screen: ") and re.search(case.retry_if, p)]
    if not hiccup:
        return first
    second = run_once(case, keep_dir)
    second.retried = hiccup[0].strip()
    return second


def run_once(case, keep_dir):
    workdir = tempfile.mkdtemp(prefix="apmoff-%s-" % case.name)
    try:
        verdict, seconds, serial = RUNNERS[case.emulator](case, workdir)
        run = Run(case, workdir, verdict=verdict, serial=serial)
        problems = judge_core(run)
        for judge in judges_of(case):
            problems += judge.problems(run)
        stuck = os.path.join(workdir, qemu.STUCK_SCREEN)
        if problems and os.path.exists(stuck):
            with open(stuck) as f:
                problems += ["screen: " + l for l in f.read().splitlines() if l.strip()]
        if not problems and verdict in ("quiet", "timeout"):
            verdict = case.expect       # no emulator event, as expected: name it so
        if problems and keep_dir:
            dest = os.path.join(keep_dir, case.name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(workdir, dest,
                            ignore=shutil.ignore_patterns("*.sock"))
        return Result(case, verdict, not problems, seconds, problems, serial)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
