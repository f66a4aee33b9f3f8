#!/usr/bin/python3
"""Every #include and %include of the kernel points down its layers.

The kernel's folders are floors (docs/design.md): a file may include its own
folder and the floors this table lets it stand on, nothing above or beside it.

    boot/      nothing of ours
    loader/    lib/                          (the floppy loader: a program of its own)
    lib/       lib/                          (no I/O; builds on the host)
    system/    lib/
    survey/    lib/                          (pure readers of firmware tables)
    aml/       lib/                          (the AML interpreter: pure, no I/O)
    realmode/  lib/, system/
    apm/       lib/, system/, realmode/
    app/       every floor, in rooms of its own, each on the rooms before it:
      app/common/  the options, the record for the next run, the chain runner
      app/facts/   the facts, each group read when first needed   (+ common)
      app/power/, app/reset/, app/sleep/, app/dump/   the acts   (+ common, facts)
      app/show/    the survey line, its QR screen, the summary    (+ the acts)
      app/check/   action=check                                   (+ show)
      app/         main.c and its self-tests: every room

An include that cannot be resolved to a file of ours, or that names one of the
generated assembly headers, is judged by the layer that file belongs to. A low
floor that must reach up takes a callback (halt_set_epilogue is the pattern).

usage: check_layers.py [--self-test]     exit status 1 on a failure
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# folder -> the folders its files may include, besides its own.
MAY_INCLUDE = {
    "boot": set(),
    "loader": {"lib"},
    "lib": set(),
    "system": {"lib"},
    "survey": {"lib"},
    "aml": {"lib"},
    "realmode": {"lib", "system"},
    "apm": {"lib", "system", "realmode"},
    "app/common": {"lib", "system", "survey", "aml", "realmode", "apm"},
    "app/facts": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common"},
    "app/power": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                  "app/facts"},
    "app/reset": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                  "app/facts"},
    "app/sleep": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                  "app/facts"},
    "app/dump": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                 "app/facts"},
    "app/show": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                 "app/facts", "app/power", "app/reset", "app/sleep", "app/dump"},
    "app/check": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common",
                  "app/facts", "app/power", "app/reset", "app/sleep", "app/dump",
                  "app/show"},
    "app": {"lib", "system", "survey", "aml", "realmode", "apm", "app/common", "app/facts",
            "app/power", "app/reset", "app/sleep", "app/dump", "app/show", "app/check"},
}

# Headers the build generates into build/, by the layer whose source makes them.
GENERATED = {
    "loader-offsets.inc": "loader",     # loader/asm-offsets.c
    "system-offsets.inc": "system",     # system/asm-offsets.c
    "realmode-offsets.inc": "realmode", # realmode/asm-offsets.c
}

SOURCE = re.compile(r"\.(c|h|asm|inc|S)$")
INCLUDE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    """The floor (or app/'s room) a repository-relative path lies on, or None outside
    the kernel. A folder of app/ that is not a room is no floor at all."""
    parts = path.split("/")
    if parts[0] != "app":
        return parts[0] if parts[0] in MAY_INCLUDE else None
    if len(parts) == 2:
        return "app"
    room = "app/" + parts[1]
    return room if room in MAY_INCLUDE else None


def target_of(source, name, exists):
    """Where an include written in source points: a repository-relative path, or
    the layer of a generated header. NASM resolves from the repository root (-I./),
    C from the including file's folder."""
    if name in GENERATED:
        return GENERATED[name] + "/" + name
    here = os.path.normpath(os.path.join(os.path.dirname(source), name))
    if exists(here):
        return here
    if exists(os.path.normpath(name)):
        return os.path.normpath(name)
    return None


def violations(files, exists):
    """[(source, include, why)] for a {path: text} of kernel sources."""
    found = []
    for source, text in sorted(files.items()):
        floor = layer_of(source)
        for name in INCLUDE.findall(text):
            target = target_of(source, name, exists)
            if target is None:
                found.append((source, name, "does not resolve to a file of ours"))
                continue
            to = layer_of(target)
            if to is None:
                found.append((source, name, "reaches outside the kernel's floors"))
            elif to != floor and to not in MAY_INCLUDE[floor]:
                allowed = ", ".join(sorted(MAY_INCLUDE[floor])) or "nothing of ours"
                found.append((source, name, "%s/ may include only %s" % (floor, allowed)))
    return found


def kernel_sources(root=ROOT):
    files = {}
    for floor in MAY_INCLUDE:
        if "/" in floor:
            continue                    # app/'s rooms: walked with app/
        for dirpath, _, names in os.walk(os.path.join(root, floor)):
            for n in names:
                if SOURCE.search(n):
                    path = os.path.join(dirpath, n)
                    with open(path, errors="replace") as f:
                        files[os.path.relpath(path, root)] = f.read()
    return files


def check(root=ROOT):
    """(ok, messages) for the tree at root."""
    files = kernel_sources(root)
    if not files:
        return False, ["FAIL layers: no kernel sources under %s" % root]
    bad = violations(files, lambda p: os.path.isfile(os.path.join(root, p)))
    if bad:
        return False, ["FAIL layers: %s includes \"%s\": %s" % b for b in bad]
    counts = {}
    for source, text in files.items():
        for name in INCLUDE.findall(text):
            target = target_of(source, name, lambda p: os.path.isfile(os.path.join(root, p)))
            if layer_of(target) != layer_of(source):
                key = (layer_of(source), layer_of(target))
                counts[key] = counts.get(key, 0) + 1
    edges = ", ".join("%s->%s %d" % (a, b, n) for (a, b), n in sorted(counts.items()))
    return True, ["PASS layers: %d sources, every include points down (%s)"
                  % (len(files), edges)]


def self_test():
    """The checker must catch an upward, a sideways and an unresolved include, and
    pass a clean tree: proof that check() can fail."""
    tree = {
        "lib/format.c": '#include "format.h"\n',
        "lib/format.h": "",
        "system/console.c": '#include "../lib/format.h"\n',
        "system/console.h": "",
        "survey/acpi.c": '#include "../lib/format.h"\n',
        "app/main.c": '#include "../system/console.h"\n#include "../survey/acpi.c"\n',
        "app/facts/survey.c": '#include "../common/options.h"\n',
        "app/common/options.h": "",
        "app/power/acpi.c": '#include "../facts/survey.c"\n',
        "realmode/trampoline.asm": '%include "system-offsets.inc"\n%include "system/frame.inc"\n',
        "system/frame.inc": "",
    }
    exists = lambda p: p in tree                       # noqa: E731
    if violations(tree, exists):
        return False, "a clean tree was refused"
    planted = {
        "upward": ("system/console.c", '#include "../app/main.c"\n'),
        "sideways": ("survey/acpi.c", '#include "../system/console.h"\n'),
        "unresolved": ("lib/format.c", '#include "nowhere.h"\n'),
        "generated upward": ("system/console.c", '%include "realmode-offsets.inc"\n'),
        "room upward": ("app/facts/survey.c", '#include "../power/acpi.c"\n'),
        "room sideways": ("app/common/options.h", '#include "../facts/survey.c"\n'),
    }
    for what, (path, line) in planted.items():
        bad = violations(dict(tree, **{path: tree[path] + line}), exists)
        if not bad:
            return False, "a planted %s include in %s was not caught" % (what, path)
    return True, "%d planted includes caught, the clean tree passed" % len(planted)


def main():
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return 0
    if "--self-test" in sys.argv:
        ok, message = self_test()
        print("%s layers self-test: %s" % ("PASS" if ok else "FAIL", message))
        return 0 if ok else 1
    ok, messages = check()
    print("\n".join(messages))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
