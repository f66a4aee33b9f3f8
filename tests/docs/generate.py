"""The blocks `make docs` writes into the pages: every figure and example the pages
quote that the build or a real run can give, so none of them is typed by hand.

    python3 -m tests.docs.generate [--check]     write the blocks (or only compare)

Each block is a row of BLOCKS: the page, the block's name, the emulator cases it is
made from (tests/docs/runs.py; none for figures of the build), and the function that
writes it. `make test` compares every block with what this would write now
(tests/docs/check.py); a block of figures that move a little by themselves (sizes
from one toolchain update to the next, a survey line that holds a clock) is compared
with MEASURED's tolerance.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from release import components

from tests.bench import bench
from tests.docs import blocks, runs
from tests.emu.watch import apmoff_lines
from tests.mutate.mutants import MUTANTS
from tests.paths import BUILD, ELF, ISO, ROOT
from tools.apmoff_collect import limits as collect_limits

FLOPPY_FORMATS = (("apmoff.img", 1440), ("apmoff-1200.img", 1200), ("apmoff-720.img", 720),
                  ("apmoff-360.img", 360))
EXPECT = os.path.join(ROOT, "tests", "emu", "expect")


def kib(n):
    return "%d KiB" % round(n / 1024.0)


# --- figures of the build ---------------------------------------------------------------

def sizes(_):
    iso, efi = os.path.getsize(ISO), bench.efi_bytes(ISO)
    os.makedirs(bench.OUT, exist_ok=True)
    bios_part = bench.bios_only_bytes()
    elf, loaded, memory = bench.kernel_sizes(ELF)
    rows = [
        ("`build/apmoff.iso`, the hybrid BIOS and UEFI image", iso),
        ("its UEFI boot images (GRUB for x86_64 and ia32, appended as a partition)", efi),
        ("the same ISO without them (`APMOFF_EFI=0 iso/mkiso.sh`): what a BIOS boot reads "
         "lies in it", bios_part),
        ("`build/apmoff.img`, the 1.44 MB floppy", os.path.getsize(
            os.path.join(BUILD, "apmoff.img"))),
        ("the floppies' loader: its boot sector and second stage (`build/loader/`)",
         512 + os.path.getsize(os.path.join(BUILD, "loader", "stage2.bin"))),
        ("`build/apmoff.elf`, the file", elf),
        ("the kernel's text and data, as loaded", loaded),
        ("the same with its BSS (the QR code's compressor and buffers, the x64 thunk's page "
         "tables, the v86 TSS and its I/O bitmap, the console's history)", memory),
    ]
    table = "| what | bytes | KiB |\n|---|---|---|\n" + "".join(
        "| %s | %d | %s |\n" % (what, n, kib(n).split()[0]) for what, n in rows)
    targets = [(bios_part <= bench.TARGET_BIOS_PART, "BIOS part of the ISO <= 512 KiB",
                kib(bios_part)),
               (loaded <= bench.TARGET_KERNEL, "kernel <= 32 KiB", kib(loaded) +
                " of text and data")]
    return table + "\nTargets: " + "; ".join("%s: **%s** (%s)" % (what, bench.verdict(ok), got)
                                             for ok, what, got in targets) + ".\n"


def floppy_free(_):
    """What iso/mkfloppy.sh says of each format when it builds the image from the
    build's menu (into a scratch folder: the build's own images stay as they are)."""
    rows = "| image | free | the kernel, packed | the loader |\n|---|---|---|---|\n"
    with tempfile.TemporaryDirectory(prefix="apmoff-docs-") as tmp:
        for name, kb in FLOPPY_FORMATS:
            out = subprocess.run([os.path.join(ROOT, "iso", "mkfloppy.sh"),
                                  os.path.join(tmp, name), ELF,
                                  os.path.join(BUILD, "grub.cfg"), str(kb)],
                                 check=True, capture_output=True, text=True).stdout
            m = re.search(r": (\d+) KiB free \(kernel (\d+) KiB packed, loader (\d+) KiB\)",
                          out)
            rows += "| `%s` | %s KiB | %s KiB | %s KiB |\n" % (name, m.group(1), m.group(2),
                                                             m.group(3))
    return rows


def menu(_):
    """The boot menu's entries and the words each gives the kernel (iso/grub.cfg); an
    entry inside the file's UEFI condition is marked as shown on UEFI only."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    timeout = re.search(r"^set timeout=(\d+)$", cfg, re.M).group(1)
    rows = ("| entry (countdown %s s to the default: the first on a BIOS, the last on UEFI) "
            "| kernel words |\n|---|---|\n" % timeout)
    entry = r'^([ \t]*)menuentry "apmoff @VERSION@: ([^"]*)"(?: --id \S+)? \{\s*apmoff ([^\n]*)\n'
    for indent, title, words in re.findall(entry, cfg, re.M):
        rows += "| %s%s | `%s` |\n" % (title, " (UEFI only)" if indent else "", words)
    return rows


def own_menu(_):
    """examples/grub.cfg as media.md shows it: a menu of one's own."""
    with open(os.path.join(ROOT, "examples", "grub.cfg")) as f:
        return "```\n" + f.read() + "```\n"


def mutants(_):
    folders = {}
    for m in MUTANTS:
        top = m.file.split("/")[0] + "/"
        folders[top] = folders.get(top, 0) + 1
    return ("The table holds **%d planted bugs**: %s.\n"
            % (len(MUTANTS), ", ".join("%d in `%s`" % (n, f) for f, n in
                                       sorted(folders.items(), key=lambda x: (-x[1], x[0])))))


def collect_limit_table(_):
    """apmoff-collect's limits (tools/apmoff_collect/limits.py): each one's name,
    default, what it bounds and what happens past it, and the memory they hold the
    collector to (the figure tests/collect/ measures every hostile case against)."""
    return (collect_limits.table() + "\nWith every limit at its default, a file within "
            "them costs apmoff-collect and the programs it runs for a picture (the "
            "scaler, `zbarimg`) at most %d MiB of memory, their peaks added.\n"
            % collect_limits.MEMORY_MIB)


# --- from real runs -----------------------------------------------------------------------

PANEL = "apmoff: summary: "


def panel(case):
    """The summary panel as the screen shows it (serial's `apmoff: summary: ` lines
    without their prefix), and the halted line under it."""
    def make(serials):
        lines = apmoff_lines(serials[case])
        panel = [l[len(PANEL):] for l in lines if l.startswith(PANEL)]
        halted = [l for l in lines if l.startswith("apmoff: halted: ")]
        return "```\n" + "\n".join(panel + halted[-1:]) + "\n```\n"
    return make


def qr_figures(serials):
    """The one-photo QR code of QEMU pc's survey, from the kernel's own lines."""
    text = "\n".join(apmoff_lines(serials["qemu-pc-survey-qr"]))
    line, chars = map(int, re.search(r"the survey line, (\d+) bytes, packed into (\d+) "
                                     r"characters", text).groups())
    modules, px = map(int, re.search(r"QR code 1/1 of \d+ characters \(APMOFF3, compressed\), "
                                     r"(\d+)x\d+ modules of (\d+) px", text).groups())
    base45 = chars - len("APMOFF3:")
    zlib = base45 // 3 * 2 + (1 if base45 % 3 == 2 else 0)
    bochs = "\n".join(apmoff_lines(serials["bochs-rombios-survey-qr"]))
    first = int(re.search(r"the first QR code took (\d+) ms", bochs).group(1))
    return ("QEMU `pc` (case `qemu-pc-survey-qr`, `action=survey`): a %d-byte line becomes "
            "%d bytes of zlib, %d characters, a version %d symbol (%dx%d modules) drawn with "
            "%d-pixel modules. On a 4-MIPS guest (Bochs `ips=4000000`, case "
            "`bochs-rombios-survey-qr`) the first symbol takes %d ms, by the TSC, to set "
            "the video mode, encode (the eight masks scored) and draw.\n"
            % (line, zlib, chars, (modules - 17) // 4, modules, modules, px, first))


def expected_lists():
    """{file name: (BIOS name, {check: (verdict, note)})} of tests/emu/expect/."""
    lists = {}
    for name in sorted(os.listdir(EXPECT)):
        if not name.startswith("check-"):
            continue
        bios, verdicts = "", {}
        with open(os.path.join(EXPECT, name)) as f:
            for line in f:
                m = re.match(r"^#: bios (.*)$", line)
                bios = bios or (m.group(1) if m else "")
                m = re.match(r"^(PASS|FAIL|SKIP) (\S+)\s*(?:# (.*))?$", line)
                if m:
                    verdicts[m.group(2)] = (m.group(1), m.group(3) or "")
        lists[name] = (bios, verdicts)
    return lists


CHECK_COLUMNS = (("check-seabios.txt", "SeaBIOS 1.16 (QEMU `pc`, `q35`; Bochs)"),
                 ("check-rombios.txt", "Bochs' own BIOS (2.7, 3.0)"))


def check_table(serials):
    """One row a check, in the kernel's order, with the function it names (a real
    run's lines) and the verdict each shipped list expects."""
    lines = apmoff_lines(serials["qemu-pc-check"])
    checks = [re.match(r"^apmoff: check (?:PASS|FAIL|SKIP) (\S+) \((\w+), APM ([\d.]+)\)", l)
              for l in lines]
    lists = expected_lists()
    head = "| check | function, since | " + " | ".join(t for _, t in CHECK_COLUMNS) + " |\n"
    rows = head + "|---|---|" + "---|" * len(CHECK_COLUMNS) + "\n"
    for m in filter(None, checks):
        cells = []
        for name, _ in CHECK_COLUMNS:
            verdict, note = lists[name][1].get(m.group(1), ("-", ""))
            cells.append(verdict + (": " + note if note else ""))
        rows += "| `%s` | %s, APM %s | %s |\n" % (m.group(1), m.group(2), m.group(3),
                                                   " | ".join(cells))
    totals = []
    for name, _ in CHECK_COLUMNS:
        got = [v for v, _ in lists[name][1].values()]
        totals.append("%d passed, %d failed, %d skipped" % (
            got.count("PASS"), got.count("FAIL"), got.count("SKIP")))
    return rows + "| summary | | " + " | ".join(totals) + " |\n"


@dataclass
class Block:
    page: str
    name: str
    what: str                       # the opening comment's "from ..."
    cases: tuple                    # emulator cases it is written from
    make: object                    # function(serials) -> the block's text
    measured: bool = False          # its figures compared within MEASURED's tolerance
    slack: int = 0                  # and a size may move this much whatever it is


BLOCKS = [
    Block("README.md", "menu", "from iso/grub.cfg", (), menu),
    Block("docs/media.md", "own-menu", "from examples/grub.cfg", (), own_menu),
    Block("README.md", "panel-failed", "from the run of qemu-pc-summary-failed",
          ("qemu-pc-summary-failed",), panel("qemu-pc-summary-failed")),
    Block("docs/output.md", "panel-check", "from the run of qemu-pc-summary-check",
          ("qemu-pc-summary-check",), panel("qemu-pc-summary-check")),
    Block("docs/check.md", "check-table",
          "from tests/emu/expect/ and the run of qemu-pc-check", ("qemu-pc-check",),
          check_table),
    Block("docs/survey.md", "qr-figures",
          "from the runs of qemu-pc-survey-qr and bochs-rombios-survey-qr",
          ("qemu-pc-survey-qr", "bochs-rombios-survey-qr"), qr_figures, measured=True,
          # the line carries the commit's hash, 12 hex digits and "-dirty" or not:
          # up to 18 bytes of line, 9 of zlib, 14 characters, whatever the commit
          slack=18),
    Block("docs/media.md", "floppy-free", "from what iso/mkfloppy.sh says of each image",
          (), floppy_free, measured=True),
    Block("docs/testing.md", "sizes", "from the build", (), sizes, measured=True),
    Block("docs/testing.md", "mutants", "from tests/mutate/mutants.py", (), mutants),
    Block("docs/collect.md", "limits", "from tools/apmoff_collect/limits.py", (),
          collect_limit_table),
]

# A figure that moves a little by itself may differ from the page by this much: a
# survey line holds the ROM's checksum and the CPU clock, so its compressed length
# moves by a byte or two from boot to boot; a Debian update of GRUB or gcc moves the
# images' sizes by a few bytes. A stale page is off by far more (the kernel's size
# doubled under the old one). A small number (a version, a module size) must be equal.
MEASURED = 0.03

# The pages' figures are those of the release the project's images are built on
# (release/dist.py); on another release (make test on Debian 13: GRUB 2.12, gcc 14)
# a measured figure may differ by this much, and a small one by 1, but its words
# and its shape must still be what the page says.
PAGE_RELEASE = "Debian 12"
OTHER_RELEASE = 0.10

# A time a guest measured ("takes 31 ms") is no size: the symbol it times holds the
# commit and the ROM's checksum, so its modules, and the time to draw them, differ from
# one tree to the next (28, 31 and 64 ms in three runs of Bochs' 4-MIPS guest). It is
# the same figure while within half of the larger, or 5 of its unit.
TIMED = 0.5
TIMED_SMALL = 5


# What a block shows of the emulators' own versions, which a Debian release changes
# while apmoff's output does not: SeaBIOS's SMBIOS version (1.16.2-debian-1.16.2-1 on
# Debian 12, 1.16.3-debian-1.16.3-2 on 13). A page written on one release stays right
# on the other; `make docs` writes the release it runs on.
RELEASE_VARIANTS = [(re.compile(r"\bSeaBIOS (\d+\.\d+)\.\d+-debian-\S+?(?=,|\s|$)"),
                     r"SeaBIOS \1.x")]


def release_neutral(text):
    for pattern, replacement in RELEASE_VARIANTS:
        text = pattern.sub(replacement, text)
    return text


def figures_agree(have, want, release=None, slack=0):
    """Whether two texts differ only in figures within the tolerance: MEASURED on the
    pages' own release, OTHER_RELEASE (and 1 for a small number) on another; a size
    within `slack` of the other always agrees (what a commit's hash moves)."""
    release = release or components.debian_release()
    tolerance, small = (MEASURED, 0) if release == PAGE_RELEASE else (OTHER_RELEASE, 1)
    # a symbol's side follows its version (4 modules a step): compared as the version,
    # so one version more on another release is the 1 a small number may move
    side = re.compile(r"\((\d+)x\1 modules\)")
    have, want = (side.sub(lambda m: "(side of version %d)" % ((int(m.group(1)) - 17) // 4),
                           text) for text in (have, want))
    numbers = re.compile(r"\d+")
    if numbers.sub("#", have) != numbers.sub("#", want):
        return False
    figures = re.compile(r"(\d+)( ms\b| s\b)?")
    for (a, timed), (b, _) in zip(figures.findall(have), figures.findall(want)):
        a, b = int(a), int(b)
        if not timed and abs(a - b) <= slack:
            continue
        if timed:
            if abs(a - b) > max(TIMED_SMALL, TIMED * max(a, b)):
                return False
        elif max(a, b) < 100:
            if abs(a - b) > small:
                return False
        elif abs(a - b) > tolerance * max(a, b):
            return False
    return True


def wanted(block_list, results=(), say=print):
    """{(page, name): text} of every block, from the build and the runs."""
    names = [c for b in block_list for c in b.cases]
    serials = runs.serials(names, results, say) if names else {}
    return {(b.page, b.name): b.make(serials) for b in block_list}


def problems(block_list, results=(), say=print):
    """Why the pages' blocks are not what `make docs` would write: [] when they are."""
    found = []
    for b in block_list:
        text = blocks.body(os.path.join(ROOT, b.page), b.name)
        if text is None:
            found.append("%s has no `%s` block (<!-- %s: written by `make docs` ... -->)"
                         % (b.page, b.name, b.name))
    want = wanted(block_list, results, say)
    for b in block_list:
        have = blocks.body(os.path.join(ROOT, b.page), b.name)
        text = want[(b.page, b.name)]
        if have is not None:
            have, text = release_neutral(have), release_neutral(text)
        if have is None or have == text or (b.measured and figures_agree(have, text,
                                                                         slack=b.slack)):
            continue
        found.append(blocks.stale(os.path.join(ROOT, b.page), b.name, text) +
                     ": make docs")
    return found


def write_all(say=print):
    for (page, name), text in wanted(BLOCKS, say=say).items():
        if not blocks.write(os.path.join(ROOT, page), name, text):
            raise SystemExit("%s has no `%s` block: add its two comments, "
                             "<!-- %s: written by `make docs` ... --> and <!-- end %s -->"
                             % (page, name, name, name))
        say("docs: %s: %s written" % (page, name))


def main():
    ap = argparse.ArgumentParser(description="Writes the pages' generated blocks (make docs).")
    ap.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = ap.parse_args()
    if args.check:
        found = problems(BLOCKS)
        print("\n".join(found) or "docs: every block is what make docs would write")
        return 1 if found else 0
    write_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
