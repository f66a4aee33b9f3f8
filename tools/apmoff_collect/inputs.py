"""Reading reports out of files: serial logs, JSON files, photos of the QR code.

Everything here only reads; nothing touches the database. A file either yields all of
its reports or raises BadInput naming what is wrong with it (never half of them).

Payloads (the text of a QR symbol, or what follows "apmoff: survey " on serial) go
through DECODERS: each decoder is one function that takes the text and returns a
report dict, a Page (one symbol of a payload split over several), or None when the
text is not its format. A new payload format is one more function in that list.
"""

import json
import os
import re
from dataclasses import dataclass, field

from . import qrpages
from .qrpages import Page


class BadInput(Exception):
    """The file cannot be imported; the message says why."""


OUTCOMES = ("off", "failed", "hung")
# What a report can say about the power-off, besides OUTCOMES:
UNKNOWN = "unknown"       # a power-off was asked for, nobody knows what happened
NOT_TRIED = "none"        # the run asked for no power-off (survey, check, standby)


@dataclass
class Observation:
    """One report as read from a file, before it has a machine or a row."""
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

    def undecided(self):
        return self.outcome == UNKNOWN


# --- payload decoders ---------------------------------------------------------------

def decode_json_payload(text):
    """Schema 1 today: the payload is exactly the JSON line."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        report = json.loads(text)
    except ValueError as e:
        raise BadInput("the JSON does not parse: %s" % e)
    return report


def decode_apmoff1_page(text):
    """One numbered symbol of the survey line (qrpages.py reads the format); the CRC-32
    groups a line's pages and checks them once joined (join_pages)."""
    try:
        return qrpages.parse_page(text)
    except qrpages.PageError as e:
        raise BadInput(str(e))


def decode_apmoff2(text):
    """The one-symbol payload: the survey line compressed (qrpages.py unpacks it)."""
    try:
        line = qrpages.unpack(text)
    except qrpages.PageError as e:
        raise BadInput(str(e))
    return None if line is None else decode_json_payload(line)


DECODERS = [decode_apmoff2, decode_apmoff1_page, decode_json_payload]


def decode_payload(text):
    """A report dict or a Page, from the first decoder that knows the text."""
    for decoder in DECODERS:
        result = decoder(text)
        if result is not None:
            return result
    raise BadInput("not an apmoff payload (%d bytes starting %r)" % (len(text), text[:20]))


def check_survey(report, where):
    """The least a survey must be for the database to take it."""
    if not isinstance(report, dict):
        raise BadInput("%s: the survey is not a JSON object" % where)
    if not isinstance(report.get("schema"), int):
        raise BadInput("%s: the survey has no integer \"schema\"" % where)
    if not isinstance(report.get("apm", {}), dict):
        raise BadInput("%s: \"apm\" is not an object" % where)
    return report


def check_check(report, where):
    if not isinstance(report, dict) or not isinstance(report.get("checks"), dict):
        raise BadInput("%s: the check JSON has no \"checks\" object" % where)
    return report


def wants_poweroff(survey):
    """Whether the run that made this survey went on to a power-off call: its
    options hold action=off, action=survey,off, or no action (off is the default)."""
    options = (survey or {}).get("options") or ""
    m = re.search(r"(?:^|\s)action=(\S+)", options)
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

# What an emulator or a capture wrote when it saw the machine go off. Any of these in
# the same file as the run (after its power-off line) makes the outcome "off".
EVIDENCE = [
    (re.compile(r'"event":\s*"SHUTDOWN".*"reason":\s*"guest-shutdown"'), "off",
     "QEMU QMP SHUTDOWN guest-shutdown"),
    (re.compile(r"Shutdown port: shutdown requested"), "off", "Bochs shutdown port"),
    (re.compile(r"ACPI control: soft power off"), "off", "Bochs ACPI soft power off"),
    (re.compile(r"^apmoff-outcome: (off|failed|hung)\b", re.M), None, "apmoff-outcome line"),
]
ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z])")


def log_lines(text):
    return [l.rstrip() for l in ANSI.sub("", text).replace("\r", "").split("\n")]


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
    - an emulator's or capture's note that the machine went off (QMP SHUTDOWN
      guest-shutdown, Bochs' shutdown port or ACPI soft-off, a line
      "apmoff-outcome: off|failed|hung"): that, from the emulator;
    - a "halted:" line after the last "powering off via": failed;
    - the last apmoff line is "powering off via X" and nothing follows: unknown (the
      machine went off, or hung there; only someone who saw it can say)."""
    apm = [l for l in run if l.startswith("apmoff: ")]
    offs = [i for i, l in enumerate(apm) if POWERING_OFF.match(l)]
    if not offs:
        return NOT_TRIED, "", "", ""
    last = offs[-1]
    via = POWERING_OFF.match(apm[last]).group(1)
    tail = "\n".join(run[run.index(apm[last]):])
    for pattern, outcome, name in EVIDENCE:
        m = pattern.search(tail)
        if m:
            return (outcome or m.group(1), "capture" if outcome is None else "emulator",
                    name, via)
    halted = [HALTED.match(l) for l in apm[last:] if HALTED.match(l)]
    if halted:
        return "failed", "log", halted[-1].group(0), via
    if last == len(apm) - 1:
        return UNKNOWN, "", apm[last], via
    return UNKNOWN, "", "the log goes on after %r without a halted line" % apm[last], via


def read_log(path, text):
    """Every report in a serial capture: one per boot that printed a survey or a check
    line. A survey or check line that does not parse rejects the whole file."""
    out = []
    runs = split_runs(log_lines(text))
    for n, run in enumerate(runs, 1):
        where = "%s, boot %d" % (os.path.basename(path), n) if len(runs) > 1 else \
            os.path.basename(path)
        surveys = [l[len(SURVEY):] for l in run if l.startswith(SURVEY + "{")]
        checks = [l[len("apmoff: check "):] for l in run if l.startswith(CHECK)]
        if not surveys and not checks:
            continue
        survey = check = None
        if surveys:
            try:
                survey = decode_payload(surveys[-1])
            except BadInput as e:
                raise BadInput("%s: %s" % (where, e))
            if isinstance(survey, Page):
                raise BadInput("%s: a paged payload on serial" % where)
            check_survey(survey, where)
        if checks:
            try:
                check = check_check(json.loads(checks[-1]), where)
            except ValueError as e:
                raise BadInput("%s: the check JSON does not parse: %s" % (where, e))
        outcome, source, detail, via = outcome_of_run(run)
        out.append(Observation("survey" if survey else "check", survey, check, outcome,
                               source, detail, via, path, "log"))
    if not out:
        raise BadInput("no 'apmoff: survey {...}' or 'apmoff: check {...}' line")
    return out


# --- JSON files ---------------------------------------------------------------------

def read_json(path, text):
    """A file holding one survey JSON object (or a check object), or a JSON list of
    them."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise BadInput("the JSON does not parse: %s" % e)
    items = data if isinstance(data, list) else [data]
    out = []
    for i, item in enumerate(items):
        where = os.path.basename(path) + ("[%d]" % i if isinstance(data, list) else "")
        if isinstance(item, dict) and "checks" in item and "apm" not in item:
            out.append(Observation("check", None, check_check(item, where),
                                   source=path, source_kind="json"))
        else:
            survey = check_survey(item, where)
            out.append(Observation("survey", survey, None, source=path, source_kind="json",
                                   outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED))
    if not out:
        raise BadInput("an empty JSON list")
    return out


# --- pictures of the QR code --------------------------------------------------------

IMAGE_MAGIC = [b"\x89PNG", b"\xff\xd8\xff", b"P5", b"P6", b"GIF8", b"BM"]


def zbar_symbols(path):
    """The QR symbols zbarimg finds in a picture, as text."""
    try:
        return qrpages.zbar_symbols(path)
    except qrpages.PageError as e:
        raise BadInput(str(e))


def read_image(path, pages):
    """The reports in a picture. Pages of a paged payload are added to `pages` (shared
    by every file of one `add`) and come out of join_pages()."""
    out = []
    for symbol in zbar_symbols(path):
        result = decode_payload(symbol)
        if isinstance(result, Page):
            pages.setdefault(result.group, {})[result.index] = (result, path)
            continue
        survey = check_survey(result, os.path.basename(path))
        out.append(Observation("survey", survey, source=path, source_kind="image",
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED))
    return out


def join_pages(pages):
    """(observations, problems) from the pages collected over all pictures: a group
    with every page is decoded; one with pages missing is named."""
    out, problems = [], []
    for group, got in sorted(pages.items()):
        count = next(iter(got.values()))[0].count
        missing = [i for i in range(1, count + 1) if i not in got]
        paths = sorted({p for _, p in got.values()})
        if missing:
            problems.append((", ".join(paths), "payload %s: page(s) %s of %d missing" % (
                group, ", ".join(map(str, missing)), count)))
            continue
        text = "".join(got[i][0].data for i in range(1, count + 1))
        if re.fullmatch(r"[0-9A-F]{8}", group) and not qrpages.crc_matches(group, text):
            problems.append((", ".join(paths), "payload %s: the joined pages fail their "
                             "CRC-32" % group))
            continue
        try:
            survey = decode_payload(text)
            if isinstance(survey, Page):
                raise BadInput("pages inside pages")
            check_survey(survey, "payload %s" % group)
        except BadInput as e:
            problems.append((", ".join(paths), str(e)))
            continue
        out.append(Observation("survey", survey, source=", ".join(paths),
                               source_kind="image",
                               outcome=UNKNOWN if wants_poweroff(survey) else NOT_TRIED))
    return out, problems


def read_file(path, pages):
    """The observations in one file, whatever its kind."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise BadInput(e.strerror or str(e))
    if any(raw.startswith(m) for m in IMAGE_MAGIC):
        return read_image(path, pages)
    text = raw.decode("utf-8", errors="replace")
    if text.lstrip().startswith(("{", "[")):
        return read_json(path, text)
    return read_log(path, text)
