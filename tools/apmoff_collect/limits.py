"""How much of a stranger's file the collector reads before it refuses it.

Every input is measured against these before it is parsed, so a file cannot make the
collector use memory or time out of proportion to a survey (about 2.5 KB of JSON).
Each limit is a named field with the reason for its size, what it bounds and what
happens past it; `add --limit NAME=VALUE` raises one. docs/collect.md's table of the
limits is written from these fields (`make docs`), and `make test` fails when it
differs. A file past a limit is skipped with TooLarge, whose message names the limit,
its value and the option that raises it.
"""

import re
from dataclasses import dataclass, field, fields, replace

# What the collector and the programs it runs for a picture (the scaler, zbarimg)
# hold at most, in MiB of resident memory, for any file within the default limits:
# tests/collect/test_hostile.py measures every hostile case against it, the
# children's peak added to the collector's own.
MEMORY_MIB = 160

# The longest side of the picture zbarimg is given: ImageMagick holds 8 bytes a pixel
# (zbarimg reads 2048x1536 in 60 MiB), and a QR code that fills a fifth of a photo's
# width still has 2 pixels a module at this size.
ZBAR_SIDE = 2048


def limit(default, bounds, past):
    """A field of Limits: its default, what it bounds and what happens past it (the
    docs' table)."""
    return field(default=default, metadata={"bounds": bounds, "past": past})


SKIPPED = "the file is skipped"


@dataclass(frozen=True)
class Limits:
    # A serial capture of many boots, with an emulator's log appended, is a few MB;
    # a phone photo of the screen 2-12 MB.
    file_bytes: int = limit(
        32 << 20, "one file (a capture of many boots; a phone photo)",
        SKIPPED + ", measured before it is read (a FIFO or device: as it is read)")
    # One line of a log: a survey line is about 2.5 KB, a QMP event or a Bochs line
    # far less. Longer lines that are not apmoff's are skipped, not kept.
    line_chars: int = limit(
        64 << 10, "one log line",
        "a longer `apmoff` line refuses the file; another line is dropped")
    # One report's JSON as text (a survey line, the JSON inflated from APMOFF3 or 2, or one
    # object of a JSON file): 100 times what the kernel writes.
    json_bytes: int = limit(
        256 << 10, "one report's JSON (a survey line is a few KB)",
        SKIPPED + ", measured before the report is parsed")
    # A JSON file: a list of reports may hold thousands.
    json_file_bytes: int = limit(16 << 20, "a JSON file (a list of reports)", SKIPPED)
    # Nesting: a survey is 4 levels deep (apm.interfaces.rm.connect).
    json_depth: int = limit(
        16, "nesting (a survey is 4 deep)",
        SKIPPED + ", counted before parsing")
    # Any one JSON string: the longest the kernel writes is apm.steps (a few hundred
    # characters); ROM strings are 64 bytes.
    string_chars: int = limit(8 << 10, "any one JSON string or key", SKIPPED)
    # Reports in one file: each is held, unparsed, until its file is imported. A
    # capture of every boot of a test rig for months, or a JSON list of a whole
    # survey, holds a few thousand; 10000 of the largest the kernel writes fit in
    # file_bytes.
    reports: int = limit(
        10000, "reports in one file (boots of a capture, items of a JSON list, "
        "symbols of a picture)",
        SKIPPED + ", counted before any report is parsed")
    # APMOFF1 pages of one line: the kernel writes at most 16 (QRPAGES_MAX).
    pages: int = limit(
        64, "pages of one `APMOFF1` payload (the kernel writes at most 16)",
        "the picture is skipped, checked before anything is sized by the count")
    # What an APMOFF3 or APMOFF2 stream inflates to: one survey line.
    inflated_bytes: int = limit(
        256 << 10, "what an `APMOFF3` or `APMOFF2` stream inflates to",
        "the picture is skipped, stopped as soon as it passes")
    # Pixels decoded at once: a JPEG photo is decoded at 1/2, 1/4 or 1/8 of its size
    # (a 200-megapixel phone photo at 1/8 is 3 megapixels); a PNG, GIF, BMP or PNM
    # whole, at up to 4 bytes a pixel and one more for its grey copy (a 4K screenshot
    # is 8.3 megapixels). 12M such pixels take the scaler 87 MiB, and the collector
    # holds the file (file_bytes) meanwhile: together within MEMORY_MIB.
    picture_pixels: int = limit(
        12 << 20, "pixels of a picture decoded at once (a JPEG photo is decoded at up "
        "to 1/8 of its size, so 200 megapixels fit)",
        "the picture is skipped, judged by its header; within it, the picture is "
        "scaled to %d pixels on its longer side for `zbarimg`" % ZBAR_SIDE)
    # zbarimg's output for one picture: a version-40 symbol holds 4296 characters.
    symbols_bytes: int = limit(
        1 << 20, "`zbarimg`'s output for one picture",
        "the picture is skipped, read no further")
    # Address space of the programs that read a picture (the scaler and zbarimg): a
    # small picture can claim a huge canvas. Never more than the collector's own hard
    # limit (ulimit -v), which they inherit.
    zbar_memory: int = limit(
        1 << 30, "the address space of the picture's scaler and of `zbarimg` (a "
        "small picture can claim a huge canvas)",
        "the picture could not be read, and is skipped")
    # Seconds to read one file to its end: a FIFO or a device may never write or end,
    # and a file that says "try again" (EAGAIN) may never stop saying it.
    read_seconds: int = limit(
        10, "the time to read one file to its end, any kind of file (a FIFO or "
        "device that neither writes nor ends; a file that keeps answering EAGAIN)",
        SKIPPED + ", without spinning while it waits")

    # Files of one dump directory that `report --with-dumps` publishes: action=dump
    # writes a few dozen (the ROMs, the option ROMs, the SMBIOS blocks, acpidump.txt);
    # a directory of several boards' numbered copies, a few hundred.
    dump_files: int = limit(
        256, "files of one dump directory (`report --with-dumps`)",
        "the directory is skipped, counted before any file is read")

    def raised(self, spec):
        """A copy with one limit changed: "NAME=VALUE", VALUE a number with an
        optional K, M or G suffix (powers of 1024)."""
        name, sep, value = spec.partition("=")
        name = name.strip().replace("-", "_")
        known = [f.name for f in fields(self)]
        if not sep or name not in known:
            raise ValueError("--limit takes NAME=VALUE, NAME one of %s" % ", ".join(known))
        m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", value, re.I)
        if not m:
            raise ValueError("--limit %s: %r is not a number (e.g. 64M)" % (name, value))
        number = int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]
        if number < 1:
            raise ValueError("--limit %s: must be at least 1" % name)
        return replace(self, **{name: number})

    def describe(self):
        return ", ".join("%s=%s" % (f.name, human(getattr(self, f.name), f.name))
                         for f in fields(self))


DEFAULT = Limits()

# Limits that count things rather than bytes: shown as plain numbers.
COUNTS = ("json_depth", "reports", "pages", "read_seconds", "dump_files")


def human(value, name=""):
    if name in COUNTS:
        return str(value)
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if value >= 1 << shift and value % (1 << shift) == 0:
            return "%d%s" % (value >> shift, suffix)
    return str(value)


def table(limits=DEFAULT):
    """docs/collect.md's table of the limits (Markdown), from the fields above."""
    rows = ["| limit | default | what it bounds | past it |", "|---|---|---|---|"]
    for f in fields(limits):
        rows.append("| `%s` | %s | %s | %s |" % (f.name, human(getattr(limits, f.name),
                                                              f.name),
                                                f.metadata["bounds"], f.metadata["past"]))
    return "\n".join(rows) + "\n"


class TooLarge(ValueError):
    """An input past a limit; the message says which and how to raise it."""

    def __init__(self, what, name, value):
        super().__init__("%s: over the %s limit of %s (raise it with --limit %s=...)"
                         % (what, name, human(value, name), name))
        self.limit = name
