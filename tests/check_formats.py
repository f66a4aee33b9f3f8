#!/usr/bin/python3
"""Every format the kernel's code writes is one lib/format.c knows.

The kernel's printf (fmt_snprintf, and say() and halt() on top of it) takes %s %c %d
%u %x %X %p %% with an optional '0' flag, a width and 'l'. GCC checks the calls
against the C library's printf, which knows more: a conversion it accepts and ours
does not (a precision, `%.0u`; `%llu`, whose 64-bit argument ours reads as 32 bits) is
printed as written without taking its argument, and every argument after it lands on
the wrong conversion (`the DSDT%.0u stopped loading: (null)`). This reads every string
literal of the kernel's folders and names each '%' that is not one of ours. Inline
assembly (`%w0`, `%%fs`) and the ROM banner marks (romid.c's "100% compatible") are
not formats.

usage: check_formats.py [--self-test]     exit status 1 on a failure
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = ("boot", "lib", "system", "survey", "aml", "realmode", "apm", "app", "loader")

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
CONVERSION = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:hh|h|ll|l|z|j|t)?.")
OURS = re.compile(r"^%0?\d*l?[scduxXp%]$")
ASM = re.compile(r"\b(__asm__|asm)\s*(volatile|__volatile__)?\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//.*$")
NOT_FORMATS = {"100% compatible",                               # survey/romid.c's marks
               "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"}  # QR's alphanumeric set


def problems_in(text, where):
    out = []
    in_asm = False
    for number, line in enumerate(text.splitlines(), 1):
        line = COMMENT.sub("", line)        # a comment's "x.asm" starts no statement
        # An asm statement, from its keyword to the line that closes it.
        in_asm = in_asm or bool(ASM.search(line))
        if in_asm:
            in_asm = ");" not in line
            continue
        for lit in LITERAL.finditer(line):
            if lit.group(1) in NOT_FORMATS:
                continue
            for conv in CONVERSION.finditer(lit.group(1)):
                if not OURS.match(conv.group(0)):
                    out.append("%s:%d: %r in \"%s\": lib/format.c has no such conversion"
                               % (where, number, conv.group(0), lit.group(1)[:60]))
    return out


def check():
    problems, files = [], 0
    for top in KERNEL:
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.join(folder, name)
                    with open(path, errors="replace") as f:
                        problems += problems_in(f.read(), os.path.relpath(path, ROOT))
                    files += 1
    if problems:
        return False, ["FAIL formats: " + p for p in problems]
    return True, ["PASS formats: every %%-conversion in %d kernel files is one "
                  "lib/format.c knows" % files]


def self_test():
    """The checker still names what it exists to name, and passes what is ours."""
    bad = problems_in('say("the %s%.0u stopped", a, i);\nsay("%llu", x);\n'
                      '/* from x.asm */\nsay("%-8s", s);\n', "t.c")
    good = problems_in('say("%s %08X %lu %% %p %3d %c", a);\n'
                       '__asm__ volatile("movw %w0, %%fs" : : "r"(s));\n'
                       '__asm__ volatile(\n"mov %0, %%ss"\n: : "r"(s));\n', "t.c")
    ok = len(bad) == 3 and not good
    return ok, "names %.0u, %llu and %-8s; passes ours and inline assembly" if ok \
        else "bad: %r good: %r" % (bad, good)


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        ok, message = self_test()
    else:
        ok, messages = check()
        message = "\n".join(messages)
    print(message)
    sys.exit(0 if ok else 1)
