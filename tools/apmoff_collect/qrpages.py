"""The survey's QR codes, read back. Two payloads (docs/survey.md):

- one symbol, "APMOFF2:<Base45 of a zlib stream>": the line compressed against the
  preset dictionary survey/survey.zdict (the same file the kernel is built with),
  Base45 (RFC 9285) so it rides in alphanumeric mode; zlib's Adler-32 checks it;
- numbered pages when that does not fit the screen, each "APMOFF1 <page>/<pages>
  <CRC-32> <bytes of the line>"; joined in page order they are the serial line's
  JSON, which the CRC-32 confirms.

The one reader of both: apmoff-collect (inputs.py) reads people's photos with it, the
emulator harness (tests/emu/judges.py) its screenshots. zbar (Debian's zbar-tools)
reads the pictures; nothing here decodes QR itself."""

import os
import re
import shutil
import subprocess
import zlib
from dataclasses import dataclass

HEADER = re.compile(r"APMOFF1 (\d+)/(\d+) ([0-9A-F]{8}) ", re.S)
PACKED_PREFIX = "APMOFF2:"
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
ZDICT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "survey", "survey.zdict")


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


def base45_decode(text):
    """RFC 9285: three characters a pair of bytes, two for a last single byte."""
    out = bytearray()
    for i in range(0, len(text), 3):
        chunk = text[i:i + 3]
        if len(chunk) == 1:
            raise PageError("Base45 text of a length no encoder writes")
        try:
            digits = [BASE45.index(c) for c in chunk]
        except ValueError:
            raise PageError("a character outside Base45 in the APMOFF2 payload")
        value = sum(d * 45 ** k for k, d in enumerate(digits))
        if len(chunk) == 3:
            if value > 0xFFFF:
                raise PageError("a Base45 triplet above FFFFh")
            out += bytes((value >> 8, value & 0xFF))
        else:
            if value > 0xFF:
                raise PageError("a Base45 pair above FFh")
            out.append(value)
    return bytes(out)


def unpack(text):
    """The survey line from one APMOFF2 symbol's text, or None when it is not one."""
    if not text.startswith(PACKED_PREFIX):
        return None
    with open(ZDICT, "rb") as f:
        zdict = f.read()
    stream = base45_decode(text[len(PACKED_PREFIX):])
    try:
        inflater = zlib.decompressobj(zdict=zdict)
        line = inflater.decompress(stream) + inflater.flush()
    except zlib.error as e:
        raise PageError("the APMOFF2 payload does not inflate: %s" % e)
    if not inflater.eof or inflater.unused_data:
        raise PageError("the APMOFF2 payload is cut short or has bytes after its end")
    return line.decode("latin-1")


def survey_line(symbols):
    """The survey line from the symbols of one screen or photo set: an APMOFF2 symbol
    alone, or the pages of an APMOFF1 line."""
    for text in symbols:
        line = unpack(text)
        if line is not None:
            return line
    return join_pages(symbols)


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
