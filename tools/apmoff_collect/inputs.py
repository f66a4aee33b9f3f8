"""Reading reports out of files: serial logs, JSON files, photos of the QR code.

Everything here only reads; nothing touches the database. A file either yields all of
its reports or raises BadInput naming what is wrong with it (never half of them).

Payloads (the text of a QR symbol, or what follows "apmoff: survey " on serial) go
through DECODERS: each decoder is one function that takes the text and the Limits and
returns a report dict, a Page (one symbol of a payload split over several), or None
when the text is not its format. A new payload format is one more function in that
list.

Every read is bounded (limits.py), and takes time and memory in proportion to the
file: a file is read up to its size limit and for at most read_seconds, whatever its
kind; a serial log is read a line at a time, keeping only what each boot's report and
outcome need; a JSON file's list is measured and cut into its items before any is
parsed; a picture is decoded by child processes (pictures.py). Reports stay unparsed
text until they are imported (Observation.loaded), one at a time.
"""

import codecs
import os
import re
import select
import stat
import sys
import time
import zlib
from dataclasses import dataclass, field, replace

from . import evidence, pictures, qrpages, schema
from .limits import DEFAULT, Limits, TooLarge, human
from .qrpages import Page
from .text import shown, stored_name


class BadInput(Exception):
    """The file cannot be imported; the message says why."""


class NotApmoff(BadInput):
    """A payload no decoder knows: another program's QR code, say."""


OUTCOMES = ("off", "failed", "hung")
# What a report can say about the power-off, besides OUTCOMES:
UNKNOWN = "unknown"       # a power-off was asked for, nobody knows what happened
NOT_TRIED = "none"        # the run asked for no power-off (survey, check, standby)


def text_of(data):
    """A report's text kept as UTF-8 bytes (a line of a log, an item of a JSON file):
    a character outside Latin-1 would make a Python string of it 4 bytes a
    character."""
    if isinstance(data, (bytes, bytearray)):
        return data.decode("utf-8", errors="replace")
    return data


@dataclass
class Observation:
    """One report as read from a file, before it has a machine or a row. A serial
    log's or a JSON file's survey and check are kept as their text (UTF-8 bytes) until
    loaded() parses them, one report at a time, so a file of many reports never holds
    all of them parsed."""
    kind: str                       # "survey" or "check"
    survey: dict = None             # the survey JSON (None for a check-only run)
    check: dict = None              # the check JSON, when the run made one
    outcome: str = UNKNOWN          # off, failed, hung, unknown, none
    outcome_source: str = ""        # "log", "emulator", "capture", "person" or ""
    outcome_detail: str = ""        # the line(s) the outcome was read from
    via: str = ""                   # the APM interface or method of the last power-off
                                    # call (rm, pm32, pm16, acpi, efi)
    source: str = ""                # the file it came from (text.stored_name)
    source_kind: str = ""           # "log", "json" or "image"
    notes: list = field(default_factory=list)
    survey_text: bytes = None       # the unparsed survey (serial logs, JSON files)
    check_text: bytes = None        # the unparsed check
    where: str = ""                 # the file (and boot) for messages
    survey_line: int = 0            # a serial log's line numbers of the two, for messages
    check_line: int = 0
    limits: Limits = DEFAULT
    noted: bool = False             # its notes (a blanked date) are said already

    def undecided(self):
        return self.outcome == UNKNOWN

    def loaded(self):
        """This observation with its survey and check parsed and checked against the
        schema; BadInput names the field that is wrong. A note about the survey is
        said the first time only."""
        survey, check = self.survey, self.check
        if self.survey_text is not None:
            where = self.where + (", log line %d (the survey line)" % self.survey_line
                                  if self.survey_line else "")
            survey = decode_payload(text_of(self.survey_text), self.limits, where)
            if isinstance(survey, Page):
                raise BadInput("%s: a paged payload on serial" % where)
        if self.check_text is not None:
            check = parse_json(text_of(self.check_text), self.limits,
                               self.where + (", log line %d (the check line)" %
                                             self.check_line if self.check_line
                                             else ": the check"))
        if survey is not None:
            check_survey(survey, self.where, say=not self.noted)
            self.noted = True
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
    raise NotApmoff("%snot an apmoff payload (%d bytes starting %r)"
                    % (prefix, len(text), text[:20]))


def check_survey(report, where, say=True):
    """The survey as schema.py wants it, or BadInput naming the field. A date that is
    not one is blanked, and (say) said on stderr."""
    notes = []
    try:
        report = schema.validate_survey(report, notes)
    except schema.Invalid as e:
        raise BadInput("%s: %s" % (where, e))
    for note in notes if say else ():
        print(shown("%s: note: %s" % (where, note)), file=sys.stderr)
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
# What follows each of them since 0.4 (system/console.c, say_json()): the line's length
# and CRC-32, so a line damaged on its way is told from the one the kernel wrote.
SUM = re.compile(r"^apmoff: sum: (survey|check) line (\d+) bytes, CRC-32 ([0-9A-F]{8})$")
# The power-off call's line names the APM interface (rm, pm32, pm16) or the method
# (acpi: S5, efi: ResetSystem) it goes through.
POWERING_OFF = re.compile(r"^apmoff: powering off via (rm|pm32|pm16|acpi|efi)\b")
HALTED = re.compile(r"^apmoff: halted: (.*)")
ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z])")


def raw_lines(raw, longest):
    """The lines of a log's bytes, one at a time (no list of them all). A line longer
    than `longest` bytes comes as its first 64 bytes and its length, never copied
    whole: (bytes, length)."""
    start = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        if end < 0:
            end = len(raw)
        length = end - start
        yield raw[start:start + (64 if length > longest else length)], length
        start = end + 1


def kept_lines(raw, limits, name):
    """The lines of a log that can matter, with their numbers in the file: the
    kernel's ("apmoff..."), and those evidence.py may read. Other lines are dropped as
    they are read; an overlong one is dropped unless it is the kernel's, which refuses
    the file."""
    longest = limits.line_chars * 4 + 64             # bytes: ANSI codes, UTF-8
    for number, (line, length) in enumerate(raw_lines(raw, longest), 1):
        if length > longest:
            if b"apmoff" in line:
                raise BadInput("%s: an apmoff line of %d bytes: over the line_chars "
                               "limit of %d (raise it with --limit line_chars=...)"
                               % (name, length, limits.line_chars))
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
            yield number, text


class Boot:
    """One boot of a capture, read a line at a time: its last survey and check lines
    (as UTF-8 bytes) and, after its last "powering off via X" line, the little that
    decides the outcome. Nothing else of the boot is kept, so a capture costs memory
    in proportion to its reports, not to its lines."""

    def __init__(self):
        self.has_apmoff = False         # a line of the kernel's: a banner ends it
        self.survey = self.check = None
        self.at = {"survey": 0, "check": 0}     # their line numbers
        self.unsummed = {}              # kind: the line number of a line not yet summed
        self.damaged = []               # what the sums found, in words
        self.via = self.off_line = ""
        self.after_off()

    def after_off(self):
        """Forgets what followed an earlier power-off call: only the last one's tail
        counts."""
        self.capture = self.first_off = self.first_found = None
        self.halted = ""
        self.goes_on = False            # an apmoff line after the power-off call

    def feed(self, number, line):
        if line.startswith("apmoff: "):
            self.has_apmoff = True
            m = POWERING_OFF.match(line)
            if m:
                self.via, self.off_line = m.group(1), line
                self.after_off()
                return
            if line.startswith(SURVEY + "{"):
                self.survey = line[len(SURVEY):].encode()
                self.at["survey"] = self.unsummed["survey"] = number
            elif line.startswith(CHECK):
                self.check = line[len("apmoff: check "):].encode()
                self.at["check"] = self.unsummed["check"] = number
            elif SUM.match(line):
                self.summed(number, *SUM.match(line).groups())
            if self.off_line:
                self.goes_on = True
                halted = HALTED.match(line)
                self.halted = halted.group(0) if halted else self.halted
        if self.off_line:
            self.weigh(evidence.of_line(line))

    def summed(self, number, kind, length, crc):
        """The kernel's sum of the last survey or check line: a line that does not
        match it is dropped and named; the rest of the boot stands."""
        at = self.unsummed.pop(kind, None)
        if at is None:
            self.damaged.append("log line %d sums a %s line that is not there (its "
                                "line was damaged past recognition)" % (number, kind))
            return
        text = self.survey if kind == "survey" else self.check
        got = "%08X" % zlib.crc32(text)
        if len(text) == int(length) and got == crc:
            return
        self.damaged.append("log line %d: the %s line is damaged (the kernel wrote %s "
                            "bytes, CRC-32 %s; the log holds %d bytes, CRC-32 %s): "
                            "left out" % (at, kind, length, crc, len(text), got))
        if kind == "survey":
            self.survey = None
        else:
            self.check = None

    def weigh(self, found):
        """Keeps the evidence outcome() may use: the last capture line, the first
        sign of a power-off, and the first sign of anything."""
        if not found:
            return
        if found.source == "capture":
            self.capture = found
        if found.outcome == "off" and not self.first_off:
            self.first_off = found
        self.first_found = self.first_found or found

    def outcome(self):
        """(outcome, source, detail, via). The rules:
        - no "powering off via" line: none (no power-off was asked for);
        - after the last "powering off via", in this order: a capture's
          "apmoff-outcome: off|failed|hung" line; a "halted:" line: failed (source
          log), since the kernel ran on after the call (QEMU 10 then reports its
          isa-debug-exit write as a SHUTDOWN guest-shutdown, which is no power-off);
          an emulator's sign that the machine went off (evidence.py: QMP SHUTDOWN
          guest-shutdown, the QEMU trace's reason=6, `make run`'s verdict line, Bochs'
          shutdown port or ACPI soft-off); an emulator's sign that it did not (a guest
          reset or panic, or QEMU's exit with an apmoff exit code: failed; `make run`
          saw no power-off: hung);
        - the last apmoff line is "powering off via X" and nothing follows: unknown
          (the machine went off, or hung there; only someone who saw it can say)."""
        if not self.off_line:
            return NOT_TRIED, "", "", ""
        if self.capture:
            found = self.capture
            return found.outcome, found.source, found.name, self.via
        if self.halted:
            return "failed", "log", self.halted, self.via
        found = self.first_off or self.first_found
        if found:
            return found.outcome, found.source, found.name, self.via
        if not self.goes_on:
            return UNKNOWN, "", self.off_line, self.via
        return (UNKNOWN, "", "the log goes on after %r without a halted line"
                % self.off_line, self.via)


def boots(lines):
    """The boots in a capture, each as it ends: a boot starts at the kernel's banner
    line. lines: (number, text) pairs."""
    boot = Boot()
    for number, line in lines:
        if BANNER.match(line) and boot.has_apmoff:
            yield boot
            boot = Boot()
        boot.feed(number, line)
    yield boot


def read_log(path, lines, limits=DEFAULT, notes=None):
    """Every report in a serial capture: one per boot that printed a survey or a check
    line. A line its sum line says was damaged (a cable, a loaded host) is left out and
    named in `notes`, the rest of the log read. The JSON stays text here;
    Observation.loaded() parses it, and a line that does not parse (a log without sums)
    rejects the whole file, naming the line."""
    out, damaged = [], []
    name = shown(os.path.basename(stored_name(path)))
    n = 0
    for n, boot in enumerate(boots(lines), 1):
        damaged += boot.damaged
        if boot.survey is None and boot.check is None:
            continue
        if len(out) == limits.reports:
            raise BadInput(str(TooLarge("more than %d reports" % limits.reports,
                                        "reports", limits.reports)))
        outcome, source, detail, via = boot.outcome()
        obs = Observation("survey" if boot.survey else "check", None, None, outcome,
                          source, detail, via, stored_name(path), "log",
                          survey_text=boot.survey, check_text=boot.check,
                          where=str(n), survey_line=boot.at["survey"],
                          check_line=boot.at["check"], limits=limits)
        out.append(obs)
    if not out and damaged:
        raise BadInput("no report left: " + "; ".join(damaged))
    if not out:
        raise BadInput("no 'apmoff: survey {...}' or 'apmoff: check {...}' line")
    if notes is not None:
        notes += damaged
    for obs in out:           # the number of boots is known at the end of the file
        obs.where = "%s, boot %s" % (name, obs.where) if n > 1 else name
    return out


# --- JSON files ---------------------------------------------------------------------

def read_json(path, raw, limits=DEFAULT):
    """A file holding one survey JSON object (or a check object), or a JSON list of
    them, as bytes. The list is measured (nesting, number of items, each item's size)
    and cut into its items in one pass before any is parsed; each item is then
    parsed and checked, one at a time, and kept as its text."""
    name = shown(os.path.basename(stored_name(path)))
    if len(raw) > limits.json_file_bytes:
        raise BadInput(str(TooLarge("the file", "json_file_bytes",
                                    limits.json_file_bytes)))
    shape = schema.scan(raw, limits.json_depth, limits.reports)
    if shape.depth > limits.json_depth:
        raise BadInput(str(TooLarge("the file nests deeper", "json_depth",
                                    limits.json_depth)))
    if shape.items is None:
        return [json_report(path, name, raw, limits, whole=True)]
    if len(shape.items) > limits.reports:
        raise BadInput(str(TooLarge("more than %d reports in the list" % limits.reports,
                                    "reports", limits.reports)))
    if not shape.closed:
        raise BadInput("the JSON does not parse: the list does not end at its closing "
                       "bracket")
    if len(shape.items) == 1 and not raw[slice(*shape.items[0])].strip():
        raise BadInput("an empty JSON list")
    return [json_report(path, "%s[%d]" % (name, i), raw[start:end], limits)
            for i, (start, end) in enumerate(shape.items)]


def json_report(path, where, item, limits, whole=False):
    """One report of a JSON file (its bytes) as an Observation, checked, kept as its
    text. whole: the report is the whole file, which the message names already."""
    if len(item) > limits.json_bytes:
        raise BadInput(str(TooLarge(where, "json_bytes", limits.json_bytes)))
    try:
        report = schema.parse(text_of(item), limits, where)
    except TooLarge as e:
        raise BadInput(str(e))
    except schema.Invalid as e:
        raise BadInput(str(e) if whole else "%s: %s" % (where, e))
    if isinstance(report, dict) and "checks" in report and "apm" not in report:
        check_check(report, where)
        return Observation("check", source=stored_name(path), source_kind="json",
                           check_text=bytes(item), where=where, limits=limits)
    survey = check_survey(report, where)
    return Observation("survey", source=stored_name(path), source_kind="json",
                       survey_text=bytes(item),
                       outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                       where=where, limits=limits, noted=True)


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


def read_image(path, pages, limits=DEFAULT, picture=None, notes=None):
    """The reports in a picture. Pages of a paged payload are added to `pages` (shared
    by every file of one `add`) once the whole picture is read, and come out of
    join_pages(); a picture refused leaves none there. A QR code that is not
    apmoff's (a sticker beside the screen) is ignored, and named in `notes`.
    picture: the file the children read, when `path` is not one to read again (a
    FIFO)."""
    try:
        texts = pictures.symbols(picture or path, limits)
    except (pictures.Unreadable, TooLarge) as e:
        raise BadInput(str(e))
    return read_symbols(texts, shown(os.path.basename(stored_name(path))),
                        stored_name(path), "image", pages, limits, notes)


# What a phone's QR scanner hands over: the text of a symbol, "APMOFF3:..." (or 0.3's
# "APMOFF2:...") or a page
# "APMOFF1 2/3 ...", saved to a file, piped in, or given as an argument; a survey of
# several pages is a line a page, in any order, in one text or in several.
SCANNED = re.compile(r"\A\s*(?:APMOFF[23]:|APMOFF1 \d+/\d+ )")
SCANNED_BYTES = re.compile(SCANNED.pattern.encode())


def is_scanned(text):
    """Whether a text (or a file's bytes) is a scanner's text of apmoff's symbols."""
    return bool((SCANNED_BYTES if isinstance(text, (bytes, bytearray)) else
                 SCANNED).match(text))


def read_scanned(text, name, source, pages, limits=DEFAULT, notes=None):
    """The reports in a scanner's text, as read_image() reads a picture's symbols:
    each line that is not blank is one symbol's text (a line's end is no part of a
    payload; Base45's own spaces are kept)."""
    if len(text) > limits.file_bytes:
        raise BadInput(str(TooLarge("the scanned text", "file_bytes", limits.file_bytes)))
    texts = [line.rstrip("\r").lstrip() for line in text.split("\n") if line.strip()]
    return read_symbols(texts, name, source, "scan", pages, limits, notes)


def read_symbols(texts, name, source, kind, pages, limits=DEFAULT, notes=None):
    """The reports in the texts of a picture's or a scanner's QR symbols: an APMOFF3
    or APMOFF2 symbol is a report; APMOFF1 pages go to `pages` once every text is read."""
    out, found, foreign, counted = [], {}, [], 0
    for symbol in texts:
        try:
            result = decode_payload(symbol, limits, name)
        except NotApmoff:
            foreign.append(symbol)
            continue
        counted += 1
        if counted > limits.reports:
            raise BadInput(str(TooLarge("more than %d QR codes" % limits.reports,
                                        "reports", limits.reports)))
        if isinstance(result, Page):
            found.setdefault(result.group, {})[result.index] = (result, source, kind)
            continue
        survey = check_survey(result, name)
        out.append(Observation("survey", survey, source=source, source_kind=kind,
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                               where=name))
    what = "QR code" if kind == "image" else "scanned QR text"
    if foreign and not out and not found:
        raise BadInput("%s: no apmoff %s, only %s" % (name, what, foreign_codes(foreign)))
    if foreign and notes is not None:
        notes.append("ignored %s" % foreign_codes(foreign))
    pages.update(with_pages(pages, found, limits, name))
    return out


def foreign_codes(texts):
    """"2 QR codes that are not apmoff's: 'https://exa...', 'WIFI:S:...'"."""
    quoted = ", ".join(repr(t[:40] + ("..." if len(t) > 40 else "")) for t in texts[:3])
    return "%d QR code%s that %s not apmoff's: %s%s" % (
        len(texts), "" if len(texts) == 1 else "s", "is" if len(texts) == 1 else "are",
        quoted, " and %d more" % (len(texts) - 3) if len(texts) > 3 else "")


def with_pages(pages, new, limits, name):
    """The batch's pages with one file's added, as a new dict, so the batch's stay
    as they were until the file is in; BadInput when a payload would pass the pages
    limit."""
    merged = dict(pages)
    for group, got in new.items():
        joined = {**pages.get(group, {}), **got}
        if len(joined) > limits.pages:
            raise BadInput("%s: more than %d pages of payload %s (the pages limit)"
                           % (name, limits.pages, group))
        merged[group] = joined
    return merged


def join_pages(pages, limits=DEFAULT):
    """(observations, problems) from the pages collected over all pictures: a group
    with every page is decoded; one with pages missing is named."""
    out, problems = [], []
    for group, got in sorted(pages.items()):
        count = next(iter(got.values()))[0].count
        paths = ", ".join(shown(p) for p in sorted({p for _, p, _ in got.values()}))
        # pages all from a scanner's text are a scan; any photographed page, a picture
        kind = "scan" if all(k == "scan" for _, _, k in got.values()) else "image"
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
        out.append(Observation("survey", survey, source=paths, source_kind=kind,
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED,
                               where="payload %s" % group))
    return out, problems


# --- reading a file -----------------------------------------------------------------

# How long the reader sleeps when a file has nothing for it yet: a regular file that
# answers EAGAIN (a link to /proc/kmsg) is always "ready" to select(), so without a
# pause the wait would be a spin.
PAUSE_SECONDS = 0.05
CHUNK = 1 << 20


def read_bounded(path, limits=DEFAULT):
    """The file's bytes, up to limits.file_bytes, read within limits.read_seconds
    whatever kind of file it is: a FIFO or a device is read as it comes, and a file
    that answers "try again" (EAGAIN) is waited for, not spun on. Opening never
    blocks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise BadInput(e.strerror or str(e))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise BadInput("a directory")
        if stat.S_ISREG(st.st_mode) and st.st_size > limits.file_bytes:
            raise BadInput(str(TooLarge("%d bytes" % st.st_size, "file_bytes",
                                        limits.file_bytes)))
        if stat.S_ISFIFO(st.st_mode):
            # Opened without blocking, a FIFO whose writer has not opened it yet reads
            # as empty; select() waits for that writer (and its data or its close).
            wait(fd, False, time.monotonic() + limits.read_seconds, limits)
        return read_all(fd, stat.S_ISREG(st.st_mode), limits)
    finally:
        os.close(fd)


def read_all(fd, regular, limits):
    """Reads fd to its end: file_bytes at most, read_seconds at most in all."""
    data = bytearray()
    deadline = time.monotonic() + limits.read_seconds
    while len(data) <= limits.file_bytes:
        try:
            chunk = os.read(fd, min(CHUNK, limits.file_bytes + 1 - len(data)))
        except BlockingIOError:
            wait(fd, regular, deadline, limits)
            continue
        except OSError as e:
            raise BadInput(e.strerror or str(e))
        if not chunk:
            return data
        data += chunk
        if time.monotonic() > deadline:
            raise BadInput(slow(limits))
    raise BadInput(str(TooLarge("it goes on past %s" % human(limits.file_bytes),
                                "file_bytes", limits.file_bytes)))


def wait(fd, regular, deadline, limits):
    """Waits for more of a file that had nothing to give, until the deadline: a FIFO
    or a device until it can be read; a regular file (select() calls it always
    ready) for a short pause."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise BadInput(slow(limits))
    if regular:
        time.sleep(min(left, PAUSE_SECONDS))
    else:
        select.select([fd], [], [], left)


def slow(limits):
    return ("not at its end after %d s (a FIFO, device or file that does not end or "
            "keeps answering \"try again\"; the read_seconds limit: raise it with "
            "--limit read_seconds=...)" % limits.read_seconds)


# Byte order marks of the Unicode encodings a log or JSON file may come in (Windows'
# Notepad writes UTF-8 with one; PowerShell 5's `>` writes UTF-16 LE), longest first:
# UTF-32 LE's starts with UTF-16 LE's.
BOMS = [(codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be")]


def as_utf8(raw):
    """The bytes of a text file as UTF-8 without a byte order mark: a file that starts
    with one is decoded from its encoding (in pieces, so the whole is never held as
    text too), anything else is taken as it is (UTF-8, or what it holds)."""
    for bom, encoding in BOMS:
        if raw.startswith(bom):
            break
    else:
        return raw
    if encoding == "utf-8":
        del raw[:len(bom)]
        return raw
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    out = bytearray()
    for start in range(len(bom), len(raw), CHUNK):
        out += decoder.decode(raw[start:start + CHUNK]).encode("utf-8", "surrogatepass")
    out += decoder.decode(b"", final=True).encode("utf-8", "surrogatepass")
    return out


JSON_START = re.compile(rb"\s*[\[{]")


STDIN = "-"


def argument_name(arg, n):
    """How `add` names its n-th FILE argument: a path as given, "-" as standard input,
    a scanner's text given as the argument itself as "argument n"."""
    if arg == STDIN:
        return "standard input"
    return "argument %d" % n if is_scanned(arg) else arg


def read_argument(arg, n, pages, limits=DEFAULT, notes=None):
    """The observations of `add`'s n-th FILE argument: a file, standard input ("-"),
    or a scanner's text itself ('APMOFF3:...', one page 'APMOFF1 1/2 ...')."""
    name = argument_name(arg, n)
    if arg == STDIN:
        return read_file("/dev/stdin", pages, limits, notes, label=name)
    if is_scanned(arg):
        return read_scanned(arg, name, name, pages, limits, notes)
    return read_file(arg, pages, limits, notes)


def read_file(path, pages, limits=DEFAULT, notes=None, label=None):
    """The observations in one file, whatever its kind. A picture's pages go to
    `pages`; a note about the file (a QR code that is not apmoff's) to `notes`.
    label: the name to give it instead of its path (standard input)."""
    raw = read_bounded(path, limits)
    path = label or path                # what it is called from here on
    if is_picture(raw):
        copy = pictures.spill(raw)
        del raw                            # the children read the copy
        with copy:
            return read_image(path, pages, limits, copy.name, notes)
    raw = as_utf8(raw)
    if JSON_START.match(raw):
        return read_json(path, raw, limits)
    if is_scanned(raw):
        return read_scanned(text_of(bytes(raw)), shown(os.path.basename(stored_name(path))),
                            stored_name(path), pages, limits, notes)
    return read_log(path, kept_lines(raw, limits, shown(os.path.basename(
        stored_name(path)))), limits, notes)
