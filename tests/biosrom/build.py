#!/usr/bin/python3
"""Builds the emulated 1990s APM BIOSes of tests/biosrom/apmbios.asm: one QEMU option
ROM per behaviour (build/biosrom/NAME.rom), each padded to whole 512-byte blocks
with its size byte and checksum fixed, as SeaBIOS requires before it runs a ROM.

usage: build.py [--out DIR] [NAME ...]     (no NAME: all of them)
The emulator cases (tests/emu/cases_biosrom.py) name a ROM by behaviour; the
harness calls rom_path(), which builds it when the sources are newer.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "biosrom")
SOURCES = [os.path.join(HERE, n) for n in ("apmbios.asm", "apm.inc")]

# behaviour name -> the BEH_* selector in apmbios.asm
BEHAVIOURS = {
    "plain": "BEH_PLAIN",
    "ebda": "BEH_EBDA",
    "nocf": "BEH_NOCF",
    "ver11": "BEH_VER11",
    "tickpoll": "BEH_TICKPOLL",
    "hang": "BEH_HANG",
    "nmi": "BEH_NMI",
    "enable": "BEH_ENABLE",
    "offonly": "BEH_OFFONLY",
    "late": "BEH_LATE",
    "wbinvd": "BEH_WBINVD",
    "award": "BEH_AWARD",
    "dataseg": "BEH_DATASEG",
    "resume": "BEH_RESUME",
    "pmirq": "BEH_PMIRQ",
    "a20pm": "BEH_A20PM",
    "hma": "BEH_HMA",
    "slowoff": "BEH_SLOWOFF",
    "v86priv": "BEH_V86PRIV",
    "iretcf": "BEH_IRETCF",
    "disengaged": "BEH_DISENGAGED",
    "ss16": "BEH_SS16",
    "a20sti": "BEH_A20STI",
    "mca": "BEH_MCA",
    "pmint": "BEH_PMINT",
    "a20gates": "BEH_A20GATES",
    "dsdata": "BEH_DSDATA",
    "timer": "BEH_TIMER",
    "alarm": "BEH_ALARM",
    "haltoff": "BEH_HALTOFF",
    "v86off": "BEH_V86OFF",
    "caphang": "BEH_CAPHANG",
}

BLOCK = 512


def fix_rom(data):
    """Pads to whole blocks, writes the size byte and makes the bytes sum to 0."""
    if data[:2] != b"\x55\xaa":
        raise ValueError("no 55AAh signature")
    size = (len(data) + 1 + BLOCK - 1) // BLOCK * BLOCK   # room for the checksum byte
    if size // BLOCK > 255:
        raise ValueError("ROM too large: %d bytes" % len(data))
    rom = bytearray(data) + bytes(size - len(data))
    rom[2] = size // BLOCK
    rom[-1] = 0
    rom[-1] = (-sum(rom)) & 0xFF
    assert sum(rom) & 0xFF == 0
    return bytes(rom)


def build(name, out=OUT):
    if name not in BEHAVIOURS:
        raise SystemExit("build.py: unknown behaviour %r (known: %s)"
                         % (name, ", ".join(sorted(BEHAVIOURS))))
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, name + ".bin")
    rom = os.path.join(out, name + ".rom")
    subprocess.run(["nasm", "-f", "bin", "-I", HERE + "/", "-Werror",
                    "-D", "BEHAVIOUR=" + BEHAVIOURS[name], "-o", raw,
                    os.path.join(HERE, "apmbios.asm")], check=True)
    with open(raw, "rb") as f:
        data = fix_rom(f.read())
    with open(rom, "wb") as f:
        f.write(data)
    return rom


def rom_path(name):
    """The ROM for a behaviour, built when missing or older than its sources."""
    rom = os.path.join(OUT, name + ".rom")
    if not os.path.exists(rom) or any(os.path.getmtime(s) > os.path.getmtime(rom)
                                      for s in SOURCES + [__file__]):
        build(name)
    return rom


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=OUT, help="output folder (default build/biosrom)")
    ap.add_argument("names", nargs="*", help="behaviours (default: all): "
                    + ", ".join(BEHAVIOURS))
    args = ap.parse_args()
    for name in args.names or BEHAVIOURS:
        print(build(name, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
