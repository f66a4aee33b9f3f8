"""--flags-patch DIR: the sweep's findings as 86Box's developers take them, patches
against src/machine/machine_table.c that add or remove MACHINE_APM and MACHINE_ACPI,
one a socket (as their pull requests go), each change with its evidence in the
commit message, and a CSV of the same, a machine a row.

Only what the evidence shows:
- MACHINE_APM is added where the BIOS answered 5300h with an APM BIOS ("PM", a
  version), and MACHINE_ACPI where the kernel found an RSDP whose tables it read.
- A flag is removed only where the machine's own ROM is shown to lack it: an answer of
  86h to 5300h from a BIOS whose setup has power management off is no evidence
  against MACHINE_APM (the setup pass, Result.setup, says which); until a run with
  power management on in setup answers 86h too, such a board stays as it is, and the
  CSV says why.

Each patch is made against the file as the sweep read it, so each applies alone
(`git apply --check`) at the swept commit.
"""

import csv
import difflib
import os
import re
from dataclasses import dataclass

FLAGS = {"APM": "MACHINE_APM", "ACPI": "MACHINE_ACPI"}
TABLE_FILE = "src/machine/machine_table.c"
FLAGS_LINE = re.compile(r"^(\s*\.flags\s*=\s*)([^,;]*?)(\s*,\s*(?://.*)?)$")


@dataclass
class Change:
    machine: str
    flag: str               # "APM", "ACPI"
    add: bool
    evidence: str


def apm_evidence(r):
    s = r.survey or {}
    apm = s.get("apm") if isinstance(s.get("apm"), dict) else {}
    if apm.get("present") is True:
        parts = ["5300h: APM %s, flags %s" % (apm.get("version", "?"), apm.get("flags", "?"))]
        if r.verdict and r.verdict.outcome:
            parts.append("the run: %s" % r.verdict.outcome)
        return "; ".join(parts)
    if r.apm_seen and r.apm_seen.present:
        return "5300h: APM %s (the kernel's lines)" % (r.apm_seen.version or "?")
    return ""


def acpi_evidence(r):
    s = r.survey or {}
    acpi = s.get("acpi") if isinstance(s.get("acpi"), dict) else {}
    if acpi.get("found") is not True:
        return ""
    parts = ["RSDP revision %s, OEM %s" % (acpi.get("revision", "?"), acpi.get("oem", "?"))]
    s5 = acpi.get("s5")
    if isinstance(s5, dict):
        parts.append("\\_S5_ %s/%s" % (s5.get("slp_typa", "?"), s5.get("slp_typb", "?")))
    for m in r.methods or []:
        if m.method == "acpi" and m.verdict:
            parts.append("method=acpi: %s" % m.verdict.emulator)
    return "; ".join(parts)


def decide(r, machine):
    """([Change], [(flag, why not)]) for one machine's result."""
    changes, kept = [], []
    if not (r.verdict and r.verdict.reached_kernel):
        return changes, [("APM", "the kernel did not run"), ("ACPI", "the kernel did not run")]
    for flag, evidence in (("APM", apm_evidence(r)), ("ACPI", acpi_evidence(r))):
        has = machine.has_flag(flag)
        if evidence and not has:
            changes.append(Change(r.machine, flag, True, evidence))
        elif evidence:
            kept.append((flag, "agrees: " + evidence))
        elif not evidence and has:
            kept.append((flag, "not found with the setup's defaults; whether the ROM has "
                         "it is not known (power management may be off in setup)"))
    return changes, kept


def patched_line(line, adds, removes):
    m = FLAGS_LINE.match(line)
    if not m:
        return None
    names = [n.strip() for n in m.group(2).split("|") if n.strip() and n.strip() != "0"]
    names = [n for n in names if n not in removes] + [n for n in adds if n not in names]
    return "%s%s%s" % (m.group(1), " | ".join(names) or "0", m.group(3))


def flags_line_of(lines, machine):
    """The index of the .flags line of the machine's entry (its .internal_name line,
    machine.line, 1-based, opens the search), or None."""
    start = machine.line - 1 if machine.line else 0
    want = '"%s"' % machine.internal
    for i in range(start, len(lines)):
        if ".internal_name" in lines[i] and want in lines[i]:
            for j in range(i, min(i + 80, len(lines))):
                if re.match(r"^\s*\.flags\s*=", lines[j]):
                    return j
                if j > i and ".internal_name" in lines[j]:
                    return None
            return None
    return None


def socket_of(machine):
    return (machine.packages[0] if machine.packages else machine.type).replace(
        "CPU_PKG_", "").replace("MACHINE_TYPE_", "")


def write(results, table, text, outdir, commit=""):
    """Writes NNNN-SOCKET.patch files and flags.csv into outdir; returns
    [(patch path, machines changed)]."""
    os.makedirs(outdir, exist_ok=True)
    lines = text.splitlines(keepends=True)
    by_socket, rows = {}, []
    for r in sorted(results, key=lambda r: r.machine):
        machine = table.get(r.machine)
        if machine is None:
            continue
        changes, kept = decide(r, machine)
        at = flags_line_of(lines, machine) if changes else None
        for c in changes:
            rows.append([r.machine, machine.board, socket_of(machine), FLAGS[c.flag],
                         "add" if c.add else "remove",
                         c.evidence if at is not None else
                         c.evidence + " (not patched: no one-line .flags in its entry)"])
        for flag, why in kept:
            rows.append([r.machine, machine.board, socket_of(machine), FLAGS[flag],
                         "agrees" if why.startswith("agrees: ") else "keep",
                         why[len("agrees: "):] if why.startswith("agrees: ") else why])
        if changes and at is not None:
            by_socket.setdefault(socket_of(machine), []).append((machine, changes, at))
    written = []
    for n, socket in enumerate(sorted(by_socket), 1):
        new = list(lines)
        body = []
        for machine, changes, at in by_socket[socket]:
            adds = [FLAGS[c.flag] for c in changes if c.add]
            removes = [FLAGS[c.flag] for c in changes if not c.add]
            line = patched_line(new[at].rstrip("\n"), adds, removes)
            new[at] = line + "\n"
            body.append("%s (%s):" % (machine.internal, machine.board))
            body += ["  %s %s: %s" % ("add" if c.add else "remove", FLAGS[c.flag],
                                      c.evidence) for c in changes]
        diff = difflib.unified_diff(lines, new, "a/" + TABLE_FILE, "b/" + TABLE_FILE)
        count = len(by_socket[socket])
        subject = "Machine table: %s: %s on %d board%s" % (
            socket, ", ".join(sorted({"+" + FLAGS[c.flag] if c.add else "-" + FLAGS[c.flag]
                                      for _, cs, _ in by_socket[socket] for c in cs})),
            count, "" if count == 1 else "s")
        path = os.path.join(outdir, "%04d-%s.patch" % (n, socket.lower()))
        with open(path, "w") as f:
            f.write("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
                    "From: apmoff-sweep <apmoff-sweep@invalid>\n"
                    "Subject: [PATCH] %s\n\n"
                    "What each BIOS answered when apmoff booted on it (tools/apmoff-sweep%s):\n\n"
                    "%s\n---\n" % (subject, ", 86Box " + commit[:12] if commit else "",
                                   "\n".join(body)))
            f.write("diff --git a/%s b/%s\n" % (TABLE_FILE, TABLE_FILE))
            f.writelines(diff)
        written.append((path, [m.internal for m, _, _ in by_socket[socket]]))
    with open(os.path.join(outdir, "flags.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["machine", "board", "socket", "flag", "change", "evidence"])
        w.writerows(rows)
    return written
