"""A machine's dumps in the HTML report (`report DIR --with-dumps DUMPDIR...`), with
what identifies the one board out of them.

A dump directory is what `apmoff-collect dump` wrote: MANIFEST.txt, the blocks' files
and survey.json, the survey of the run that dumped, which says whose dump it is (the
same machine identity `add` files its reports under). It may be a stranger's, so it is
read as `add` reads a file: only names the dump command writes, only regular files
(a symbolic link is refused, not followed), each within file_bytes and the lot within
dump_files; nothing else in the directory is looked at.

What is published has the SMBIOS table's serial numbers, UUIDs and asset tags (the
system's, the board's, the chassis', each processor's and memory device's, the power
supply's) overwritten, and every other copy of those values in the other files too:
an Award BIOS keeps its DMI data in its flash's parameter block, where the ROM dump
carries it. A string becomes as many asterisks, a UUID sixteen zero bytes (SMBIOS's
"not present"). The machine's page says how many values were removed from which
files, and its SHA-256s are of the published bytes.
"""

import os
import re
import stat
from dataclasses import dataclass, field

from . import dumps, inputs

FILE_NAME = re.compile(r"^(?:(?:rom|optionrom|smbios|entry)-[0-9A-F]{1,8}(?:-\d{1,3})?\.bin"
                       r"|acpidump\.txt|MANIFEST\.txt|survey\.json)$")
# Where a structure keeps a serial number or an asset tag (string numbers) and its UUID
# (16 bytes): SMBIOS Reference Specification 3.x, types 1, 2, 3, 4, 17 and 39.
PRIVATE_STRINGS = {1: {0x07: "system serial number"},
                   2: {0x07: "board serial number", 0x08: "board asset tag"},
                   3: {0x07: "chassis serial number", 0x08: "chassis asset tag"},
                   4: {0x20: "processor serial number", 0x21: "processor asset tag"},
                   17: {0x18: "memory serial number", 0x19: "memory asset tag"},
                   39: {0x08: "power supply serial number", 0x09: "power supply asset tag"}}
UUID_AT = 0x08                  # type 1, SMBIOS 2.1 on
END_OF_TABLE = 127
# A value this short, or one character repeated ("00000000", "        "), also
# appears where it is no serial: it is removed from the SMBIOS table only.
SEARCH_MIN = 5


class DumpDirError(Exception):
    pass


@dataclass
class DumpDir:
    path: str
    survey: dict = None
    files: dict = field(default_factory=dict)   # name: bytes, as published
    manifest: list = field(default_factory=list)
    removed: dict = field(default_factory=dict)  # file name: values removed from it
    kinds: list = field(default_factory=list)    # what was removed ("system UUID")


def read(path, limits):
    """The dump directory's files, held to the limits; DumpDirError names what is
    wrong with the directory as a whole."""
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise DumpDirError(e.strerror or str(e))
    if "MANIFEST.txt" not in names:
        raise DumpDirError("no MANIFEST.txt: not a directory `apmoff-collect dump` wrote")
    wanted = [n for n in names if FILE_NAME.match(n)]
    if len(wanted) > limits.dump_files:
        raise DumpDirError("%d files: over the dump_files limit of %d (raise it with "
                           "--limit dump_files=...)" % (len(wanted), limits.dump_files))
    d = DumpDir(path)
    for name in wanted:
        full = os.path.join(path, name)
        st = os.lstat(full)
        if not stat.S_ISREG(st.st_mode):
            raise DumpDirError("%s is not a regular file (a link or a device is not "
                               "followed)" % name)
        if st.st_size > limits.file_bytes:
            raise DumpDirError("%s: %d bytes: over the file_bytes limit of %d" % (
                name, st.st_size, limits.file_bytes))
        with open(full, "rb") as f:
            d.files[name] = f.read(limits.file_bytes + 1)
    d.manifest = d.files.pop("MANIFEST.txt").decode("utf-8", "replace").splitlines()
    raw = d.files.pop("survey.json", None)
    if raw is None:
        raise DumpDirError("no survey.json: the log had no survey line to say whose "
                           "dump it is")
    try:
        d.survey = inputs.parse_json(raw.decode("utf-8"), limits, "survey.json")
    except UnicodeDecodeError as e:
        raise DumpDirError("survey.json: %s" % e)
    except inputs.BadInput as e:
        raise DumpDirError(str(e))
    if not isinstance(d.survey, dict):
        raise DumpDirError("survey.json: not a survey")
    scrub(d)
    return d


def structures(table):
    """(type, formatted bytes, [strings]) of each structure of an SMBIOS table, to the
    end-of-table structure or the last whole one."""
    at = 0
    while at + 4 <= len(table):
        kind, length = table[at], table[at + 1]
        if length < 4 or at + length > len(table):
            return
        end = table.find(b"\0\0", at + length)
        if end < 0:
            return
        strings = table[at + length:end].split(b"\0") if end > at + length else []
        yield kind, table[at:at + length], strings, at
        if kind == END_OF_TABLE:
            return
        at = end + 2


def private_values(table):
    """[(what, value bytes, offset in the table)] of the serial numbers, asset tags and
    UUIDs in an SMBIOS structure table."""
    found = []
    for kind, formatted, strings, at in structures(table):
        for offset, what in PRIVATE_STRINGS.get(kind, {}).items():
            if offset < len(formatted) and 0 < formatted[offset] <= len(strings):
                n = formatted[offset]
                value = strings[n - 1]
                start = at + len(formatted) + sum(len(s) + 1 for s in strings[:n - 1])
                if value.strip(b" \0"):
                    found.append((what, value, start))
        if kind == 1 and len(formatted) >= UUID_AT + 16:
            uuid = formatted[UUID_AT:UUID_AT + 16]
            if uuid not in (bytes(16), b"\xff" * 16):
                found.append(("system UUID", uuid, at + UUID_AT))
    return found


def searchable(value):
    return len(value) >= SEARCH_MIN and len(set(value)) > 1


def blank(value, what):
    return bytes(16) if what == "system UUID" else b"*" * len(value)


def scrub(d):
    """Overwrites the private values in d.files: in each SMBIOS table where they are,
    and wherever else their bytes occur."""
    values = []
    for name in sorted(n for n in d.files if n.startswith("smbios-")):
        table = bytearray(d.files[name])
        found = private_values(bytes(table))
        for what, value, at in found:
            table[at:at + len(value)] = blank(value, what)
            d.removed.setdefault(name, []).append(what)
            values.append((what, value))
        d.files[name] = bytes(table)
    d.kinds = sorted({what for what, _ in values})
    for name in sorted(d.files):
        if name.startswith("smbios-"):
            continue
        data = d.files[name]
        for what, value in values:
            if not searchable(value):
                continue
            if name == "acpidump.txt":
                data, n = scrub_acpidump(data, value, blank(value, what))
            else:
                n = data.count(value)
                data = data.replace(value, blank(value, what))
            if n:
                d.removed.setdefault(name, []).extend([what] * n)
        d.files[name] = data


@dataclass
class _Table:
    addr: int
    data: bytearray


ACPI_HEAD = re.compile(r"^(\S{4}) @ 0x([0-9A-Fa-f]{1,16})$")
ACPI_ROW = re.compile(r"^\s+[0-9A-Fa-f]{4,8}: ((?:[0-9A-Fa-f]{2} ){1,16})")


def scrub_acpidump(text, value, replacement):
    """acpidump.txt with value overwritten in every table: read back from its hex rows,
    scrubbed, written again in the same format (dumps.acpidump_text)."""
    tables, table = [], None
    for line in text.decode("utf-8", "replace").splitlines():
        head = ACPI_HEAD.match(line)
        row = ACPI_ROW.match(line)
        if head:
            table = _Table(int(head.group(2), 16), bytearray())
            tables.append(table)
        elif row and table is not None:
            table.data += bytes.fromhex(row.group(1))
    n = 0
    for t in tables:
        n += bytes(t.data).count(value)
        t.data = bytearray(bytes(t.data).replace(value, replacement))
    if not n:
        return text, 0
    blocks = [dumps.Block(0, "acpi", t.addr, len(t.data), "", t.data, [], True)
              for t in tables]
    return dumps.acpidump_text(blocks).encode(), n
