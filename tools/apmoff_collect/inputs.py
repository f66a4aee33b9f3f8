"""Reading reports out of files: serial logs, JSON files, photos of the QR code.

Everything here only reads; nothing touches the database. A file either yields all of
its reports or raises BadInput naming what is wrong with it (never half of them).

Payloads (the text of a QR symbol, or what follows "apmoff: survey " on serial) go
through DECODERS: each decoder is one function that takes the text and the Limits and
returns a report dict, a Page (one symbol of a payload split over several), or None
when the text is not its format. A new payload format is one more function in that
list.

Every read is bounded (limits.py): a file is read up to its size limit, only the lines
that matter are kept, JSON is measured before it is parsed.
"""

import json
import os
import re
import select
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace

from . import evidence, qrpages, schema
from .limits import DEFAULT, Limits, TooLarge, human
from .qrpages import Page


class BadInput(Exception):
    """The file cannot be imported; the message says why."""


OUTCOMES = ("off", "failed", "hung")
# What a report can say about the power-off, besides OUTCOMES:
UNKNOWN = "unknown"       # a power-off was asked for, nobody knows what happened
NOT_TRIED = "none"        # the run asked for no power-off (survey, check, standby)


def shown(name):
    """A file name as messages print it: control characters escaped, so a name with
    a newline cannot begin a line of its own (a fake progress line)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in str(name))


@dataclass
class Observation:
    """One report as read from a file, before it has a machine or a row. A serial
    log's survey and check are kept as their text until loaded() parses them, one
    report at a time, so a file of many boots never holds all of them parsed."""
    kind: str                       # "survey" or "check"
    survey: dict = None             # the survey JSON (None for a check-only run)
    check: dict = None              # the check JSON, when the run made one
    outcome: str = UNKNOWN          # off, failed, hung, unknown, none
    outcome_source: str = ""        # "log", "emulator", "capture", "person" or ""
    outcome_detail: str = ""        # the line(s) the outcome was read from
    via: str = ""                   # the APM interface or method of the last power-off
                                    # call (rm, pm32, pm16, acpi, efi)
    source: str = ""                # the file it came from
    source_kind: str = ""           # "log", "json" or "image"
    notes: list = field(default_factory=list)
    survey_text: str = None         # the unparsed survey (serial logs)
    check_text: str = None          # the unparsed check (serial logs)
    where: str = ""                 # the file (and boot) for messages
    limits: Limits = DEFAULT

    def undecided(self):
        return self.outcome == UNKNOWN

    def loaded(self):
        """This observation with its survey and check parsed and checked against the
        schema; BadInput names the field that is wrong."""
        survey, check = self.survey, self.check
        if self.survey_text is not None:
            survey = decode_payload(self.survey_text, self.limits, self.where)
            if isinstance(survey, Page):
                raise BadInput("%s: a paged payload on serial" % self.where)
        if self.check_text is not None:
            check = parse_json(self.check_text, self.limits, self.where + ": the check")
        if survey is not None:
            check_survey(survey, self.where)
        if check is not None:
            check_check(check, self.where)
        return replace(self, survey=survey, check=check, survey_text=None, check_text=None)


def parse_json(text, limits, what, size_limit="json_bytes"):
    try:
        return schema.parse(text, limits, what, size_limit)
    except TooLarge as e:
        raise BadInput(str(e))
    except schema.Invalid as e:
        raise BadInput("%s: %s" % (what, e))


# --- payload decoders ---------------------------------------------------------------

def decode_json_payload(text, limits=DEFAULT):
    """Schema 1 today: the payload is exactly the JSON line."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        return schema.parse(text, limits, "the survey")
    except schema.Invalid as e:
        raise BadInput(str(e))


def decode_apmoff1_page(text, limits=DEFAULT):
    """One numbered symbol of the survey line (qrpages.py reads the format); the CRC-32
    groups a line's pages and checks them once joined (join_pages)."""
    try:
        return qrpages.parse_page(text, limits)
    except qrpages.PageError as e:
        raise BadInput(str(e))


def decode_apmoff2(text, limits=DEFAULT):
    """The one-symbol payload: the survey line compressed (qrpages.py unpacks it)."""
    try:
        line = qrpages.unpack(text, limits)
    except qrpages.PageError as e:
        raise BadInput(str(e))
    return None if line is None else decode_json_payload(line, limits)


DECODERS = [decode_apmoff2, decode_apmoff1_page, decode_json_payload]


def decode_payload(text, limits=DEFAULT, where=""):
    """A report dict or a Page, from the first decoder that knows the text. Limits
    are refused as BadInput naming `where`."""
    prefix = where + ": " if where else ""
    try:
        for decoder in DECODERS:
            result = decoder(text, limits)
            if result is not None:
                return result
    except (TooLarge, BadInput) as e:
        raise BadInput(prefix + str(e))
    raise BadInput("%snot an apmoff payload (%d bytes starting %r)"
                   % (prefix, len(text), text[:20]))


def check_survey(report, where):
    """The survey as schema.py wants it, or BadInput naming the field. A date that is
    not one is blanked, and said on stderr."""
    notes = []
    try:
        report = schema.validate_survey(report, notes)
    except schema.Invalid as e:
        raise BadInput("%s: %s" % (where, e))
    for note in notes:
        print("%s: note: %s" % (where, note), file=sys.stderr)
    return report


def check_check(report, where):
    try:
        return schema.validate_check(report)
    except schema.Invalid as e:
        raise BadInput("%s: %s" % (where, e))


def wants_poweroff(survey):
    """Whether the run that made this survey went on to a power-off call: its
    options hold action=off, action=survey,off, or no action (off is the default)."""
    options = (survey or {}).get("options") or ""
    m = re.search(r"(?:^|\s)action=(\S+)", options if isinstance(options, str) else "")
    action = m.group(1) if m else "off"
    return action in ("off", "survey,off")


# --- serial logs --------------------------------------------------------------------

# The first line of every boot: "apmoff: version 0.1: ..." ("apmoff: apmoff 0.1: ..."
# before).
BANNER = re.compile(r"^apmoff: (?:version|apmoff) \d")
SURVEY = "apmoff: survey "
CHECK = "apmoff: check {"
# The power-off call's line names the APM interface (rm, pm32, pm16) or the method
# (acpi: S5, efi: ResetSystem) it goes through.
POWERING_OFF = re.compile(r"^apmoff: powering off via (rm|pm32|pm16|acpi|efi)\b")
HALTED = re.compile(r"^apmoff: halted: (.*)")
ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z])")


def raw_lines(raw):
    """The lines of a log's bytes, one at a time (no list of them all)."""
    start = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        if end < 0:
            end = len(raw)
        yield raw[start:end]
        start = end + 1


def kept_lines(raw, limits, name):
    """The lines of a log that can matter: the kernel's ("apmoff..."), and those
    evidence.py may read. Other lines are dropped as they are read; an overlong one
    is dropped unless it is the kernel's, which refuses the file."""
    for line in raw_lines(raw):
        if len(line) > limits.line_chars * 4 + 64:      # bytes: ANSI codes, UTF-8
            if b"apmoff" in line[:64]:
                raise BadInput("%s: an apmoff line of %d bytes: over the line_chars "
                               "limit of %d (raise it with --limit line_chars=...)"
                               % (name, len(line), limits.line_chars))
            continue
        text = ANSI.sub("", line.decode("utf-8", errors="replace")).replace("\r", "")
        text = text.rstrip()
        if len(text) > limits.line_chars:
            if text.startswith("apmoff"):
                raise BadInput("%s: an apmoff line of %d characters: over the line_chars "
                               "limit of %d (raise it with --limit line_chars=...)"
                               % (name, len(text), limits.line_chars))
            continue
        if text.startswith("apmoff") or evidence.MAYBE.search(text):
            yield text


def split_runs(lines):
    """The boots in a capture: each starts at the kernel's banner line."""
    runs, current = [], []
    for line in lines:
        if BANNER.match(line) and any(l.startswith("apmoff: ") for l in current):
            runs.append(current)
            current = []
        current.append(line)
    if current:
        runs.append(current)
    return runs


def outcome_of_run(run):
    """(outcome, source, detail, via) from one boot's lines. The rules:
    - no "powering off via" line: none (no power-off was asked for);
    - after the last "powering off via", in this order: a capture's
      "apmoff-outcome: off|failed|hung" line; a "halted:" line: failed (source log),
      since the kernel ran on after the call (QEMU 10 then reports its isa-debug-exit
      write as a SHUTDOWN guest-shutdown, which is no power-off); an emulator's sign
      that the machine went off (evidence.py: QMP SHUTDOWN guest-shutdown, the QEMU
      trace's reason=6, `make run`'s verdict line, Bochs' shutdown port or ACPI
      soft-off); an emulator's sign that it did not (a guest reset or panic, or
      QEMU's exit with an apmoff exit code: failed; `make run` saw no power-off:
      hung);
    - the last apmoff line is "powering off via X" and nothing follows: unknown (the
      machine went off, or hung there; only someone who saw it can say)."""
    apm = [l for l in run if l.startswith("apmoff: ")]
    offs = [i for i, l in enumerate(apm) if POWERING_OFF.match(l)]
    if not offs:
        return NOT_TRIED, "", "", ""
    last = offs[-1]
    via = POWERING_OFF.match(apm[last]).group(1)
    tail = run[run.index(apm[last]):]
    found = evidence.of_lines(tail)
    for e in [e for e in found if e.source == "capture"][-1:]:
        return e.outcome, e.source, e.name, via
    halted = [HALTED.match(l) for l in apm[last:] if HALTED.match(l)]
    if halted:
        return "failed", "log", halted[-1].group(0), via
    for e in [e for e in found if e.outcome == "off"] + found:
        return e.outcome, e.source, e.name, via
    if last == len(apm) - 1:
        return UNKNOWN, "", apm[last], via
    return UNKNOWN, "", "the log goes on after %r without a halted line" % apm[last], via


def read_log(path, lines, limits=DEFAULT):
    """Every report in a serial capture: one per boot that printed a survey or a check
    line. The JSON stays text here; Observation.loaded() parses it, and a line that
    does not parse rejects the whole file."""
    out = []
    runs = split_runs(lines)
    name = shown(os.path.basename(path))
    for n, run in enumerate(runs, 1):
        where = "%s, boot %d" % (name, n) if len(runs) > 1 else name
        surveys = [l[len(SURVEY):] for l in run if l.startswith(SURVEY + "{")]
        checks = [l[len("apmoff: check "):] for l in run if l.startswith(CHECK)]
        if not surveys and not checks:
            continue
        outcome, source, detail, via = outcome_of_run(run)
        out.append(Observation("survey" if surveys else "check", None, None, outcome,
                               source, detail, via, path, "log",
                               survey_text=surveys[-1] if surveys else None,
                               check_text=checks[-1] if checks else None,
                               where=where, limits=limits))
    if not out:
        raise BadInput("no 'apmoff: survey {...}' or 'apmoff: check {...}' line")
    return out


# --- JSON files ---------------------------------------------------------------------

def read_json(path, text, limits=DEFAULT):
    """A file holding one survey JSON object (or a check object), or a JSON list of
    them."""
    name = shown(os.path.basename(path))
    try:
        data = schema.parse(text, limits, "the file", "json_file_bytes")
    except (TooLarge, schema.Invalid) as e:
        raise BadInput(str(e))
    items = data if isinstance(data, list) else [data]
    out = []
    for i, item in enumerate(items):
        where = name + ("[%d]" % i if isinstance(data, list) else "")
        if isinstance(item, dict) and len(json_text(item)) > limits.json_bytes:
            raise BadInput("%s: over the json_bytes limit of %s (raise it with --limit "
                           "json_bytes=...)" % (where, limits.json_bytes))
        if isinstance(item, dict) and "checks" in item and "apm" not in item:
            out.append(Observation("check", None, check_check(item, where),
                                   source=path, source_kind="json", where=where))
        else:
            survey = check_survey(item, where)
            out.append(Observation("survey", survey, None, source=path, source_kind="json",
                                   outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                                   where=where))
    if not out:
        raise BadInput("an empty JSON list")
    return out


def json_text(item):
    return json.dumps(item, separators=(",", ":"))


# --- pictures of the QR code --------------------------------------------------------

def is_picture(raw):
    """Whether the bytes are a picture zbarimg reads, judged by the format's header
    as a whole, not its first two bytes: a log may begin "BM", "P5" or "GIF8"."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n") or raw.startswith(b"\xff\xd8\xff"):
        return True
    if raw[:6] in (b"GIF87a", b"GIF89a"):
        return True
    # PNM: P1-P6, whitespace, then the width (comments may come first).
    if re.match(rb"P[1-6][ \t\r\n]+(#[^\n]*\n\s*)*[0-9]+\s+[0-9]+\s", raw[:512]):
        return True
    # BMP: "BM", the file's size, two reserved zero words, then a DIB header size
    # that one of the formats has.
    if raw[:2] == b"BM" and len(raw) >= 18:
        size = int.from_bytes(raw[2:6], "little")
        dib = int.from_bytes(raw[14:18], "little")
        return size == len(raw) and raw[6:10] == b"\0\0\0\0" and \
            dib in (12, 16, 40, 52, 56, 64, 108, 124)
    return False


def zbar_symbols(path, limits=DEFAULT):
    """The QR symbols zbarimg finds in a picture, as text."""
    try:
        return qrpages.zbar_symbols(path, limits=limits)
    except (qrpages.PageError, TooLarge) as e:
        raise BadInput(str(e))


def read_image(path, pages, limits=DEFAULT, picture=None):
    """The reports in a picture. Pages of a paged payload are added to `pages` (shared
    by every file of one `add`) and come out of join_pages(). picture: the file zbar
    reads, when `path` is not one it can open again (a FIFO)."""
    out = []
    name = shown(os.path.basename(path))
    for symbol in zbar_symbols(picture or path, limits):
        result = decode_payload(symbol, limits, name)
        if isinstance(result, Page):
            group = pages.setdefault(result.group, {})
            if result.index not in group and len(group) >= limits.pages:
                raise BadInput("%s: more than %d pages of payload %s (the pages limit)"
                               % (name, limits.pages, result.group))
            group[result.index] = (result, path)
            continue
        survey = check_survey(result, name)
        out.append(Observation("survey", survey, source=path, source_kind="image",
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                               where=name))
    return out


def join_pages(pages, limits=DEFAULT):
    """(observations, problems) from the pages collected over all pictures: a group
    with every page is decoded; one with pages missing is named."""
    out, problems = [], []
    for group, got in sorted(pages.items()):
        count = next(iter(got.values()))[0].count
        paths = ", ".join(shown(p) for p in sorted({p for _, p in got.values()}))
        if count > limits.pages:
            problems.append((paths, "payload %s: %d pages, over the pages limit of %d "
                             "(raise it with --limit pages=...)" % (group, count,
                                                                    limits.pages)))
            continue
        missing = [i for i in range(1, count + 1) if i not in got]
        if missing:
            problems.append((paths, "payload %s: page(s) %s of %d missing" % (
                group, qrpages.page_list(missing), count)))
            continue
        text = "".join(got[i][0].data for i in range(1, count + 1))
        if re.fullmatch(r"[0-9A-F]{8}", group) and not qrpages.crc_matches(group, text):
            problems.append((paths, "payload %s: the joined pages fail their CRC-32"
                             % group))
            continue
        try:
            survey = decode_payload(text, limits, "payload %s" % group)
            if isinstance(survey, Page):
                raise BadInput("pages inside pages")
            check_survey(survey, "payload %s" % group)
        except BadInput as e:
            problems.append((paths, str(e)))
            continue
        out.append(Observation("survey", survey, source=paths, source_kind="image",
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                               where="payload %s" % group))
    return out, problems


# --- reading a file -----------------------------------------------------------------

def read_bounded(path, limits=DEFAULT):
    """(bytes, regular) of a file, read up to limits.file_bytes. A FIFO or a device
    is read as it comes, for at most limits.read_seconds; opening never blocks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise BadInput(e.strerror or str(e))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise BadInput("a directory")
        regular = stat.S_ISREG(st.st_mode)
        if regular and st.st_size > limits.file_bytes:
            raise BadInput(str(TooLarge("%d bytes" % st.st_size, "file_bytes",
                                        limits.file_bytes)))
        chunks, size = [], 0
        deadline = time.monotonic() + limits.read_seconds
        while size <= limits.file_bytes:
            if not regular:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise BadInput("nothing more to read for %d s (a FIFO or device that "
                                   "does not end; the read_seconds limit)"
                                   % limits.read_seconds)
            try:
                chunk = os.read(fd, min(1 << 20, limits.file_bytes + 1 - size))
            except BlockingIOError:
                continue
            except OSError as e:
                raise BadInput(e.strerror or str(e))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limits.file_bytes:
            raise BadInput(str(TooLarge("it goes on past %s" % human(limits.file_bytes),
                                        "file_bytes", limits.file_bytes)))
        return b"".join(chunks), regular
    finally:
        os.close(fd)


def read_file(path, pages, limits=DEFAULT):
    """The observations in one file, whatever its kind."""
    raw, regular = read_bounded(path, limits)
    if is_picture(raw):
        if regular:
            return read_image(path, pages, limits)
        with tempfile.NamedTemporaryFile(prefix="apmoff-picture-") as f:
            f.write(raw)
            f.flush()
            return read_image(path, pages, limits, f.name)
    if raw.lstrip()[:1] in (b"{", b"["):
        return read_json(path, raw.decode("utf-8", errors="replace"), limits)
    return read_log(path, kept_lines(raw, limits, shown(os.path.basename(path))), limits)
