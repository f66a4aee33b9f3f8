"""How much of a stranger's file the collector reads before it refuses it.

Every input is measured against these before it is parsed, so a file cannot make the
collector use memory or time out of proportion to a survey (about 2.5 KB of JSON).
Each limit is a named field with the reason for its size; `add --limit NAME=VALUE`
raises one (docs/collect.md lists them). A file past a limit is skipped with
TooLarge, whose message names the limit, its value and the option that raises it.
"""

import re
from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Limits:
    # A serial capture of many boots, with an emulator's log appended, is a few MB;
    # a phone photo of the screen 2-12 MB.
    file_bytes: int = 32 << 20
    # One line of a log: a survey line is about 2.5 KB, a QMP event or a Bochs line
    # far less. Longer lines that are not apmoff's are skipped, not kept.
    line_chars: int = 64 << 10
    # One report's JSON as text (a survey line, the JSON inflated from APMOFF2, or one
    # object of a JSON file): 100 times what the kernel writes.
    json_bytes: int = 256 << 10
    # A JSON file: a list of reports may hold thousands.
    json_file_bytes: int = 16 << 20
    # Nesting: a survey is 4 levels deep (apm.interfaces.rm.connect).
    json_depth: int = 16
    # Any one JSON string: the longest the kernel writes is apm.steps (a few hundred
    # characters); ROM strings are 64 bytes.
    string_chars: int = 8 << 10
    # APMOFF1 pages of one line: the kernel writes at most 16 (QRPAGES_MAX).
    pages: int = 64
    # What an APMOFF2 stream inflates to: one survey line.
    inflated_bytes: int = 256 << 10
    # zbarimg's output for one picture: a version-40 symbol holds 4296 characters.
    symbols_bytes: int = 1 << 20
    # zbarimg's address space: a small picture can claim a huge canvas.
    zbar_memory: int = 1 << 30
    # Seconds to wait for a FIFO or a device that may never write or end.
    read_seconds: int = 10

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


def human(value, name=""):
    if name in ("json_depth", "pages", "read_seconds"):
        return str(value)
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if value >= 1 << shift and value % (1 << shift) == 0:
            return "%d%s" % (value >> shift, suffix)
    return str(value)


class TooLarge(ValueError):
    """An input past a limit; the message says which and how to raise it."""

    def __init__(self, what, name, value):
        super().__init__("%s: over the %s limit of %s (raise it with --limit %s=...)"
                         % (what, name, human(value, name), name))
        self.limit = name
