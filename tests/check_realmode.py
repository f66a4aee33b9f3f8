#!/usr/bin/python3
"""Checks on the mode switches that no emulator shows.

- Every write to CR0 in the real-mode trampoline (build/trampoline.bin) is followed
  at once by a far jump: Intel's sequence for switching into and out of protected
  mode (SDM vol. 3, 9.9), which a 386 or 486 with a prefetched instruction needs.
- The GDT is 16-byte aligned (Intel's recommendation for the descriptor tables).
- Interrupts are off at every CR0 write, on every path through the trampoline's code:
  after an INT, a far call into the BIOS, a POPF, an IRET or an STI a CLI must come
  before the write. While the IVT is still the IDT, an IRQ right
  after CR0.PE is set triple-faults; IBM-lineage BIOSes come back from INT 15h
  AX=2401h (A20 on) with interrupts enabled.

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


def disassembly(trampoline):
    """{offset: (mnemonic, operands, next offset)} from objdump's 16-bit view."""
    out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi8086", trampoline],
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    rows = []
    for off, text in re.findall(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$", out, re.M):
        mnemonic, _, operands = text.strip().partition(" ")
        rows.append((int(off, 16), mnemonic, operands.strip()))
    return {off: (m, ops, rows[i + 1][0] if i + 1 < len(rows) else None)
            for i, (off, m, ops) in enumerate(rows)}


def th_size(build):
    with open(os.path.join(build, "realmode-offsets.inc")) as f:
        return int(re.search(r"^TH_SIZE equ (\d+)", f.read(), re.M).group(1))


# What leaves IF as the BIOS or the stack had it: "on" until a CLI.
IF_MAYBE_ON = re.compile(r"^(sti|popfl?|iretl?|int|into|int3|lcall\w*)$")


def interrupts_at_cr0(insns, entry):
    """[(offset, path)] of CR0 writes reachable with IF possibly on, from entry (IF
    off there, as the contract says). Near calls are followed into the callee, whose
    returns give back the state at its RET."""
    summaries, bad = {}, []

    def run(start, state):
        """The IF states at the RETs reached from start (empty: none returns)."""
        seen, work, returns = set(), [(start, state)], set()
        while work:
            off, s = work.pop()
            while off is not None and (off, s) not in seen and off in insns:
                seen.add((off, s))
                m, ops, nxt = insns[off]
                target = re.match(r"^0x([0-9a-f]+)$", ops)
                if m == "cli":
                    s = "off"
                elif IF_MAYBE_ON.match(m):
                    s = "on"
                if m == "mov" and ops.endswith(",%cr0") and s != "off":
                    bad.append(off)
                if m in ("ret", "retl", "retw"):
                    returns.add(s)
                    break
                if m in ("hlt",) or m.startswith("ljmpl") or m == "ljmp" and "*" in ops:
                    break
                if m == "ljmp":                         # ljmp $seg,$off: same code
                    off = int(ops.split(",$")[1], 16)
                    continue
                if m == "call" and target:
                    key = (int(target.group(1), 16), s)
                    if key not in summaries:
                        summaries[key] = set()          # no recursion in the trampoline
                        summaries[key] = run(*key)
                    for r in sorted(summaries[key])[1:]:
                        work.append((nxt, r))
                    if not summaries[key]:
                        break
                    s = sorted(summaries[key])[0]
                    off = nxt
                    continue
                if m == "jmp" and target:
                    off = int(target.group(1), 16)
                    continue
                if (m.startswith("j") or m.startswith("loop")) and target:
                    work.append((int(target.group(1), 16), s))
                off = nxt
        return returns

    run(entry, "off")
    return sorted(set(bad))


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
    insns = disassembly(os.path.join(build, "trampoline.bin"))
    late = interrupts_at_cr0(insns, th_size(build))
    ok &= not late
    for off in late:
        messages.append("FAIL trampoline: CR0 write at %xh can run with interrupts on: an "
                        "INT, POPF or far call before it on some path has no CLI after it"
                        % off)
    if not late:
        messages.append("PASS trampoline: interrupts off at every CR0 write, on every path")
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
