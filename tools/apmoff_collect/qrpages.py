"""The survey's QR codes, read back. Two payloads (docs/survey.md):

- one symbol, "APMOFF3:<Base45 of a zlib stream>": the line compressed against the
  preset dictionary survey/survey3.zdict (the same file the kernel is built with),
  Base45 (RFC 9285) so it rides in alphanumeric mode; zlib's Adler-32 checks it.
  "APMOFF2:" is the same against survey/survey.zdict, which apmoff 0.2 and 0.3 drew
  and which is printed on paper in the wild: read as ever. A dictionary is frozen
  with its prefix: a new one takes a new prefix;
- numbered pages when that does not fit the screen, each "APMOFF1 <page>/<pages>
  <CRC-32> <bytes of the line>"; joined in page order they are the serial line's
  JSON, which the CRC-32 confirms.

The one reader of both: apmoff-collect (inputs.py) reads people's photos with it, the
emulator harness (tests/emu/judges.py) its screenshots. zbar (Debian's zbar-tools)
reads the pictures; nothing here decodes QR itself."""

import os
import re
import resource
import shutil
import subprocess
import tempfile
import threading
import zlib
from dataclasses import dataclass

from .limits import DEFAULT, TooLarge

HEADER = re.compile(r"APMOFF1 (\d+)/(\d+) ([0-9A-F]{8}) ", re.S)
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
SURVEY_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "survey")
# Each one-symbol payload's prefix and its preset dictionary; the first is what the
# kernel draws now (app/show/surveyscreen.c).
PACKED = {
    "APMOFF3:": os.path.join(SURVEY_DIR, "survey3.zdict"),
    "APMOFF2:": os.path.join(SURVEY_DIR, "survey.zdict"),
}
PACKED_PREFIX = "APMOFF3:"
ZDICT = PACKED[PACKED_PREFIX]


class PageError(ValueError):
    """The symbols do not make one whole survey line, or cannot be read."""


def too_large(what, name, value):
    """A PageError in the words of limits.TooLarge, so the harness (which catches
    PageError) and the collector see one kind of refusal."""
    return PageError(str(TooLarge(what, name, value)))


@dataclass
class Page:
    """One symbol of a line that needs several. The CRC-32 (`group`) tells the pages
    of several lines apart and checks them once joined."""
    group: str
    index: int                      # 1-based
    count: int
    data: str


def parse_page(text, limits=DEFAULT):
    """The Page in a symbol's text, or None when it is not an APMOFF1 page. A page
    count past limits.pages is refused here, before anything is sized by it."""
    m = HEADER.match(text)
    if not m:
        return None
    if len(m.group(2)) > 9 or int(m.group(2)) > limits.pages:
        raise too_large("QR page %s of %s" % (digits(m.group(1)), digits(m.group(2))),
                       "pages", limits.pages)
    index, count = int(m.group(1)[:10]), int(m.group(2))
    if not 1 <= index <= count:
        raise PageError("QR page %d of %d" % (index, count))
    return Page(m.group(3), index, count, text[m.end():])


def digits(number, shown=12):
    """A number from a stranger's header, cut short for a message."""
    return number if len(number) <= shown else "%s... (%d digits)" % (number[:shown],
                                                                     len(number))


def crc_matches(group, text):
    """Whether the joined text has the CRC-32 its pages carry."""
    return "%08X" % zlib.crc32(text.encode("latin-1")) == group


def join_pages(symbols, limits=DEFAULT):
    """The survey line from the symbols of its pages (any order, duplicates allowed)."""
    pages, count, crc = {}, None, None
    for data in symbols:
        page = parse_page(data, limits)
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
        raise PageError("pages %s of %d are missing" % (page_list(missing), count))
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
            raise PageError("a character outside Base45 in the payload")
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


def base45_encode(data):
    """RFC 9285, the kernel's survey/base45.c in Python: for tests and tools that
    make payloads the way the kernel does."""
    out = []
    for i in range(0, len(data), 2):
        chunk = data[i:i + 2]
        value = chunk[0] * 256 + chunk[1] if len(chunk) == 2 else chunk[0]
        digits = 3 if len(chunk) == 2 else 2
        for _ in range(digits):
            value, d = divmod(value, 45)
            out.append(BASE45[d])
    return "".join(out)


def zdict(prefix=PACKED_PREFIX):
    with open(PACKED[prefix], "rb") as f:
        return f.read()


def pack(line, level=9, prefix=PACKED_PREFIX):
    """A one-symbol payload's text for a line (bytes or latin-1 text): zlib against the
    prefix's preset dictionary, then Base45, as app/show/surveyscreen.c makes it (its deflate
    is its own; any zlib stream with the dictionary reads the same)."""
    data = line.encode("latin-1") if isinstance(line, str) else line
    packer = zlib.compressobj(level, zdict=zdict(prefix))
    return prefix + base45_encode(packer.compress(data) + packer.flush())


def unpack(text, limits=DEFAULT):
    """The survey line from one APMOFF3 or APMOFF2 symbol's text, or None when it is
    neither. Inflates at most limits.inflated_bytes: a stream that would give more is
    refused before the rest of it is inflated."""
    prefix = next((p for p in PACKED if text.startswith(p)), None)
    if prefix is None:
        return None
    name = prefix[:-1]
    stream = base45_decode(text[len(prefix):])
    try:
        inflater = zlib.decompressobj(zdict=zdict(prefix))
        line = inflater.decompress(stream, limits.inflated_bytes + 1)
        if len(line) > limits.inflated_bytes or inflater.unconsumed_tail:
            raise too_large("the %s payload inflates" % name, "inflated_bytes",
                           limits.inflated_bytes)
        line += inflater.flush()
    except zlib.error as e:
        raise PageError("the %s payload does not inflate: %s" % (name, e))
    if len(line) > limits.inflated_bytes:
        raise too_large("the %s payload inflates" % name, "inflated_bytes",
                       limits.inflated_bytes)
    if not inflater.eof or inflater.unused_data:
        raise PageError("the %s payload is cut short or has bytes after its end" % name)
    return line.decode("latin-1")


def page_list(numbers, shown=8):
    """"2, 3, 4 and 9 more": a list of page numbers cut short for a message."""
    text = ", ".join(map(str, numbers[:shown]))
    return text + (" and %d more" % (len(numbers) - shown) if len(numbers) > shown else "")


def pages_of(line, count):
    """The APMOFF1 symbols' texts of a line cut into `count` pages, as
    survey/qrpages.c cuts it (equal lengths, the last may be shorter)."""
    data = line.encode("latin-1") if isinstance(line, str) else line
    crc = "%08X" % zlib.crc32(data)
    chunk = -(-len(data) // count)
    return ["APMOFF1 %d/%d %s %s" % (i + 1, count, crc,
                                     data[i * chunk:(i + 1) * chunk].decode("latin-1"))
            for i in range(count)]


def survey_line(symbols, limits=DEFAULT):
    """The survey line from the symbols of one screen or photo set: an APMOFF3 (or
    APMOFF2) symbol alone, or the pages of an APMOFF1 line."""
    for text in symbols:
        line = unpack(text, limits)
        if line is not None:
            return line
    return join_pages(symbols, limits)


def address_space(limit):
    """A preexec_fn that caps a child's address space at `limit`, or at the hard limit
    the collector was given when that is lower (a user's `ulimit -v`): a process may
    lower its hard limit but not raise it, and a cap that asked for more would fail
    before the child ran."""
    def cap():
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        most = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (most, most))
    return cap


# zbarimg's summary on stderr (without -q): how many images it scanned. It reads a
# picture through ImageMagick, and when ImageMagick only warns (a resource policy, a
# truncated file) zbarimg prints "WARNING: ...", scans no image and exits 0: a
# summary of 0 images, or none at all, means it never looked for a code.
SCANNED = re.compile(r"^scanned (\d+) barcode symbols from (\d+) images", re.M)
# zbar's own lines on stderr that say nothing about the picture.
NOISE = re.compile(r"^(Connection (Error|Null)\b|scanned \d+ barcode|$)")


def zbar_symbols(picture, binary=False, limits=DEFAULT, timeout=120):
    """The QR symbols zbarimg finds in a picture, as text (no trailing newline).
    binary: the symbols' bytes as they are (one character a byte), as the harness
    compares them; otherwise as zbar decodes text (a photo of any QR code).
    zbarimg runs with limits.zbar_memory of address space (a small picture can claim a
    huge canvas) and its output is read up to limits.symbols_bytes.
    Raises PageError when zbarimg is missing, finds nothing, or could not read the
    picture (then the message says so, not that there is no QR code)."""
    if not shutil.which("zbarimg"):
        raise PageError("zbarimg is not installed (Debian package zbar-tools, "
                        "scripts/deps.sh)")
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(["zbarimg", "--raw", "-Sdisable", "-Sqrcode.enable"]
                                + (["-Sbinary"] if binary else []) + ["--", picture],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=err, preexec_fn=address_space(limits.zbar_memory))
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            out = proc.stdout.read(limits.symbols_bytes + 1)
            if len(out) > limits.symbols_bytes:
                proc.kill()
            proc.stdout.close()
            returncode = proc.wait()
        finally:
            timer.cancel()
        err.seek(0)
        stderr = err.read(8000).decode(errors="replace")
    if len(out) > limits.symbols_bytes:
        raise too_large("zbarimg's symbols", "symbols_bytes", limits.symbols_bytes)
    text = out.decode("latin-1") if binary else out.decode("utf-8", errors="replace")
    # --raw ends each symbol with a newline; a page never holds one.
    symbols = [s for s in text.split("\n") if s]
    if returncode in (0, 4) and symbols:
        return symbols
    scanned = SCANNED.search(stderr)
    if returncode in (0, 4) and scanned and int(scanned.group(2)) > 0:
        raise PageError("zbarimg found no QR code in the picture")
    said = [l.strip() for l in stderr.splitlines() if not NOISE.match(l.strip())]
    raise PageError("zbarimg could not read the picture (%s, no image scanned)%s" % (
        "killed" if returncode < 0 else "exit %d" % returncode,
        ": " + said[0][:200] if said else ""))
