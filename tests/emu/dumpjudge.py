"""action=dump judged against the truth (#52): the blocks read back by apmoff-collect's
own reader (tools/apmoff_collect/dumps.py), every one whole; the flash below 4 GiB
equal, byte for byte, to the BIOS image the emulator was given; the system BIOS's
F-segment equal to that image's last 64 KiB where the emulator maps it unchanged;
the ACPI tables through acpixtract and iasl -d without an error, each table's sum
holding and each one the RSDT or XSDT lists dumped."""

import os
import re
import subprocess

from tests.emu.case import Probe
from tools.apmoff_collect import dumps

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
    has ACPI tables to check."""
    groups = ("dump",)

    def __init__(self, flash="", fseg="", acpi=True):
        self.flash, self.fseg, self.acpi = flash, fseg, acpi

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
