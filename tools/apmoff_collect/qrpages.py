"""The survey's QR pages (survey/qrpages.h), read back: each symbol holds
"APMOFF1 <page>/<pages> <CRC-32> <bytes of the line>"; joined in page order they are
the serial line's JSON, which the CRC-32 confirms. The one reader of that format:
apmoff-collect (inputs.py) reads people's photos with it, the emulator harness
(tests/emu/judges.py) its screenshots. zbar (Debian's zbar-tools) reads the pictures;
nothing here decodes QR itself."""

import re
import shutil
import subprocess
import zlib
from dataclasses import dataclass

HEADER = re.compile(r"APMOFF1 (\d+)/(\d+) ([0-9A-F]{8}) ", re.S)


class PageError(ValueError):
    """The symbols do not make one whole survey line, or cannot be read."""


@dataclass
class Page:
    """One symbol of a line that needs several. The CRC-32 (`group`) tells the pages
    of several lines apart and checks them once joined."""
    group: str
    index: int                      # 1-based
    count: int
    data: str


def parse_page(text):
    """The Page in a symbol's text, or None when it is not an APMOFF1 page."""
    m = HEADER.match(text)
    if not m:
        return None
    index, count = int(m.group(1)), int(m.group(2))
    if not 1 <= index <= count:
        raise PageError("QR page %d of %d" % (index, count))
    return Page(m.group(3), index, count, text[m.end():])


def crc_matches(group, text):
    """Whether the joined text has the CRC-32 its pages carry."""
    return "%08X" % zlib.crc32(text.encode("latin-1")) == group


def join_pages(symbols):
    """The survey line from the symbols of its pages (any order, duplicates allowed)."""
    pages, count, crc = {}, None, None
    for data in symbols:
        page = parse_page(data)
        if page is None:
            raise PageError("a symbol without the APMOFF1 header: %r" % data[:40])
        if count is None:
            count, crc = page.count, page.group
        elif (page.count, page.group) != (count, crc):
            raise PageError("pages of two different survey lines (%s and %s)"
                            % (crc, page.group))
        pages[page.index] = page.data
    if count is None:
        raise PageError("no QR symbol")
    missing = [p for p in range(1, count + 1) if p not in pages]
    if missing:
        raise PageError("pages %s of %d are missing" % (missing, count))
    line = "".join(pages[p] for p in range(1, count + 1))
    if not crc_matches(crc, line):
        raise PageError("the joined pages fail their CRC-32")
    return line


def zbar_symbols(picture, binary=False):
    """The QR symbols zbarimg finds in a picture, as text (no trailing newline).
    binary: the symbols' bytes as they are (one character a byte), as the harness
    compares them; otherwise as zbar decodes text (a photo of any QR code).
    Raises PageError when zbarimg is missing, finds nothing or fails."""
    if not shutil.which("zbarimg"):
        raise PageError("zbarimg is not installed (Debian package zbar-tools, "
                        "scripts/deps.sh)")
    proc = subprocess.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable"]
                          + (["-Sbinary"] if binary else []) + [picture],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if proc.returncode == 4 or (proc.returncode == 0 and not proc.stdout.strip()):
        raise PageError("zbarimg found no QR code in the picture")
    if proc.returncode:
        raise PageError("zbarimg failed (exit %d): %s" % (
            proc.returncode, proc.stderr.decode(errors="replace").strip()[:200]))
    text = proc.stdout.decode("latin-1") if binary else \
        proc.stdout.decode("utf-8", errors="replace")
    # --raw ends each symbol with a newline; a page never holds one.
    return [s for s in text.split("\n") if s]
