#!/usr/bin/env python3
"""The kernel must run on a 386: no instruction a 386 lacks, except behind a check.

Disassembles build/apmoff.elf with objdump: the 32-bit code (.text) as i386, and the
real-mode trampoline that the kernel carries as data (trampoline_blob, built from
realmode/trampoline.asm) as i8086. Any instruction from a later CPU fails the check
unless it sits in one of the functions of GUARDED, each of which the kernel only calls
after asking the CPU (EFLAGS.ID toggles, then CPUID's feature bits).

    python3 -m tests.check_insns [ELF]          PASS/FAIL line(s); exit status 0 or 1
    python3 -m tests.check_insns --self-test    the check must catch a planted instruction

From Python: check(elf_path) -> (ok, messages).
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ELF = os.path.join(ROOT, "build", "apmoff.elf")

# The only places allowed a newer instruction: function -> the instructions it may use.
# Keep this short; each entry names the check its callers make first.
GUARDED = {
    "cpu_cpuid": {"cpuid"},     # called only once EFLAGS.ID toggles (system/cpu.c)
    "cpu_rdtsc": {"rdtsc"},     # called only when CPUID.1:EDX.TSC is set (system/timer.c)
    "cpu_wbinvd": {"wbinvd"},   # called only when the BIOS's WBINVD/INVD trapped with #GP
                                # under v86 (a 386 raises #UD): realmode/v86.c
    # EFER.LME on and off: reached only for method=efi on x64 UEFI firmware, whose CPU
    # has long mode (system/efi_call64.asm, system/efi_rt.c)
    "efi_call64.own_gdt": {"rdmsr", "wrmsr"},
    "efi_call64.compat": {"rdmsr", "wrmsr"},
    # MXCSR as UEFI asks: x64 firmware's CPU has SSE; on ia32 the caller checked
    # CPUID.1:EDX.SSE first (app/main.c efi_off, system/efi_call32.asm)
    "efi_call64.long_mode": {"ldmxcsr"},
    "efi_call32.sse": {"ldmxcsr"},
}

# Mnemonics (as objdump spells them, AT&T syntax) by the CPU that introduced them.
NEWER = {
    "486": r"bswap|cmpxchg|xadd|invd|wbinvd|invlpg",
    "Pentium": r"cpuid|rdtsc|rdtscp|rdmsr|wrmsr|rdpmc|cmpxchg8b|rsm",
    "Pentium Pro": r"cmov\w*|fcmov\w*|f(u)?comip?|sysenter|sysexit|nop[wl]",
    "MMX/SSE": r"emms|movd|movq|movnti|prefetch\w*|[lms]fence|clflush\w*|fxsave\w*"
               r"|fxrstor\w*|ldmxcsr|stmxcsr|fisttp\w*",
    "later": r"syscall|sysret\w*|movbe|popcnt|lzcnt|tzcnt|andn|bextr|blsi|blsr|blsmsk"
             r"|[sr]dfsbase|xgetbv|xsave\w*|rdrand|rdseed",
}
NEWER_RE = [(cpu, re.compile(r"^(lock\s+)?(%s)$" % pattern)) for cpu, pattern in NEWER.items()]
# Any use of an MMX, SSE or AVX register, whatever the mnemonic.
VECTOR_REG = re.compile(r"%[xyz]?mm\d")

# Regions that are data although they sit in code, or code of another width:
# (first symbol, end symbol, how to disassemble; None = skip).
REGIONS = [
    ("mb1_header", "mb2_header_end", None),             # multiboot headers in .text
    ("trampoline_blob", "trampoline_blob_end", "i8086"),  # the real-mode trampoline
]

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
LABEL = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def symbols(elf):
    out = subprocess.run(["nm", elf], check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


def disassemble(elf, machine, section=None, start=None, stop=None):
    """[(address, function, mnemonic, operands)] from objdump."""
    cmd = ["objdump", "-d" if section is None else "-D", "-w", "--no-show-raw-insn",
           "-m", machine]
    if machine == "i386":
        cmd += ["-M", "i386"]
    if section:
        cmd += ["-j", section]
    if start is not None:
        cmd += ["--start-address=%#x" % start, "--stop-address=%#x" % stop]
    out = subprocess.run(cmd + [elf], check=True, capture_output=True, text=True).stdout
    function = "?"
    insns = []
    for line in out.splitlines():
        m = LABEL.match(line)
        if m:
            function = m.group(2)
            continue
        m = LINE.match(line)
        if m and m.group(2) != "...":
            mnemonic, operands = m.group(2), m.group(3)
            if mnemonic in ("lock", "rep", "repz", "repnz", "data16", "addr16") and operands:
                prefix, _, rest = operands.partition(" ")
                mnemonic, operands = mnemonic + " " + prefix, rest
            insns.append((int(m.group(1), 16), function, mnemonic, operands))
    return insns


def newer_than_386(mnemonic, operands):
    """The CPU that introduced this instruction, or None for a 386 one."""
    bare = mnemonic.split()[-1]
    for cpu, pattern in NEWER_RE:
        if pattern.match(bare):
            return cpu
    if VECTOR_REG.search(operands):
        return "MMX/SSE"
    return None


def section_of(elf, address):
    out = subprocess.run(["readelf", "-SW", elf], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)",
                     line)
        if m:
            base, size = int(m.group(2), 16), int(m.group(3), 16)
            if base <= address < base + size:
                return m.group(1)
    return None


def strict_default():
    """In CI (CI set, scripts/deps.sh has installed everything) a part that could not
    be checked is a failure, not a note."""
    return bool(os.environ.get("CI"))


def check(elf_path=DEFAULT_ELF, strict=None):
    """(ok, messages): ok is False when an unguarded post-386 instruction is found,
    and, when strict (default: in CI), when part of the kernel could not be checked
    (a region's symbols missing) or an allow-list entry matched nothing."""
    if strict is None:
        strict = strict_default()
    if not os.path.exists(elf_path):
        return False, ["FAIL insns: %s does not exist (run make)" % elf_path]
    syms = symbols(elf_path)
    skip = []                       # address ranges the 32-bit pass must not judge
    passes = [("i386", disassemble(elf_path, "i386"))]
    notes = []
    for first, end, machine in REGIONS:
        if first not in syms or end not in syms:
            notes.append("note: %s..%s not in the ELF; not checked" % (first, end))
            continue
        lo, hi = syms[first], syms[end]
        skip.append((lo, hi))
        if machine:
            insns = disassemble(elf_path, machine, section_of(elf_path, lo), lo, hi)
            passes.append((machine, [(a, first, m, o) for a, _, m, o in insns]))

    bad, used, counts = [], set(), {}
    for machine, insns in passes:
        n = 0
        for address, function, mnemonic, operands in insns:
            if machine == "i386" and any(lo <= address < hi for lo, hi in skip):
                continue
            n += 1
            cpu = newer_than_386(mnemonic, operands)
            if not cpu:
                continue
            bare = mnemonic.split()[-1]
            if bare in GUARDED.get(function, ()):
                used.add((function, bare))
                continue
            bad.append("    %08x <%s>: %s %s  (%s)" % (address, function, mnemonic,
                                                      operands.strip(), cpu))
        counts[machine] = n
    for function, allowed in sorted(GUARDED.items()):
        for insn in sorted(allowed):
            if (function, insn) not in used:
                notes.append("note: guarded %s in %s not found (stale allow-list entry?)"
                             % (insn, function))
    what = ", ".join("%d %s" % (n, "32-bit" if m == "i386" else "16-bit (trampoline)")
                     for m, n in counts.items())
    name = os.path.relpath(elf_path, ROOT) if elf_path.startswith(ROOT) else elf_path
    if bad:
        return False, ["FAIL insns: %s: %d instruction(s) a 386 lacks outside the guarded "
                       "functions (%s)" % (name, len(bad), ", ".join(sorted(GUARDED)))]\
            + bad + notes
    if strict and notes:
        return False, ["FAIL insns: %s: %d part(s) could not be checked (CI is set: a "
                       "check that cannot run fails)" % (name, len(notes))] + notes
    guarded = ", ".join("%s in %s" % (i, f) for f, i in sorted(used)) or "none"
    return True, ["PASS insns: %s: %s instructions, all 386 ones except the guarded %s"
                  % (name, what, guarded)] + notes


# --- self-test: a planted instruction of each kind must be caught -----------------

PLANTED = """
        bits 32
        section .text
        global _start, cpu_cpuid, sneaky
_start: mov eax, 1
        ret
cpu_cpuid:
        cpuid                   ; allowed here
        ret
sneaky: cpuid                   ; Pentium, outside the guard
        bswap eax               ; 486
        cmovz eax, ebx          ; Pentium Pro
        movd mm0, eax           ; MMX
        xorps xmm0, xmm0        ; SSE register
        ret
"""


def self_test():
    with tempfile.TemporaryDirectory() as d:
        src, obj, elf = (os.path.join(d, n) for n in ("t.asm", "t.o", "t.elf"))
        with open(src, "w") as f:
            f.write(PLANTED)
        subprocess.run(["nasm", "-f", "elf32", src, "-o", obj], check=True)
        subprocess.run(["ld", "-m", "elf_i386", "-o", elf, obj], check=True)
        ok, messages = check(elf, strict=False)
    caught = [m for m in messages if "<sneaky>" in m]
    good = not ok and len(caught) == 5 and not any("<cpu_cpuid>" in m for m in messages)
    print("%s insns self-test: %d of 5 planted instructions caught, the guarded one "
          "allowed" % ("PASS" if good else "FAIL", len(caught)))
    if not good:
        print("\n".join(messages))
    return good


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return 0 if self_test() else 1
    ok, messages = check(argv[1] if len(argv) > 1 else DEFAULT_ELF)
    print("\n".join(messages))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
