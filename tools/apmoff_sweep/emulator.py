"""One bounded 86Box boot, watched: 86Box's stderr markers, COM1, and the screen.

86Box runs headless (SDL's dummy drivers) in a session of its own, so its process
group is only the 86Box started here, and it is stopped by that group alone (TERM,
then KILL): 86Box writes the machine's CMOS and flash to <vmdir>/nvr/ on TERM.

With the kit's patch (../shared/86box/PATCH.diff) 86Box prints on stderr:
  BENCH86: hard reset            at power-on, and at every later hard reset
  BENCH86: soft reset            a CPU reset (after a triple fault: both lines)
  BENCH86: triple fault          the CPU triple-faulted
  BENCH86: soft-off (plat_power_off)   the emulated chipset cut the power
  BENCH86: fault N at CS:EIP ... every exception, with BENCH86_FAULTS set
and takes SIGUSR1 (save a screenshot in <vmdir>/screenshots/) and SIGUSR2 (press the
set-1 scan codes listed in $BENCH86_KEYFILE, then delete that file). The screen is
read (screen.py) every few seconds until the kernel speaks on COM1, and a BIOS prompt
(prompts.py) is answered with its keys.

The verdict is 86Box's, never the guest's words:
  poweroff       the soft-off marker (86Box then exits by itself)
  triple-fault   the triple-fault marker after COM1 first had output, or the
                 LOOPING_TRIPLES-th before it (a BIOS of the 286's line may leave
                 protected mode in POST by a triple fault, as the Quadtel 386SX does:
                 one does not count; a boot sector that faults loops through POST)
  reset          a reset marker after COM1 first had output (86Box prints one at
                 power-on, and some BIOSes reset once in POST: those do not count)
  exit:N         86Box exited by itself with status N, without a soft-off
  on             the sweep stopped a machine that was still on: SETTLE_SECS after the
                 kernel's last line ("apmoff: halted: ...") or the loader's ("apmoff
                 loader: halted: ..."), or at a screen saying the BIOS found nothing
                 to boot
  timeout        the deadline passed with none of the above (once COM1 has had text,
                 not before LOADER_SECS after it; after the sweep answered a prompt,
                 not before ANSWER_SECS after that)
An unpatched 86Box prints no markers and takes no signals: then only its exit (status 0
after a soft-off: poweroff; an odd status from the kernel's onfail=exit through the
Unit Tester device the configuration switches on), on and timeout can be told, and no
prompt can be answered.
"""

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field

from . import prompts, screen
from .judge import kernel_lines

MARKER = re.compile(r"^BENCH86: (soft-off|triple fault|hard reset|soft reset)", re.M)
TEXT = re.compile(r"[ -~]{4}")
FAULT = re.compile(r"^BENCH86: (?:fault \d+ at|#UD at|triple fault).*$", re.M)

POLL_SECS = 0.5
POWER_ON_SECS = 30      # 86Box loads its ROMs and powers the machine on within this
SHOT_EVERY_SECS = 3     # the screen is read this often while the BIOS runs
FIRST_SHOT_SECS = 8     # no signal before this: the patch sets its SIGUSR1/SIGUSR2 handlers
                        # when 86Box's main loop starts, after the power-on marker, and a
                        # signal before them ends 86Box (exit:-10)
SIGNAL_EXITS = ("exit:-10", "exit:-12")     # 86Box ended by SIGUSR1 or SIGUSR2
SHOT_WAIT_SECS = 5      # a screenshot is on disk within this after SIGUSR1
KEY_GAP_SECS = 0.4      # between two keys of one answer: a BIOS reads them one by one
SETTLE_SECS = 4         # after "apmoff: halted", for a late soft-off or reset
LOADER_SECS = 90        # the loader and the kernel's own time once COM1 has text: the
                        # deadline bounds POST, and a slow one (the PS/2 model 80's,
                        # 146 s) must not cut off the run it finally starts
STALL_SECS = 45         # a screen unchanged this long, and COM1 silent: the boot is stuck
                        # (a floppy's retries and a POST memory test change it sooner)
BLIND_SECS = 15         # after each blind key (prompts.BLIND_KEYS), before the next
OFF_WAIT_SECS = 10      # after the soft-off marker, for 86Box's own exit
STOP_TERM_SECS = 10     # TERM, then KILL after this
LOOPING_TRIPLES = 8     # triple faults before COM1's first text that make a loop (the
                        # ZEOS Martin's Phoenix BIOS leaves protected mode by three in
                        # the POST of a 16 MB machine)
ANSWER_SECS = 60        # a boot the sweep answered a prompt in has this long after the
                        # answer: the ECS 386's AMI BIOS counts 16 MB for 140 s first
FAULT_LINES = 40        # fault trace lines kept (the last ones before the end)
STDERR_KEEP = 256 * 1024    # bytes of stderr kept for the record (the head: 86Box's log)


@dataclass
class Screen:
    at: float           # seconds after start
    path: str
    lines: list
    rule: str = ""      # the prompts.RULES name matched, or ""
    text: str = ""      # what it matched
    keys: tuple = ()    # keys pressed in answer


@dataclass
class Boot:
    verdict: str = ""
    seconds: float = 0.0
    powered_on: bool = False
    patched: bool = True        # the markers came (the kit's patched 86Box)
    exit_status: int = None
    com1: str = ""
    stderr_head: str = ""
    markers: list = field(default_factory=list)
    faults: list = field(default_factory=list)
    screens: list = field(default_factory=list)
    final: Screen = None
    stopped_at: str = ""        # why the sweep stopped it: a STOP rule's text, a stall
    stalled: bool = False       # stopped because the screen stood still
    kernel_on_screen: bool = False  # stopped at the kernel's halt, read on the screen
    loader_on_screen: bool = False  # stopped at the loader's halt, read on the screen
    stop_rule: str = ""         # the STOP rule (prompts.py) whose screen ended the boot
    first_com1: float = None    # seconds to COM1's first text (GRUB or the kernel)
    first_kernel: float = None  # seconds to the kernel's first line


class Markers:
    """The kit patch's stderr markers, read as they come: what they say about the boot.
    A reset or a triple fault counts once COM1 has had text (com1_started): 86Box
    prints one hard reset at power-on, some BIOSes reset once more in POST (the FIC
    VA-503+ does), and some leave protected mode by a triple fault."""

    def __init__(self):
        self.seen = []          # marker names, in order
        self.powered_on = False
        self.resets = 0         # resets after power-on
        self.quiet_resets = None    # of those, the ones before COM1's first text
        self.triples = 0            # triple faults
        self.quiet_triples = None   # of those, the ones before COM1's first text

    def feed(self, text):
        for m in MARKER.finditer(text):
            self.seen.append(m.group(1))
            if m.group(1) == "hard reset" and not self.powered_on:
                self.powered_on = True
            elif m.group(1).endswith("reset"):
                self.resets += 1
            elif m.group(1) == "triple fault":
                self.triples += 1

    def com1_started(self):
        if self.quiet_resets is None:
            self.quiet_resets = self.resets
            self.quiet_triples = self.triples

    def event(self):
        """"poweroff", "triple-fault", "reset", or None: the first that ends a boot."""
        if "soft-off" in self.seen:
            return "poweroff"
        quiet = self.triples if self.quiet_triples is None else self.quiet_triples
        if self.triples > quiet or quiet >= LOOPING_TRIPLES:
            return "triple-fault"
        if self.quiet_resets is not None and self.resets > self.quiet_resets:
            return "reset"
        return None


def exit_verdict(markers, status):
    """The verdict of an 86Box that exited by itself with status, given the patch's
    markers it printed (none from an 86Box without the kit's patch). The patched one
    has printed its soft-off by then. One without the patch says nothing: status 0 is
    its plat_power_off() (a soft-off by ACPI, APM or the chipset; headless, nobody
    closes a window), and an odd status is the kernel's onfail=exit code through the
    Unit Tester device, (code << 1) | 1, as QEMU's isa-debug-exit gives."""
    if "soft-off" in markers or (status == 0 and not markers):
        return "poweroff"
    return "exit:%d" % status


class FaultTrace:
    """86Box's fault lines, read as they come: the last FAULT_LINES of them up to the
    latest triple fault. What follows a triple fault is the BIOS starting again, whose
    own #UDs would push the cause out; a later triple fault (a loop, or a BIOS that
    left protected mode by one in POST and whose loader then faulted) replaces it."""

    def __init__(self):
        self.window = []        # the lines since the latest triple fault
        self.ended = None       # the lines that ended at it

    def feed(self, text):
        for line in FAULT.findall(text):
            self.window = (self.window + [line])[-FAULT_LINES:]
            if "triple fault" in line:
                self.ended, self.window = self.window, []

    def lines(self):
        return list(self.ended if self.ended is not None else self.window)


# The kernel's halt on the screen (read while COM1 has no kernel line).
SCREEN_HALTED = re.compile(r"^\s*apmoff: halted: ")
# apmoff's loader stopped with its reason: it will not go on either.
# apmoff's loader stopped with its reason: it will not go on either. Its boot sector
# says "apmoff loader: disk read error 01h; halted".
LOADER_HALTED = re.compile(r"^apmoff loader: (?:halted: |.*; halted)", re.M)


def past_deadline(elapsed, timeout, first_com1, answered=None):
    """Whether a boot `elapsed` seconds old is out of time: the deadline bounds POST,
    and once COM1 has had text (`first_com1` seconds in) the loader and the kernel
    have LOADER_SECS from then; a prompt answered `answered` seconds in (a setup's
    save cycle, the boot after it) has ANSWER_SECS from then."""
    return elapsed >= timeout and \
        (first_com1 is None or elapsed - first_com1 >= LOADER_SECS) and \
        (answered is None or elapsed - answered >= ANSWER_SECS)


class Cancelled(Exception):
    """The sweep was interrupted: the boot was stopped, nothing of it is a result."""


class Runner:
    """An 86Box binary and its ROM directory. `cancel` (a threading.Event), once set,
    stops every boot at its next poll."""

    def __init__(self, binary, roms, fonts=None, faults=True, cancel=None):
        self.binary = binary
        self.roms = roms
        self.fonts = fonts
        self.faults = faults
        self.cancel = cancel

    def env(self, vmdir):
        xdg = os.path.join(vmdir, "xdg")
        for sub in ("data", "config"):
            os.makedirs(os.path.join(xdg, sub), exist_ok=True)
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   ALSOFT_DRIVERS="null", XDG_DATA_HOME=os.path.join(xdg, "data"),
                   XDG_CONFIG_HOME=os.path.join(xdg, "config"), XDG_DATA_DIRS=xdg,
                   BENCH86_KEYFILE=os.path.join(vmdir, "keys"))
        env.pop("BENCH86_F1_SECS", None)
        if self.faults:
            env["BENCH86_FAULTS"] = "1"
        else:
            env.pop("BENCH86_FAULTS", None)
        return env

    def boot(self, vmdir, com1, timeout, answer=True):
        """Boots the machine of <vmdir>/86box.cfg; returns a Boot."""
        watch = Watch(self, vmdir, com1, timeout, answer)
        try:
            return watch.run()
        finally:
            watch.stop()


class Watch:
    def __init__(self, runner, vmdir, com1, timeout, answer):
        self.r, self.vmdir, self.com1_path = runner, vmdir, com1
        self.timeout, self.answer = timeout, answer
        self.boot = Boot()
        self.proc = None
        self.err_path = os.path.join(vmdir, "86box-stderr.txt")
        self.err_pos = self.com1_pos = 0
        self.marks = Markers()
        self.fault_trace = FaultTrace()
        self.presses = {}
        self.last_lines = None      # the screen, and since when it is the same
        self.same_since = None
        self.com1_then = ""
        self.blind = 0              # blind keys pressed (prompts.BLIND_KEYS)
        self.answered = None        # when the last answer was pressed (s into the boot)

    def run(self):
        b = self.boot
        cfg = os.path.join(self.vmdir, "86box.cfg")
        open(self.com1_path, "wb").close()
        with open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [self.r.binary, "-N", "-R", self.r.roms, "-P", self.vmdir, cfg],
                stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                env=self.r.env(self.vmdir), start_new_session=True)
        self.start = time.monotonic()
        next_shot = self.start + FIRST_SHOT_SECS
        settled_at = None
        while not b.verdict:
            time.sleep(POLL_SECS)
            if self.r.cancel is not None and self.r.cancel.is_set():
                raise Cancelled()
            now = time.monotonic()
            self.read_stderr()
            self.read_com1()
            lines = kernel_lines(b.com1)
            if not b.powered_on:
                if self.proc.poll() is not None:
                    b.exit_status = self.proc.returncode
                    b.verdict = "exit:%d" % b.exit_status
                elif now - self.start > POWER_ON_SECS:
                    # Running, but no marker: an 86Box without the kit's patch. Its
                    # exit after a soft-off (exit:0), a halted kernel and the deadline
                    # can still be told; no screen is read, no key pressed.
                    b.powered_on, b.patched = True, False
                continue
            event = self.marks.event()
            if event == "poweroff":
                b.verdict = event
                self.wait_exit(OFF_WAIT_SECS)
                break
            if event:
                time.sleep(1)       # the last COM1 bytes
                self.read_com1()
                b.verdict = event
                break
            if self.proc.poll() is not None:
                self.read_stderr()
                b.exit_status = self.proc.returncode
                b.verdict = exit_verdict(self.marks.seen, b.exit_status)
                break
            if lines and lines[-1].startswith("apmoff: halted") or \
                    not lines and LOADER_HALTED.search(b.com1):
                settled_at = settled_at or now
                if now - settled_at >= SETTLE_SECS:
                    b.verdict = "on"
                    break
            else:
                settled_at = None
            if past_deadline(now - self.start, self.timeout, b.first_com1,
                             self.answered):
                b.verdict = "timeout"
                break
            if not lines and now >= next_shot and self.r.fonts and b.patched:
                self.look(now)
                if b.stopped_at:
                    b.verdict = "on"
                    break
                next_shot = time.monotonic() + SHOT_EVERY_SECS
        b.seconds = time.monotonic() - self.start
        if b.verdict in ("timeout", "on", "triple-fault", "reset") and b.patched and \
                b.first_kernel is None and self.r.fonts and self.proc.poll() is None:
            b.final = self.shoot()
        return b

    # --- what 86Box says -----------------------------------------------------------

    def read_stderr(self):
        try:
            with open(self.err_path, "rb") as f:
                f.seek(self.err_pos)
                new = f.read()
        except OSError:
            return
        if not new:
            return
        # Only whole lines: a marker may be half written.
        cut = new.rfind(b"\n") + 1
        new = new[:cut]
        self.err_pos += cut
        text = new.decode("latin-1")
        b = self.boot
        if len(b.stderr_head) < STDERR_KEEP:
            b.stderr_head += text[:STDERR_KEEP - len(b.stderr_head)]
        self.marks.feed(text)
        b.markers = self.marks.seen
        b.powered_on = b.powered_on or self.marks.powered_on
        if self.r.faults:
            self.fault_trace.feed(text)
            b.faults = self.fault_trace.lines()

    def read_com1(self):
        try:
            with open(self.com1_path, "rb") as f:
                f.seek(self.com1_pos)
                new = f.read()
        except OSError:
            return
        if not new:
            return
        self.com1_pos += len(new)
        b = self.boot
        b.com1 += new.decode("latin-1")
        now = time.monotonic() - self.start
        # Text, not a byte: some BIOSes write to the UART while they test it in POST.
        if b.first_com1 is None and TEXT.search(b.com1):
            b.first_com1 = now
            self.read_stderr()
            self.marks.com1_started()
            if self.marks.triples:      # POST's own: trace what comes now instead
                self.fault_trace = FaultTrace()
                b.faults = []
        if b.first_kernel is None and kernel_lines(b.com1):
            b.first_kernel = now

    def wait_exit(self, secs):
        try:
            self.proc.wait(timeout=secs)
            self.boot.exit_status = self.proc.returncode
        except subprocess.TimeoutExpired:
            pass

    # --- the screen ----------------------------------------------------------------

    def shoot(self):
        """A screenshot now, read; None when 86Box saved none in time."""
        shots = os.path.join(self.vmdir, "screenshots")
        before = set(os.listdir(shots)) if os.path.isdir(shots) else set()
        try:
            os.kill(self.proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return None
        deadline = time.monotonic() + SHOT_WAIT_SECS
        while time.monotonic() < deadline:
            time.sleep(0.2)
            new = sorted(set(os.listdir(shots)) - before) if os.path.isdir(shots) else []
            if new:
                path = os.path.join(shots, new[-1])
                for _ in range(10):         # written whole: its size stops growing
                    size = os.path.getsize(path)
                    time.sleep(0.1)
                    if os.path.getsize(path) == size:
                        break
                try:
                    lines = screen.read_text(path, self.r.fonts)
                except screen.ScreenError:
                    lines = []
                return Screen(at=time.monotonic() - self.start, path=path, lines=lines)
        return None

    def look(self, now):
        shot = self.shoot()
        if not shot:
            return
        b = self.boot
        if any(SCREEN_HALTED.search(l) for l in shot.lines):
            # The kernel ran and halted with COM1 silent: no serial port answered it.
            b.stopped_at = "the kernel halted, its words on the screen alone"
            b.kernel_on_screen = True
            b.final = shot
            return
        if any(LOADER_HALTED.search(l.strip()) for l in shot.lines):
            # The loader halted with COM1 silent (or its UART elsewhere): it booted.
            b.stopped_at = "the loader halted, its words on the screen"
            b.loader_on_screen = True
            b.final = shot
            return
        if shot.lines != self.last_lines or b.first_com1 is not None and \
                b.com1 != self.com1_then:
            self.last_lines, self.same_since, self.com1_then = shot.lines, now, b.com1
        elif now - self.same_since >= STALL_SECS + BLIND_SECS * self.blind:
            found = prompts.match(shot.lines)
            if not found and self.answer and self.blind < len(prompts.BLIND_KEYS):
                # A screen no rule reads (a BIOS's own font, an unknown prompt) that
                # stands still: the keys that go on at most prompts, once each.
                key = prompts.BLIND_KEYS[self.blind]
                self.blind += 1
                shot.rule, shot.text, shot.keys = "blind", "an unread screen stood still", \
                    (key,)
                b.screens.append(shot)
                self.press((key,))
                return
            b.stopped_at = "the screen did not change for %d s" % (now - self.same_since)
            b.stalled = True
            b.final = shot
            return
        found = prompts.match(shot.lines)
        if not found:
            return
        rule, text = found
        shot.rule, shot.text = rule.name, text
        b.screens.append(shot)
        if rule.kind == "stop":
            b.stopped_at, b.stop_rule = text, rule.name
            b.final = shot
            return
        if not self.answer:
            return
        count = self.presses.get(rule.name, 0)
        if count >= prompts.MAX_PRESSES:
            return
        self.presses[rule.name] = count + 1
        shot.keys = rule.again if count and rule.again else rule.keys
        self.press(shot.keys)

    def press(self, keys):
        keyfile = os.path.join(self.vmdir, "keys")
        for code in prompts.scan_codes(keys):
            for _ in range(10):     # the previous key's file is gone once it was read
                if not os.path.exists(keyfile):
                    break
                time.sleep(0.1)
            with open(keyfile + ".tmp", "w") as f:
                f.write("%02x\n" % code)
            os.replace(keyfile + ".tmp", keyfile)
            try:
                os.kill(self.proc.pid, signal.SIGUSR2)
            except ProcessLookupError:
                return
            time.sleep(KEY_GAP_SECS)
        self.answered = time.monotonic() - self.start

    # --- the end -------------------------------------------------------------------

    def stop(self):
        """TERM, then KILL, the process group started here (86Box's session)."""
        proc = self.proc
        if proc is None:
            return
        stop_group(proc, STOP_TERM_SECS)
        if self.boot.exit_status is None and proc.poll() is not None and \
                self.boot.verdict.startswith("exit"):
            self.boot.exit_status = proc.returncode
        self.read_stderr()
        self.read_com1()


def keep_screen(shot, dest_dir, name):
    """Copies a Screen's picture to dest_dir/name; returns the new path."""
    if not shot or not shot.path or not os.path.exists(shot.path):
        return None
    os.makedirs(dest_dir, exist_ok=True)
    dest = os.path.join(dest_dir, name)
    shutil.copyfile(shot.path, dest)
    return dest


MISSING = re.compile(r"^Missing machine: (.*?)\s*$", re.M)
MISSING_SECS = 20       # 86Box lists its missing machines before it powers one on


def missing_machines(runner, vmdir, cfg_text):
    """The names of the machines 86Box finds no ROMs for in its ROM directory (its
    `--missing` list, printed while it starts); None when it printed no list."""
    os.makedirs(vmdir, exist_ok=True)
    cfg = os.path.join(vmdir, "86box.cfg")
    with open(cfg, "w") as f:
        f.write(cfg_text)
    err_path = os.path.join(vmdir, "86box-stderr.txt")
    with open(err_path, "wb") as err:
        proc = subprocess.Popen([runner.binary, "-M", "-N", "-R", runner.roms, "-P", vmdir,
                                 cfg],
                                stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                env=runner.env(vmdir), start_new_session=True)
    watch = Watch(runner, vmdir, os.path.join(vmdir, "com1.log"), MISSING_SECS, False)
    watch.proc = proc
    deadline = time.monotonic() + MISSING_SECS
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(POLL_SECS)
            with open(err_path, "rb") as f:
                text = f.read().decode("latin-1")
            if "BENCH86: hard reset" in text:
                break
    finally:
        watch.stop()
    with open(err_path, "rb") as f:
        text = f.read().decode("latin-1")
    names = MISSING.findall(text)
    # 86Box logs its ROM paths first: with them and no "Missing" line, none is missing.
    return set(names) if names or "ROM path" in text else None


def stop_group(proc, term_wait):
    """TERM, then KILL, the process group of `proc`, one started in a session of its
    own: 86Box saves its state on TERM, and is given term_wait seconds for it."""
    for sig, wait in ((signal.SIGTERM, term_wait), (signal.SIGKILL, 10)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass
