#!/usr/bin/python3
"""Checks on the mode switches that no emulator shows.

- Every write to CR0 in the real-mode trampoline (build/trampoline.bin) is followed
  at once by a far jump: Intel's sequence for switching into and out of protected
  mode (SDM vol. 3, 9.9), which a 386 or 486 with a prefetched instruction needs.
- The GDT is 16-byte aligned (Intel's recommendation for the descriptor tables).

usage: python3 -m tests.check_realmode [BUILD_DIR]     (default build/); exit status 1 on a failure
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cr0_writes(trampoline):
    """(offset, instruction after) for each MOV CR0 write, from objdump's 16-bit view."""
    out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi8086", trampoline],
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    insns = re.findall(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$", out, re.M)
    return [(off, insns[i + 1][1] if i + 1 < len(insns) else "")
            for i, (off, text) in enumerate(insns) if re.match(r"mov\s+%e?\w+,%cr0", text)]


def symbol(elf, name):
    out = subprocess.run(["nm", elf], check=True, stdout=subprocess.PIPE).stdout.decode()
    m = re.search(r"^([0-9a-f]+) \w %s$" % re.escape(name), out, re.M)
    return int(m.group(1), 16) if m else None


def check(build):
    messages, ok = [], True
    writes = cr0_writes(os.path.join(build, "trampoline.bin"))
    if not writes:
        ok = False
        messages.append("FAIL trampoline: no MOV CR0 found (wrong file?)")
    for off, after in writes:
        good = after.startswith("ljmp")
        ok &= good
        messages.append("%s trampoline: CR0 write at %sh followed by %s" %
                        ("PASS" if good else "FAIL", off, after or "nothing"))
    gdt = symbol(os.path.join(build, "apmoff.elf"), "gdt")
    good = gdt is not None and gdt % 16 == 0
    ok &= good
    messages.append("%s GDT at %s: %s" % ("PASS" if good else "FAIL",
                                            "%08Xh" % gdt if gdt is not None else "?",
                                            "16-byte aligned" if good else "not 16-byte aligned"))
    return ok, messages


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    if build in ("-h", "--help"):
        print(__doc__)
        return 0
    ok, messages = check(build)
    print("\n".join(messages))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
