"""action=dump judged against the truth (#52): the blocks read back by apmoff-collect's
own reader (tools/apmoff_collect/dumps.py), every one whole; the flash below 4 GiB
equal, byte for byte, to the BIOS image the emulator was given; the system BIOS's
F-segment equal to that image's last 64 KiB where the emulator maps it unchanged;
the ACPI tables through acpixtract and iasl -d without an error, each table's sum
holding and each one the RSDT or XSDT lists dumped; on 86Box's boards, the ROM file
86Box was given, as it maps it (tools/apmoff_collect/romfile.py), but for what the
BIOS is known to write: its flash's parameter blocks, or bytes of its shadow RAM."""

import os
import re
import subprocess
import sys

from tests.emu.case import Probe
from tests.paths import ROOT
from tools.apmoff_collect import dumps, romfile

SEGMENT = 0x10000
FOUR_GIB = 1 << 32
FSEG_NOTE = re.compile(r"^apmoff: dump: F0000h-FFFFFh (?:differs from the flash's last "
                       r"64 KiB in (\d+) bytes|equals the flash's last 64 KiB)", re.M)


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def compare(what, data, truth):
    if data == truth:
        return []
    if len(data) != len(truth):
        return ["%s: %d bytes, the image %d" % (what, len(data), len(truth))]
    at = first_difference(data, truth)
    return ["%s differs from the image: %d bytes, the first at offset %Xh (%02Xh, the "
            "image %02Xh)" % (what, sum(1 for x, y in zip(data, truth) if x != y), at,
                              data[at], truth[at])]


def root_entries(table):
    """The addresses an RSDT (4 bytes each) or XSDT (8) lists after its 36-byte header."""
    size = 8 if table[:4] == b"XSDT" else 4
    body = table[36:int.from_bytes(table[4:8], "little")]
    return [int.from_bytes(body[i:i + size], "little") for i in range(0, len(body), size)]


class DumpAgrees(Probe):
    """flash: the BIOS image the emulator maps below 4 GiB; fseg: the image whose last
    64 KiB the emulator maps at F0000h unchanged (Bochs); acpi: whether the machine
    has ACPI tables to check. rom: a ROM file, compared where the machine maps it
    whole (romfile.agree); writes: (offset, length) of the file where the BIOS writes
    at POST, the only place it may differ; differing: how many bytes must differ
    there, where that is known to the byte (shadow RAM)."""
    groups = ("dump",)

    def __init__(self, flash="", fseg="", acpi=True, rom="", writes=None, differing=None):
        self.flash, self.fseg, self.acpi = flash, fseg, acpi
        self.rom, self.writes, self.differing = rom, writes, differing

    def problems(self, run):
        found = dumps.blocks(run.serial.replace("\r", "").split("\n"))
        problems = ["block %d (%s at %08Xh): %s" % (b.number, b.kind, b.addr,
                                                    "; ".join(b.problems))
                    for b in found if not b.good]
        good = [b for b in found if b.good]
        if not good:
            return problems + ["no block was read back"]
        roms = {b.addr: bytes(b.data) for b in good if b.kind == "rom"}
        if self.flash:
            with open(self.flash, "rb") as f:
                truth = f.read()
            base = FOUR_GIB - len(truth)
            if base not in roms:
                problems.append("no flash block at %08Xh, the %d-byte image's place "
                                "(rom blocks at %s)" % (base, len(truth), ", ".join(
                                    "%08Xh" % a for a in sorted(roms)) or "none"))
            else:
                problems += compare("the flash at %08Xh" % base, roms[base], truth)
        problems += self.fseg_note_problems(run, roms)
        if self.rom:
            problems += self.rom_problems(roms)
        if self.fseg:
            with open(self.fseg, "rb") as f:
                truth = f.read()[-SEGMENT:]
            if 0xF0000 not in roms:
                problems.append("no block of F0000h-FFFFFh")
            else:
                problems += compare("F0000h-FFFFFh", roms[0xF0000], truth)
        if self.acpi:
            problems += self.acpi_problems(run, [b for b in good if b.kind == "acpi"])
        return problems

    def rom_problems(self, roms):
        with open(self.rom, "rb") as f:
            agreement = romfile.agree(roms, f.read(), os.path.basename(self.rom))
        if not agreement.compared:
            return [agreement.text()]
        start, length = self.writes or (0, 0)
        if not agreement.only_in(start, length):
            return ["%s, not only in %Xh-%Xh, where the BIOS writes" % (
                agreement.text(), start, start + length - 1) if length else
                agreement.text()]
        if self.differing is not None and agreement.differing != self.differing:
            return ["%s: %d bytes, not %d" % (agreement.text(), agreement.differing,
                                              self.differing)]
        return []

    def fseg_note_problems(self, run, roms):
        """The kernel's own count of the F-segment's bytes that differ from the flash's
        last 64 KiB (shadow RAM the BIOS wrote) against the blocks' bytes."""
        flash = [a for a in roms if a >= FOUR_GIB - (16 << 20)]
        note = FSEG_NOTE.search(run.serial)
        if not flash or 0xF0000 not in roms:
            return []
        if not note:
            return ["no line compares F0000h-FFFFFh with the flash"]
        top = roms[flash[0]][-SEGMENT:]
        seen = sum(1 for x, y in zip(roms[0xF0000], top) if x != y)
        said = int(note.group(1) or 0)
        if seen != said:
            return ["the kernel says F0000h-FFFFFh differs from the flash's last 64 KiB "
                    "in %d bytes, the blocks in %d" % (said, seen)]
        return []

    def acpi_problems(self, run, tables):
        if not tables:
            return ["no ACPI table was dumped"]
        problems = []
        by_addr = {b.addr: bytes(b.data) for b in tables}
        for b in tables:
            data = bytes(b.data)
            sig = dumps.table_signature(b)
            if sig == "RSDP":
                if sum(data[:20]) & 0xFF:
                    problems.append("RSDP at %08Xh: its sum does not hold" % b.addr)
                root = int.from_bytes(data[16:20], "little")
                if root not in by_addr:
                    problems.append("the RSDT at %08Xh was not dumped" % root)
            elif sig != "FACS" and sum(data) & 0xFF:
                problems.append("%s at %08Xh: its sum does not hold" % (sig, b.addr))
            if sig in ("RSDT", "XSDT"):
                missing = [a for a in root_entries(data) if a not in by_addr]
                if missing:
                    problems.append("%s lists %s, not dumped" % (sig, ", ".join(
                        "%08Xh" % a for a in missing)))
        work = run.path("acpi")
        os.makedirs(work, exist_ok=True)
        with open(os.path.join(work, "acpidump.txt"), "w") as f:
            f.write(dumps.acpidump_text(tables))
        proc = subprocess.run(["acpixtract", "-a", "acpidump.txt"], cwd=work,
                              capture_output=True, text=True, timeout=60)
        if proc.returncode:
            return problems + ["acpixtract -a: status %d: %s" % (
                proc.returncode, proc.stdout.strip()[-300:])]
        extracted = sorted(n for n in os.listdir(work) if n.endswith(".dat"))
        want = {dumps.table_signature(b).lower() for b in tables} - {"rsdp"}
        got = {n[:4] for n in extracted}
        if not want <= got:
            problems.append("acpixtract wrote %s, not %s" % (", ".join(sorted(got)),
                                                            ", ".join(sorted(want - got))))
        for name in extracted:
            if name.startswith(("rsdp", "facs")):
                continue            # iasl -d disassembles tables with a common header
            proc = subprocess.run(["iasl", "-d", name], cwd=work, capture_output=True,
                                  text=True, timeout=60)
            if proc.returncode:
                problems.append("iasl -d %s: status %d: %s" % (
                    name, proc.returncode, proc.stdout.strip()[-300:]))
        return problems


class DumpPrivate(Probe):
    """The privacy promise end to end (#52): the log through apmoff-collect as a user
    runs it (add, dump, report --with-dumps); every value given here (QEMU's -smbios
    serial numbers, asset tags and UUID) is in the dump's own files, where an archive
    wants it, and in none of the files the report publishes, nor its pages."""
    groups = ("dump",)

    def __init__(self, values):
        self.values = values        # {what: bytes as the SMBIOS table holds them}

    def problems(self, run):
        work = run.path("collect")
        os.makedirs(work, exist_ok=True)
        log = os.path.join(work, "dump.log")
        with open(log, "w", encoding="latin-1") as f:
            f.write(run.serial)
        tool = os.path.join(ROOT, "tools", "apmoff-collect")
        db = ["--db", os.path.join(work, "t.db")]
        for argv in (db + ["add", "--no-prompt", log],
                     ["dump", "-o", os.path.join(work, "dump"), log],
                     db + ["report", os.path.join(work, "html"), "--with-dumps",
                           os.path.join(work, "dump")]):
            proc = subprocess.run([sys.executable, tool] + argv, capture_output=True,
                                  text=True, timeout=120)
            if proc.returncode:
                return ["apmoff-collect %s: status %d: %s" % (
                    argv[len(db)] if argv[0] == "--db" else argv[0], proc.returncode,
                    (proc.stderr or proc.stdout).strip()[-300:])]
        problems = []
        dumped = read_tree(os.path.join(work, "dump"))
        published = read_tree(os.path.join(work, "html"))
        if not any(n.startswith("dumps/") for n in published):
            problems.append("the report published no dump")
        for what, value in self.values.items():
            if not any(value in data for data in dumped.values()):
                problems.append("the %s is in none of the dump's files" % what)
            leaks = [n for n, data in published.items() if value in data or
                     value.hex() in data.decode("latin-1")]
            if leaks:
                problems.append("the %s is published in %s" % (what, ", ".join(leaks)))
        return problems


def read_tree(top):
    out = {}
    for folder, _, names in os.walk(top):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, top)] = f.read()
    return out
