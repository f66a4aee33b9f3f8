#!/usr/bin/env python3
"""The floppy loader runs in real mode on a 386: its code must say so.

gcc -m16 compiles the loader's C as 32-bit code with operand- and address-size
prefixes, and unreal mode lets its 32-bit addresses reach past 64 KiB. A string
instruction (MOVS, STOS, LODS, SCAS, CMPS) that gcc emits without the address-size
prefix (67h) would use 16-bit SI, DI and CX instead, and wrap at 64 KiB: a copy to
2 MiB would land in the interrupt vectors. So every string instruction in the
loader's C code must carry 67h; head.asm's intcall copies its register block within
64 KiB on purpose, and the boot sector works in its first 64 KiB only. And no
instruction a 386 lacks (tests/check_insns.py's list), in the second stage or the
boot sector.

    python3 -m tests.check_loader [BUILD_DIR]     PASS/FAIL lines; exit status 0 or 1
    python3 -m tests.check_loader --self-test      the check must catch a planted MOVSB
"""

import os
import re
import subprocess
import sys
import tempfile

from tests.check_insns import NEWER_RE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRING = re.compile(r"^(rep[a-z]*\s+)?(movs|stos|lods|scas|cmps)[bwl]?\b")
# Assembly whose string instructions stay below 64 KiB by design, or that holds code
# of another width (boot_kernel ends in 32-bit code, which i8086 disassembly garbles).
ASM_OK = {"intcall", "boot_kernel"}
LINE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$")
LABEL = re.compile(r"^[0-9a-f]+ <(.+)>:$")


def instructions(path, binary=False):
    """[(function, raw bytes, instruction text)] of 16-bit code."""
    cmd = ["objdump", "-d", "-w", "-m", "i8086"]
    if binary:
        cmd = ["objdump", "-D", "-w", "-b", "binary", "-m", "i8086"]
    out = subprocess.run(cmd + [path], check=True, capture_output=True, text=True).stdout
    function, found = "?", []
    for line in out.splitlines():
        m = LABEL.match(line)
        if m:
            function = m.group(1)
            continue
        m = LINE.match(line)
        if m:
            found.append((function, m.group(2).split(), m.group(3).strip()))
    return found


def problems_in(path, binary=False, strings=True):
    found = []
    for function, raw, text in instructions(path, binary):
        if function.split(".")[0] in ASM_OK:      # nasm's local labels: intcall.flush
            continue
        mnemonic = text.split()[0] if text else ""
        if strings and STRING.match(text) and "67" not in raw[:4]:
            found.append("%s: %s with 16-bit addresses (no 67h prefix)" % (function, text))
        for cpu, pattern in NEWER_RE:
            if pattern.match(mnemonic):
                found.append("%s: %s (%s)" % (function, text, cpu))
    return found


def check(build):
    messages, ok = [], True
    for name, binary in (("stage2.elf", False), ("bootsect.bin", True)):
        path = os.path.join(build, "loader", name)
        if not os.path.exists(path):
            return False, ["FAIL loader: %s is missing (make loader)" % path]
        found = problems_in(path, binary, strings=not binary)
        ok &= not found
        fine = ("32-bit addresses for every string instruction, nothing a 386 lacks"
                if not binary else "nothing a 386 lacks")
        messages.append("%s loader %s: %s" % ("FAIL" if found else "PASS", name,
                                              "; ".join(found[:5]) or fine))
    return ok, messages


def self_test():
    """A function with a plain MOVSB, and one with CPUID, must both be caught."""
    source = ("bits 16\nglobal planted\nsection .text\nplanted:\n rep movsb\n"
              " a32 rep movsb\n cpuid\n o32 ret\n")
    with tempfile.TemporaryDirectory() as tmp:
        asm, obj = os.path.join(tmp, "p.asm"), os.path.join(tmp, "p.o")
        with open(asm, "w") as f:
            f.write(source)
        subprocess.run(["nasm", "-f", "elf32", asm, "-o", obj], check=True)
        found = problems_in(obj)
    ok = len(found) == 2 and "movsb" in found[0] and "cpuid" in found[1]
    return ok, "%s loader check self-test: %s" % ("PASS" if ok else "FAIL",
                                                   "a planted MOVSB and CPUID are caught"
                                                   if ok else "found %r" % found)


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        ok, message = self_test()
        print(message)
    else:
        ok, messages = check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
        print("\n".join(messages))
    sys.exit(0 if ok else 1)
