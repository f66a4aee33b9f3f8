"""action=dump's blocks read back from a serial log (the wire
format: docs/dump.md).

Each block is taken only whole: every data line's CRC-32 holds, the lines run in
order from the block's address without a gap, overlap or stray byte, and the bytes'
CRC-32 and SHA-256 equal those of the block's end line. A block that fails is kept as
a name and its problems, never as bytes. A log may hold several runs' dumps, other
lines between them, and lines a terminal program broke or lost.
"""

import hashlib
import os
import re
import zlib
from dataclasses import dataclass, field

from . import output

HEADER = re.compile(r"^apmoff: dump: block (\d+): (rom|optionrom|acpi|smbios|entry) "
                    r"at ([0-9A-F]{8})h, (\d+) bytes: (.*)$")
LINE = re.compile(r"^apmoff: dump ([0-9a-f]{8}) ((?:[0-9a-f]{2}){1,32}) ([0-9a-f]{8})$")
END = re.compile(r"^apmoff: dump: block (\d+): end, crc32 ([0-9a-f]{8}), "
                 r"sha256 ([0-9a-f]{64})$")
ENTRY = re.compile(r"^apmoff: dump: entry: (.*)$")
BLOCK_MAX = 16 << 20        # a flash chip below 4 GiB is 16 MiB at the most


@dataclass
class Block:
    number: int
    kind: str
    addr: int
    length: int
    what: str
    data: bytearray = field(default_factory=bytearray)
    problems: list = field(default_factory=list)
    ended: bool = False

    @property
    def good(self):
        return self.ended and not self.problems


def line_check(addr, data):
    return zlib.crc32(data, zlib.crc32(addr.to_bytes(4, "little")))


def blocks(lines):
    """The blocks of these log lines (str, CR and LF already gone), in order."""
    out, block = [], None

    def close(why):
        if block is not None and not block.ended:
            block.problems.append(why)
            out.append(block)

    for number, line in enumerate(lines, 1):
        m = HEADER.match(line)
        if m:
            close("no end line before line %d" % number)
            length = int(m.group(4))
            block = Block(int(m.group(1)), m.group(2), int(m.group(3), 16), length,
                          m.group(5))
            if length > BLOCK_MAX:
                block.problems.append("%d bytes is past %d" % (length, BLOCK_MAX))
            continue
        if block is None or block.ended:
            continue
        m = LINE.match(line)
        if m:
            addr, data = int(m.group(1), 16), bytes.fromhex(m.group(2))
            expect = block.addr + len(block.data)
            if line_check(addr, data) != int(m.group(3), 16):
                block.problems.append("line %d fails its check" % number)
            elif addr != expect:
                block.problems.append("line %d is at %08Xh, %08Xh was next" %
                                      (number, addr, expect))
            elif len(block.data) + len(data) > block.length:
                block.problems.append("line %d runs past the block's %d bytes" %
                                      (number, block.length))
            else:
                block.data += data
            continue
        if line.startswith("apmoff: dump ") and not block.problems:
            block.problems.append("line %d is damaged" % number)
            continue
        m = END.match(line)
        if m and int(m.group(1)) == block.number:
            block.ended = True
            if len(block.data) != block.length and not block.problems:
                block.problems.append("%d of %d bytes came" % (len(block.data), block.length))
            if not block.problems:
                if zlib.crc32(block.data) != int(m.group(2), 16):
                    block.problems.append("its bytes' CRC-32 is not the end line's")
                elif hashlib.sha256(block.data).hexdigest() != m.group(3):
                    block.problems.append("its bytes' SHA-256 is not the end line's")
            out.append(block)
    close("the log ends inside it")
    return out


def entries(lines):
    """The entry points a dump named ("APM pm32: entry F000h:D198h ..."), each once,
    in order: the protected-mode interfaces no block holds (docs/dump.md)."""
    out = []
    for line in lines:
        m = ENTRY.match(line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def table_signature(block):
    """An ACPI block's signature as acpidump names it: "RSDP" for "RSD PTR "."""
    sig = bytes(block.data[:8])
    if sig == b"RSD PTR ":
        return "RSDP"
    return sig[:4].decode("ascii", "replace")


def acpidump_text(acpi_blocks):
    """The good ACPI blocks as ACPICA's acpidump prints them: a table's signature and
    address, then 16 bytes a line with their offset and ASCII, a blank line after each
    table; acpixtract -a reads it back byte for byte."""
    out = []
    for block in acpi_blocks:
        out.append("%s @ 0x%016X" % (table_signature(block), block.addr))
        data = bytes(block.data)
        for at in range(0, len(data), 16):
            row = data[at:at + 16]
            text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in row)
            out.append("    %04X: %-48s %s" % (at, " ".join("%02X" % b for b in row), text))
        out.append("")
    return "\n".join(out) + "\n"


def file_name(block):
    """rom-F0000.bin, optionrom-C0000.bin, smbios-F5A40.bin: the kind and the address."""
    return "%s-%X.bin" % (block.kind, block.addr)


def write(found, outdir, entry_points=()):
    """Writes the good blocks of `found` into outdir: each non-ACPI block as a file by
    its kind and address, the ACPI tables together as acpidump.txt, and MANIFEST.txt
    naming every block, its sums and its file, or why it was not written. A block seen
    again (a log of several runs) with the same bytes is written once; with other bytes
    it is written beside the first, numbered; the entry points close the manifest.
    Returns (written, refused) counts."""
    os.makedirs(outdir, exist_ok=True)
    manifest, acpi, seen = [], [], {}
    written = refused = 0
    for block in found:
        where = "%s at %08Xh, %d bytes (%s)" % (block.kind, block.addr, block.length,
                                                block.what)
        if not block.good:
            refused += 1
            manifest.append("NOT WRITTEN %s: %s" % (where, "; ".join(block.problems)))
            continue
        data = bytes(block.data)
        digest = hashlib.sha256(data).hexdigest()
        key = (block.kind, block.addr)
        versions = seen.setdefault(key, [])
        if digest in versions:
            continue
        versions.append(digest)
        if block.kind == "acpi":
            acpi.append(block)
            name = "acpidump.txt"
        else:
            name = file_name(block)
            if len(versions) > 1:
                name = name[:-4] + "-%d.bin" % len(versions)
            with output.replacing(os.path.join(outdir, name), binary=True) as f:
                f.write(data)
        written += 1
        manifest.append("%s  %08x  %s  %s" % (digest, zlib.crc32(data), name, where))
    if acpi:
        with output.replacing(os.path.join(outdir, "acpidump.txt")) as f:
            f.write(acpidump_text(acpi))
    with output.replacing(os.path.join(outdir, "MANIFEST.txt")) as f:
        f.write("# sha256, crc32, file, block (apmoff-collect dump)\n")
        f.write("\n".join(manifest) + ("\n" if manifest else ""))
        for entry in entry_points:
            f.write("entry: %s\n" % entry)
    return written, refused
