"""How a run is judged. judge_core() reads every case's main columns (the verdict the
emulator showed, the serial lines that must and must not appear, the last line); the
judge objects below check what some cases add, one class each:

    ChecksEqual("check-seabios")      action=check verdicts equal tests/emu/expect/ file
    SurveyMatches({"apm.version": ..}) the survey JSON line holds these values
    QrDecodes(photos=True)            the QR pages on screen read back as the JSON line
    V86Agrees(INSNS)                  the v86 monitor leaves what the CPU leaves
    TicksMove(8)                      QEMU: the BIOS tick count moved during the calls
    ClockAgrees()                     selftest=clock: the kernel's spans equal the RTC's
    TextScreenShows([...])            QEMU: the 80x25 text screen shows these lines
    ScreenHasText()                   QEMU, 86Box: the final picture shows text
    PortLog(0x440, [...])             QEMU: the guest's writes to that port hold lines
    BochsLogShows([...])              Bochs: its own log holds these lines, in order
    DosboxLogShows([...])             DOSBox-X: the same of its log (every APM call)

A judge may also capture what it needs while the emulator runs (the Probe hooks of
tests/emu/case.py): the runners call the hooks, and know no judge by name.
"""

import json
import os
import re

from tests.emu.case import Probe
from tests.emu.watch import apmoff_lines, loader_lines
from tools.apmoff_collect import qrpages

EXPECT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expect")


def judge_core(run):
    """The verdict, the serial lines and the last line, as every case states them."""
    case, verdict, serial = run.case, run.verdict, run.serial
    problems = []
    lines = apmoff_lines(serial)
    expected = case.expect
    if expected == "hang":
        seen = lines or loader_lines(serial)   # a hang in the loader: its lines
        ok = verdict in ("quiet", "timeout") and case.hang_after and any(
            re.search(case.hang_after, l) for l in seen[-1:])
        if not ok:
            problems.append("expected a hang right after /%s/, got %s" % (case.hang_after,
                                                                          verdict))
    elif expected == "halt":
        if verdict not in ("quiet", "timeout") or not (
                lines and lines[-1].startswith("apmoff: halted:")):
            problems.append("expected a halt with 'apmoff: halted:' last, got %s" % verdict)
    elif expected == "loader-halt":
        # The floppy loader stopped before any kernel ran, and said why last.
        said = loader_lines(serial)
        if verdict not in ("quiet", "timeout") or lines or not (
                said and said[-1].startswith("apmoff loader: halted:")):
            problems.append("expected the loader to halt with 'apmoff loader: halted:' "
                            "last and no kernel line, got %s" % verdict)
        lines = said
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
    bad = [l for l in serial.splitlines() if l.startswith("apmoff: CPU exception")]
    if bad and not any("CPU exception" in p for p in case.serial):
        problems.append("CPU exception: " + bad[0])
    return problems


def judges_of(case):
    """The case's judges, and V86Agrees() when it has none: every run's v86test lines
    must agree, whether the case asked for them or not."""
    extra = [] if any(isinstance(j, V86Agrees) for j in case.judges) else [V86Agrees()]
    return case.judges + extra


def survey_json(serial):
    """(the last "apmoff: survey {...}" line's JSON text, or None, problems)."""
    lines = [l for l in serial.splitlines() if l.startswith("apmoff: survey {")]
    if not lines:
        return None, ["no 'apmoff: survey {...}' line on serial"]
    return lines[-1][len("apmoff: survey "):], []


# --- action=check ------------------------------------------------------------------

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


class ChecksEqual(Probe):
    """Every `apmoff: check VERDICT name` line equals tests/emu/expect/NAME.txt."""
    groups = ("check",)

    def __init__(self, name):
        self.name = name if name.endswith(".txt") else name + ".txt"

    def problems(self, run):
        expected = read_expectation(self.name)
        seen = {m.group(2): m.group(1) for m in CHECK_LINE.finditer(run.serial)}
        problems = []
        for check in sorted(set(expected) | set(seen)):
            want, got = expected.get(check, "absent"), seen.get(check, "absent")
            if want != got:
                problems.append("check %s: expected %s (%s), got %s"
                                % (check, want, self.name, got))
        return problems


# --- the survey --------------------------------------------------------------------

def survey_report(serial):
    """(the survey line as a dict, problems): the JSON of the "apmoff: survey" line."""
    text, problems = survey_json(serial)
    if problems:
        return None, problems
    try:
        return json.loads(text), []
    except ValueError as e:
        return None, ["the survey line is not valid JSON: %s" % e]


def dotted(report, path):
    """The value at a dotted path ("chipset.soft_off"), or None."""
    node = report
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node


class SurveyMatches(Probe):
    """The survey line parses as JSON and holds these values (dotted paths)."""
    groups = ("survey",)

    def __init__(self, expected):
        self.expected = expected

    def problems(self, run):
        report, problems = survey_report(run.serial)
        for path, want in self.expected.items() if report is not None else ():
            if dotted(report, path) != want:
                problems.append("survey %s is %r, expected %r"
                                % (path, dotted(report, path), want))
        return problems


class SurveyListHas(Probe):
    """The survey's lists (dotted paths) hold an element starting with each of these
    strings: the PCI functions an emulator models, an E820 entry."""
    groups = ("survey",)

    def __init__(self, expected):
        self.expected = expected

    def problems(self, run):
        report, problems = survey_report(run.serial)
        for path, prefixes in self.expected.items() if report is not None else ():
            node = dotted(report, path)
            if not isinstance(node, list):
                problems.append("survey %s is %r, not a list" % (path, node))
                continue
            for prefix in prefixes:
                if not any(isinstance(e, str) and e.startswith(prefix) for e in node):
                    problems.append("survey %s has no element starting %r: %r"
                                    % (path, prefix, node))
        return problems


QR_ON_SCREEN = re.compile(r"^apmoff: survey screen: QR code .* on screen", re.M)
BOCHS_QR_PAGES = 8      # pages dumped at most (the kernel stops at the breakpoint on each)
VGA_PLANE_BYTES = 640 * 480 // 8       # mode 12h, one bit a pixel in each plane


def read_symbols(picture):
    """The QR symbols in a picture ([] when zbarimg reads none)."""
    try:
        return qrpages.zbar_symbols(picture, binary=True)
    except qrpages.PageError as e:
        if "not installed" in str(e):
            raise
        return []


class QrDecodes(Probe):
    """The QR code on the screen (one APMOFF2 symbol, or one APMOFF1 symbol a page)
    decodes (zbarimg) and unpacks or joins (qrpages) to exactly the JSON line that the
    serial log carries after "apmoff: survey "; with
    photos, every page also reads back from each degraded "phone photo" of it
    (tests/emu/photo.py). QEMU: a QMP screendump of each page, then a key; Bochs: the
    VGA plane dumped at the kernel's magic breakpoint (pictures screen-N.ppm/pgm)."""
    groups = ("survey", "qr")

    def __init__(self, photos=False):
        self.photos = photos

    def qemu_poll(self, run):
        mine = run.mine(self, shown=0)
        if len(QR_ON_SCREEN.findall(run.watch.text())) > mine["shown"]:
            mine["shown"] += 1
            run.qmp.command("screendump", run.deadline,
                            filename=run.path("screen-%d.ppm" % mine["shown"]))
            run.qmp.command("send-key", run.deadline,
                            keys=[{"type": "qcode", "data": "ret"}])

    def bochs_commands(self, run):
        # The kernel stops at Bochs' magic breakpoint once each QR code is drawn: dump
        # plane 0 of the VGA (every plane holds the same bits), go on. Stops that never
        # come leave the run at the halt, where the harness ends it.
        return "c\n" + "".join('writemem "%s" 0xa0000 %d\nc\n'
                               % (run.path("vga-%d.bin" % i), VGA_PLANE_BYTES)
                               for i in range(1, BOCHS_QR_PAGES + 1)) + "quit\n"

    def problems(self, run):
        shots = [p for i in range(1, BOCHS_QR_PAGES + 1)
                 for p in (run.path("screen-%d.ppm" % i), run.path("screen-%d.pgm" % i))
                 if os.path.exists(p)]
        problems = self.compare(shots, run.serial)
        if self.photos and not problems:
            problems = self.compare_photos(shots, run.workdir)
        return problems

    @staticmethod
    def compare(screenshots, serial):
        json_line, problems = survey_json(serial)
        if problems:
            return problems
        if not screenshots:
            return ["no screenshot was taken (the QR screen never appeared)"]
        try:
            json.loads(json_line)
        except ValueError as e:
            return ["the survey line is not valid JSON: %s" % e]
        pages = len(QR_ON_SCREEN.findall(serial))
        if len(screenshots) != pages:
            return ["%d QR pages were announced, %d captured" % (pages, len(screenshots))]
        try:
            joined = qrpages.survey_line([s for shot in screenshots
                                          for s in read_symbols(shot)])
        except qrpages.PageError as e:
            return ["the QR pages do not read back: %s" % e]
        if joined != json_line:
            return ["the QR pages join to %d bytes that differ from the %d-byte survey "
                    "line" % (len(joined), len(json_line))]
        return []

    @staticmethod
    def compare_photos(shots, workdir):
        from tests.emu import photo         # Pillow, only where photos are judged
        problems = []
        for shot in shots:
            clean = read_symbols(shot)
            for name, path in photo.degrade(shot, workdir).items():
                if read_symbols(path) != clean:
                    problems.append("%s: the QR code does not read back when %s"
                                    % (os.path.basename(shot), name))
        return problems


# --- the v86 monitor ---------------------------------------------------------------

# v86test: the trampoline (the CPU itself, in real mode) and the v86 monitor ran the
# same code; the harness, not the kernel, compares what each left.
CMP_LINE = re.compile(r"^apmoff: v86test: (?:PASS|FAIL) (.*): trampoline (.*), v86 (.*)$",
                      re.M)
INSN_LINE = re.compile(r"^apmoff: v86test: insn (\S+) (trampoline|v86) (.*)$", re.M)
INSN_STOP = re.compile(r"^apmoff: v86test: insn (\S+) v86 stopped: ", re.M)


def regs_of(text):
    return dict(re.findall(r"(\w+)=([0-9A-F]+)", text))


class V86Agrees(Probe):
    """Every v86test comparison line: the monitor's registers equal the CPU's. With
    `insns` (v86test=insns: stub -> {register: (mask, value)} or "stopped"), each stub
    must have run, the CPU's values must be what the instruction set reference says
    (IF bits, mostly), and the stubs a real CPU would hang on must have been stopped
    by the monitor."""

    def __init__(self, insns=None):
        self.insns = insns or {}
        self.groups = ("v86",) if self.insns else ()

    def problems(self, run):
        serial = run.serial
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
        for name, want in sorted(self.insns.items()):
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


# --- what QEMU reads in guest memory, and the screen --------------------------------

TICK_WINDOW = re.compile(r"^apmoff: selftest: idle: tick read window", re.M)


def read_bda_ticks(qmp, deadline):
    """The BIOS data area's tick count, read from guest memory by QEMU."""
    reply = qmp.command("human-monitor-command", deadline, **{"command-line": "xp /1wx 0x46c"})
    m = re.search(r":\s*0x([0-9a-f]+)", (reply or {}).get("return", ""))
    return int(m.group(1), 16) if m else None


class TicksMove(Probe):
    """QEMU, selftest=idle: the timer's interrupts reached the BIOS calls: the tick
    count (40:6Ch) QEMU read in guest memory moved by at least `minimum` between the
    kernel's read window (when nothing runs) and the end of the run."""
    groups = ("irq",)

    def __init__(self, minimum):
        self.minimum = minimum

    def qemu_poll(self, run):
        ticks = run.mine(self, ticks=[])["ticks"]
        if not ticks and TICK_WINDOW.search(run.watch.text()):
            ticks.append(read_bda_ticks(run.qmp, run.deadline))

    def qemu_end(self, run):
        ticks = run.mine(self, ticks=[])["ticks"]
        ticks.append(read_bda_ticks(run.qmp, run.deadline))
        with open(run.path("ticks.txt"), "w") as f:
            f.write(" ".join(str(t) for t in ticks))

    def problems(self, run):
        try:
            with open(run.path("ticks.txt")) as f:
                values = [int(v) for v in f.read().split()]
        except (OSError, ValueError):
            values = []
        if len(values) != 2:
            return ["the BIOS tick count was not read before and after the calls (%s)"
                    % (values or "never")]
        if values[1] - values[0] < self.minimum:
            return ["the BIOS tick count moved by %d (from %d to %d), expected at least %d: "
                    "no timer interrupt reached the BIOS calls"
                    % (values[1] - values[0], values[0], values[1], self.minimum)]
        return []


CLOCK_SPAN = re.compile(r"^apmoff: selftest: clock: (\d+) RTC seconds, edge to edge, "
                        r"reading nothing else: (>= )?(\d+) us$", re.M)


class ClockAgrees(Probe):
    """selftest=clock: each span the kernel timed while it read nothing but the RTC's
    seconds equals those seconds: exact (no ">="), within `slack_ms` plus `slack_pct`
    of the span. The slack is for the host: a guest descheduled when the seconds change
    sees the edge late (both clocks run on the host's time). The clock apmoff had
    before 0.4 said 27 ms for 3 s, and a PIT vernier without the RTC 3 s for 17."""
    groups = ("clock",)

    def __init__(self, spans=(3, 17), slack_ms=250, slack_pct=1.0):
        self.spans, self.slack_ms, self.slack_pct = spans, slack_ms, slack_pct

    def problems(self, run):
        found = [(int(s), bool(b), int(us)) for s, b, us in CLOCK_SPAN.findall(run.serial)]
        if [s for s, _, _ in found] != list(self.spans):
            return ["selftest=clock timed spans of %s RTC seconds, expected %s"
                    % ([s for s, _, _ in found] or "no", list(self.spans))]
        problems = []
        for seconds, bound, us in found:
            slack = self.slack_ms * 1000 + seconds * 10000 * self.slack_pct
            if bound:
                problems.append("%d RTC seconds: the clock gave only a lower bound "
                                "(>= %d us)" % (seconds, us))
            elif abs(us - seconds * 1000000) > slack:
                problems.append("%d RTC seconds took %d us by the clock: off by %d ms, "
                                "more than %d ms" % (seconds, us, (us - seconds * 1000000)
                                                    // 1000, slack // 1000))
        return problems


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


class TextScreenShows(Probe):
    """QEMU: every regex matches the text screen read from VGA memory at the end."""
    groups = ("screen",)

    def __init__(self, patterns):
        self.patterns = patterns

    def qemu_end(self, run):
        with open(run.path("screen.txt"), "w") as f:
            f.write(text_screen(run.qmp, run.deadline))

    def problems(self, run):
        if not os.path.exists(run.path("screen.txt")):
            return ["the text screen was not read"]
        with open(run.path("screen.txt")) as f:
            text = f.read()
        return ["the screen lacks /%s/" % p for p in self.patterns
                if not re.search(p, text, re.M)]


class PortLog(Probe):
    """QEMU: what the guest wrote to one I/O port (an isa-debugcon listens there) has a
    line matching each of `lines` and none matching `absent`. The writes are the
    firmware's AML's, not the kernel's, whose own lines go to serial and port E9h."""
    groups = ("acpi",)

    def __init__(self, port, lines, absent=()):
        self.port, self.lines, self.absent = port, lines, absent

    def log(self, workdir):
        return os.path.join(workdir, "port-%x.txt" % self.port)

    def qemu_args(self, workdir):
        name = "port%x" % self.port
        return ["-chardev", "file,id=%s,path=%s" % (name, self.log(workdir)),
                "-device", "isa-debugcon,iobase=0x%x,chardev=%s" % (self.port, name)]

    def problems(self, run):
        try:
            with open(self.log(run.workdir), errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        said = "port %Xh got %r" % (self.port, text[-200:])
        return (["no line /%s/: %s" % (p, said) for p in self.lines
                 if not re.search(p, text, re.M)] +
                ["a line /%s/: %s" % (p, said) for p in self.absent
                 if re.search(p, text, re.M)])


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


class BochsLogShows(Probe):
    """Bochs' log (its CPU's and its BIOS's own words) holds lines matching these
    patterns, in this order: what happened inside the emulator on the way to its
    verdict and after it (the runner lets Bochs run on until they are there)."""
    groups = ("bochs",)
    LOG = "bochs.log"

    def __init__(self, patterns):
        self.patterns = list(patterns)

    def missing(self, log):
        """The first pattern not found in order, or None."""
        at = 0
        for pattern in self.patterns:
            m = re.compile(pattern, re.M).search(log, at)
            if not m:
                return "%s lacks /%s/ after offset %d" % (self.LOG, pattern, at)
            at = m.end()
        return None

    def log_complete(self, log):
        return self.missing(log) is None

    def problems(self, run):
        try:
            with open(run.path(self.LOG), "rb") as f:
                log = f.read().decode("latin-1")
        except FileNotFoundError:
            return ["no " + self.LOG]
        why = self.missing(log)
        return [why] if why else []


class DosboxLogShows(BochsLogShows):
    """The same of DOSBox-X's log: its APM BIOS names every call it is made."""
    groups = ("dosbox-x",)
    LOG = "dosbox-x.log"


class QrOnFinalScreen(Probe):
    """86Box: the picture taken when the run went quiet (the kernel waiting for a key
    on its survey screen) holds the survey's QR code, and it unpacks to the serial
    JSON line exactly: the screen a person would photograph, from a real BIOS's own
    video mode set."""
    groups = ("survey", "qr", "screen")
    screenshot = True

    def problems(self, run):
        path = run.path("final.png")
        if not os.path.exists(path):
            return ["no screenshot was taken"]
        json_line, problems = survey_json(run.serial)
        if problems:
            return problems
        try:
            line = qrpages.survey_line(read_symbols(path))
        except qrpages.PageError as e:
            return ["the screen's QR code does not read back: %s" % e]
        if line != json_line:
            return ["the screen's QR code holds %d bytes that differ from the %d-byte "
                    "survey line" % (len(line), len(json_line))]
        return []


class ScreenHasText(Probe):
    """QEMU, 86Box: the console drew characters: a good share of the pixel rows near
    the top of the final picture hold both lit and dark pixels (glyphs), and the
    picture is not one colour. (QEMU: final.ppm by QMP; 86Box: its final.png.)"""
    groups = ("screen",)
    screenshot = True

    def qemu_end(self, run):
        run.qmp.command("screendump", run.deadline, filename=run.path("final.ppm"))

    def problems(self, run):
        path = run.path("final.png" if run.case.emulator == "86box" else "final.ppm")
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
