"""The survey's QR pages read back (survey/qrpages.h): each symbol holds
"APMOFF1 <page>/<pages> <CRC-32> <bytes of the line>"; joined in page order they are
the serial line's JSON, which the CRC-32 confirms. zbar (Debian's zbar-tools) reads
the pictures; nothing here decodes QR itself."""

import re
import shutil
import subprocess
import zlib

HEADER = re.compile(rb"APMOFF1 (\d+)/(\d+) ([0-9A-F]{8}) ")


class PageError(ValueError):
    """The symbols do not make one whole survey line."""


def read_symbols(picture):
    """The QR symbols zbarimg finds in a picture, as bytes (no trailing newline)."""
    if not shutil.which("zbarimg"):
        raise PageError("zbarimg is not installed (Debian zbar-tools, scripts/deps.sh)")
    proc = subprocess.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                           "-Sbinary", picture], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    if proc.returncode or not proc.stdout:
        return []
    # --raw prints each symbol followed by a newline; a page never holds one.
    return [s for s in proc.stdout.split(b"\n") if s]


def join_pages(symbols):
    """The survey line from its pages (any order, duplicates allowed)."""
    pages, count, crc = {}, None, None
    for data in symbols:
        m = HEADER.match(data)
        if not m:
            raise PageError("a symbol without the APMOFF1 header: %r" % data[:40])
        page, n, c = int(m.group(1)), int(m.group(2)), m.group(3).decode()
        if count is None:
            count, crc = n, c
        elif (n, c) != (count, crc):
            raise PageError("pages of two different survey lines (%s and %s)" % (crc, c))
        if not 1 <= page <= n:
            raise PageError("page %d of %d" % (page, n))
        pages[page] = data[m.end():]
    if count is None:
        raise PageError("no QR symbol")
    missing = [p for p in range(1, count + 1) if p not in pages]
    if missing:
        raise PageError("pages %s of %d are missing" % (missing, count))
    line = b"".join(pages[p] for p in range(1, count + 1))
    if "%08X" % zlib.crc32(line) != crc:
        raise PageError("the joined pages fail their CRC-32")
    return line.decode("latin-1")
