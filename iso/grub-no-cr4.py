#!/usr/bin/env python3
"""Make GRUB's i386-pc multiboot loader run on CPUs without CR4 (the 386, and every
486 before the SL-enhanced parts).

GRUB 2.06 hands a multiboot kernel over through a small stub, grub_relocator32_start
(grub-core/lib/i386/relocator32.S), that turns paging off and then "turns PAE off":

    mov eax, cr0 / and eax, 7FFFFFFFh / mov cr0, eax     paging off
    mov eax, cr4 / and eax, ~20h      / mov cr4, eax     PAE off   <- #UD without CR4
    jmp $+2

On a CPU without CR4 the read is an invalid opcode; GRUB has no IDT of its own by
then, so the machine triple-faults right after "Booting ..." (seen in 86Box on an
i386DX and an i486DX2). i386-pc GRUB never turns PAE on, so "PAE off" has nothing to
undo: the nine bytes of the CR4 read-modify-write become NOPs. GRUB upstream fixed
the stub in 2025 by checking for CR4 first; Debian 12's 2.06 predates that.

    iso/grub-no-cr4.py SRC_DIR OUT_DIR

OUT_DIR becomes a module directory for `grub-mkimage -d`: symbolic links to every
file of SRC_DIR (e.g. /usr/lib/grub/i386-pc) except relocator.mod, which is the
patched copy. The patch is made only where the stub holds exactly the instructions
above, once, with no relocation in the patched bytes; anything else (another GRUB
build, an already fixed GRUB) stops the build with the reason: a module must never be
patched blindly. Exit status 0 when OUT_DIR is ready, 1 when the module does not
match, 2 on a usage error.
"""

import os
import struct
import sys

MODULE = "relocator.mod"
STUB_START = "grub_relocator32_start"
STUB_END = "grub_relocator32_end"

PAGING_OFF = bytes.fromhex("0f20c0 25ffffff7f 0f22c0")
PAE_OFF = bytes.fromhex("0f20e0 83e0df 0f22e0")      # the patched instructions
AFTER = bytes.fromhex("eb00 b8")                     # jmp $+2; mov eax, imm32 (ESP)
NOP = 0x90

SHT_SYMTAB, SHT_REL = 2, 9


class Mismatch(Exception):
    """The module is not the one this patch was written for."""


def sections(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise Mismatch("not a little-endian ELF32 file")
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2E)
    return [struct.unpack_from("<10I", elf, shoff + i * shentsize) for i in range(shnum)]


def symbols(elf, secs):
    """{name: (section index, value)} from the symbol table."""
    found = {}
    for sec in secs:
        if sec[1] != SHT_SYMTAB:
            continue
        strtab = secs[sec[6]]
        for off in range(sec[4], sec[4] + sec[5], 16):
            name, value, _size, _info, _other, shndx = struct.unpack_from("<IIIBBH", elf, off)
            end = elf.index(b"\0", strtab[4] + name)
            found[elf[strtab[4] + name:end].decode()] = (shndx, value)
    return found


def relocated_offsets(elf, secs, target):
    """Offsets within section `target` that a relocation rewrites (4 bytes each)."""
    offsets = set()
    for sec in secs:
        if sec[1] == SHT_REL and sec[7] == target:
            for off in range(sec[4], sec[4] + sec[5], 8):
                r_offset, = struct.unpack_from("<I", elf, off)
                offsets.update(range(r_offset, r_offset + 4))
    return offsets


def patch(elf):
    """The module with the CR4 access NOPed out, and the file offset patched."""
    secs = sections(elf)
    syms = symbols(elf, secs)
    if STUB_START not in syms or STUB_END not in syms:
        raise Mismatch("no %s/%s symbols" % (STUB_START, STUB_END))
    shndx, start = syms[STUB_START]
    if syms[STUB_END][0] != shndx:
        raise Mismatch("the stub's symbols are in different sections")
    end = syms[STUB_END][1]
    base = secs[shndx][4]
    stub = elf[base + start:base + end]

    pattern = PAGING_OFF + PAE_OFF + AFTER
    if stub.count(PAE_OFF) != 1 or stub.count(pattern) != 1:
        raise Mismatch("the stub does not hold the expected paging-off, PAE-off sequence "
                       "exactly once (a GRUB that checks for CR4 needs no patch)")
    at = start + stub.index(pattern) + len(PAGING_OFF)
    if relocated_offsets(elf, secs, shndx) & set(range(at, at + len(PAE_OFF))):
        raise Mismatch("a relocation touches the bytes to patch")

    out = bytearray(elf)
    out[base + at:base + at + len(PAE_OFF)] = bytes([NOP]) * len(PAE_OFF)
    changed = [i for i in range(len(elf)) if elf[i] != out[i]]
    if changed != list(range(base + at, base + at + len(PAE_OFF))):
        raise Mismatch("the patch would change other bytes than the CR4 access")
    return bytes(out), at - start


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    try:
        with open(os.path.join(src, MODULE), "rb") as f:
            patched, where = patch(f.read())
    except (OSError, Mismatch, struct.error, ValueError, IndexError) as e:
        print("grub-no-cr4: %s: %s: not patched" % (os.path.join(src, MODULE), e),
              file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(src):
        dest = os.path.join(out, name)
        if os.path.lexists(dest):
            os.unlink(dest)
        if name != MODULE:
            os.symlink(os.path.abspath(os.path.join(src, name)), dest)
    with open(os.path.join(out, MODULE), "wb") as f:
        f.write(patched)
    print("grub-no-cr4: %s: CR4 access at %s+%#x (9 bytes) made NOPs"
          % (MODULE, STUB_START, where), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
