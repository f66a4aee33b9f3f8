#!/usr/bin/env python3
"""iso/grub-no-cr4.py patches exactly what it claims, and refuses anything else.

Against the GRUB modules on this machine: the patched relocator.mod differs from
Debian's in exactly the nine bytes of the CR4 read-modify-write, now NOPs; the
patch refuses an already patched module, one whose stub was changed elsewhere in the
sequence, and a file that is not ELF. Every build runs the real patch; this proves
its refusals, which a build never exercises.

    python3 -m tests.check_grub_patch [GRUB_I386_PC_DIR]     PASS/FAIL lines; exit status 0 or 1

From Python: check(dir) -> (ok, messages).
"""

import os
import sys

from tests.paths import load_program

GRUB_PC = "/usr/lib/grub/i386-pc"

patcher = load_program("grub_no_cr4", os.path.join("iso", "grub-no-cr4.py"))


def refuses(module):
    try:
        patcher.patch(module)
    except patcher.Mismatch:
        return True
    return False


def check(grub_dir=GRUB_PC):
    path = os.path.join(grub_dir, patcher.MODULE)
    if not os.path.exists(path):
        return False, ["FAIL grub-patch: %s does not exist (grub-pc-bin)" % path]
    with open(path, "rb") as f:
        original = f.read()
    problems = []
    try:
        patched, _ = patcher.patch(original)
    except patcher.Mismatch as e:
        return False, ["FAIL grub-patch: this GRUB's %s is refused: %s" % (path, e)]
    changed = [i for i in range(len(original)) if original[i] != patched[i]]
    stub = patcher.PAGING_OFF + patcher.PAE_OFF + patcher.AFTER
    at = original.find(stub) + len(patcher.PAGING_OFF)
    if changed != list(range(at, at + len(patcher.PAE_OFF))):
        problems.append("the patch changed bytes %s, not the CR4 access at %#x" % (changed, at))
    if patched[at:at + 9] != bytes([patcher.NOP]) * 9:
        problems.append("the CR4 access did not become NOPs")
    if not refuses(patched):
        problems.append("an already patched module was patched again")
    moved = bytearray(original)
    moved[at - 1] ^= 0xFF               # the paging-off instruction before it differs
    if not refuses(bytes(moved)):
        problems.append("a stub with other instructions was patched")
    if not refuses(b"\x7fELF" + bytes(60)) or not refuses(b"MZ" + bytes(100)):
        problems.append("a file without the stub was patched")
    if problems:
        return False, ["FAIL grub-patch: " + p for p in problems]
    return True, ["PASS grub-patch: the CR4 access in %s (9 bytes at %#x) and nothing else"
                  % (path, at)]


def main(argv):
    ok, messages = check(*argv[1:2])
    print("\n".join(messages))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
