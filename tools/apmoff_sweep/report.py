"""The sweep's tables: one Markdown table of every machine (docs/86box.md's block),
the counts the issue's closing note asks for, and the host/south bridges the survey's
chipset table lacks.

The survey columns (BIOS vendor and date, APM version and flags, the interfaces
offered, the chipset and its soft-off verdict) are computed by apmoff-collect's own
code (tools/apmoff_collect/derived.py: derived(), bios_vendor(), offered()), so this
table, the collector's HTML and its CSV say the same of one survey. The CPU is the one
the kernel saw, or, where the kernel did not run, the one 86Box wrote back in its
config, in parentheses: never the one the sweep asked for.
"""

import re
import statistics

from tools.apmoff_collect import derived
from tools.apmoff_collect import version as apmoff_version

from . import chipsets, judge
from .resultfile import CpuSeen, Verdict

BEGIN = "<!-- sweep-table: written by tools/apmoff-sweep; do not edit -->"
END = "<!-- end sweep-table -->"

COLUMNS = ["Machine", "Board", "CPU", "Chipset", "BIOS", "APM", "Interfaces", "5307h",
           "ACPI S5", "Soft-off", "86Box", "Result", "method=acpi", "method=chipset",
           "ROM dump", "Disagreement"]
# The methods a sweep asks alone after the machine's own run (sweep.methods_to_ask).
ASKED = ("acpi", "chipset")


def cell(text):
    """Markdown table cell text: no newline, no bare | (GitHub's tables split at one
    even inside a code span)."""
    text = " ".join("".join(c for c in str(text) if c >= " " and c != "\x7f").split())
    return text.replace("|", "\\|") or " "


def s5_text(survey):
    acpi = survey.get("acpi") if isinstance(survey.get("acpi"), dict) else None
    if not acpi:
        return ""
    if acpi.get("found") is not True:
        return "no ACPI"
    s5 = acpi.get("s5")
    aml = acpi.get("aml") if isinstance(acpi.get("aml"), dict) else {}
    pts = aml.get("pts")
    pts_text = "" if pts is None else ", `\\_PTS` %s" % pts
    if isinstance(s5, dict):
        return "`\\_S5_` %s/%s%s" % (s5.get("slp_typa", "?"), s5.get("slp_typb", "?"),
                                     pts_text)
    return "%s%s" % ("`%s`" % s5 if s5 else "no `\\_S5_`", pts_text)


def apm_text(survey, seen=None):
    apm = survey.get("apm") if isinstance(survey.get("apm"), dict) else None
    if apm is None:
        # No survey was read: the kernel's own line, said to be that.
        if not seen:
            return ""
        return "%s (no survey)" % seen.version if seen.present else "none (no survey)"
    if apm.get("present") is not True:
        return "none"
    flags = derived.scalar(apm.get("flags", ""))
    return "%s (%s)" % (derived.scalar(apm.get("version", "?")), flags) if flags else \
        derived.scalar(apm.get("version", "?"))


INTERFACE_ORDER = ("rm", "pm32", "pm16", "acpi", "efi")     # the kernel's order


def interfaces_text(results):
    order = sorted(results, key=lambda k: (INTERFACE_ORDER.index(k)
                                           if k in INTERFACE_ORDER else 9, k))
    return "; ".join("%s: %s" % (k, short_5307(results[k])) for k in order)


def short_5307(text):
    text = re.sub(r"^5307h ", "", text)
    text = text.replace("returned success but the machine is still on", "ok, still on")
    return text


def result_text(r):
    v = r.verdict or Verdict(reason_kind="?")
    if v.reached_kernel:
        return v.outcome
    return "%s: %s" % (v.reason_kind, v.reason)


def bios_text(survey):
    if not survey:
        return ""
    return ("%s %s" % (derived.bios_vendor(survey), derived.bios_date(survey))).strip()


def cpu_text(r, survey):
    """The CPU as apmoff saw it; else 86Box's, in parentheses; else nothing."""
    cpu = r.cpu or CpuSeen()
    seen = cpu.apmoff or judge.cpu_seen(survey)
    if seen:
        return seen
    return "(%s)" % cpu.box86.name if cpu.box86 and cpu.box86.name else ""


def method_text(r, method):
    """The boot that asked method alone: "off", "on: <outcome>", or "" (not asked)."""
    for m in r.methods:
        if m.method == method:
            return sweep_method_text(m.verdict)
    return ""


def sweep_method_text(v):
    if v is None:
        return ""
    if v.reached_kernel and v.emulator == "poweroff":
        return "off"
    if v.reached_kernel:
        return "%s: %s" % ("on" if v.emulator in ("on", "timeout") else v.emulator,
                           v.outcome)
    return "not reached: %s" % v.reason


def dump_text(r):
    """The "ROM dump" cell: "= file" (the flash, or the F-segment where no flash was
    probed, is the ROM set's file byte for byte), "= file but 1C000h-1DFFFh" (4 KiB
    pieces the BIOS wrote: its ESCD and DMI blocks, shadow RAM; less than an eighth of
    the bytes), "differs in N of M bytes" (more: an F-segment the BIOS decompressed
    itself into, another file than the set's), "spoilt: ..." for
    blocks whose lines did not all come, or why nothing was compared; "" without a
    dump boot."""
    d = r.dump
    if d is None:
        return ""
    if d.rom_equal is None:
        return "%s (86Box: %s)" % (d.rom, d.emulator)
    where = "flash" if d.rom.startswith("the flash") else "F-segment"
    if d.rom_equal:
        text = "= file (%s)" % where
    elif d.rom_differing * 8 < d.rom_compared:
        text = "= file but %s (%s)" % (", ".join(d.rom_ranges), where)
    else:
        text = "differs in %d of %d bytes (%s)" % (d.rom_differing, d.rom_compared, where)
    return text + ("; spoilt: %s" % ", ".join(d.bad) if d.bad else "")


def row(r):
    survey = r.survey or {}
    d = derived.derived(survey, None) if survey else {}
    chipset = d.get("chipset") or ""
    verdict = r.verdict or Verdict()
    return [cell("`%s`" % r.machine), cell(r.board), cell(cpu_text(r, survey)),
            cell(chipset or "(%s)" % r.chipset86),
            cell(bios_text(survey)), cell(apm_text(survey, r.apm_seen)),
            cell(d.get("offered", "") if survey else ""),
            cell(interfaces_text(r.interfaces)),
            cell(s5_text(survey)), cell(d.get("soft_off", "")),
            cell(verdict.emulator), cell(result_text(r))] + \
        [cell(method_text(r, m)) for m in ASKED] + [cell(dump_text(r)),
                                                     cell("; ".join(r.disagreements))]


def table(results):
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in sorted(results, key=lambda r: (r.type_rank, r.machine)):
        out.append("| " + " | ".join(row(r)) + " |")
    return "\n".join(out)


def apm_present(r):
    """APM as the survey says, else as the kernel's own lines did (as apm_text)."""
    apm = (r.survey or {}).get("apm")
    if apm:
        return apm.get("present") is True
    return bool(r.apm_seen) and r.apm_seen.present is True


def counts(results):
    """The closing note's figures."""
    surveys = [r.survey or {} for r in results]
    verdicts = [r.verdict or Verdict() for r in results]
    reached = [v for v in verdicts if v.reached_kernel]
    return {
        "machines": len(results),
        "reached": len(reached),
        "apm": sum(1 for r in results if apm_present(r)),
        # A BIOS that cuts the power in POST is 86Box's soft-off too, but not apmoff's.
        "off": sum(1 for v in reached if v.emulator == "poweroff"),
        "off_in_post": sum(1 for v in verdicts
                           if not v.reached_kernel and v.emulator == "poweroff"),
        "s5": sum(1 for s in surveys
                  if isinstance((s.get("acpi") or {}).get("s5"), dict)),
        "disagree": sum(1 for r in results if r.disagreements),
        # Each method's own boot, and the machines some way of apmoff's turned off.
        "asked": {m: sum(1 for r in results for t in r.methods if t.method == m)
                  for m in ASKED},
        "off_by": {m: sum(1 for r in results if method_text(r, m) == "off")
                   for m in ASKED},
        "off_any": sum(1 for r in results
                       if (r.verdict and r.verdict.reached_kernel and
                           r.verdict.emulator == "poweroff") or
                       any(method_text(r, m) == "off" for m in ASKED)),
        "not_reached": {k: sum(1 for v in verdicts if v.reason_kind == k)
                        for k in sorted({v.reason_kind for v in verdicts} - {"", None})},
    }


# Machines a projection of the whole table's time needs: boards differ by minutes (a
# setup to leave, two boots, a POST that powers off), and one machine's time made 0.8 h
# of a sweep that took 2.9 h.
PROJECTION_MIN = 20


def timing(results, machines_total=None, jobs=2):
    """(median seconds a machine, projected hours for machines_total at `jobs` at a
    time) from the results that ran (a no-ROM machine takes none); the projection is
    None from fewer than PROJECTION_MIN machines."""
    secs = [r.seconds for r in results if r.boots]
    if not secs:
        return None, None
    median = statistics.median(secs)
    total = machines_total or len(results)
    if len(secs) < PROJECTION_MIN:
        return median, None
    return median, sum(secs) / len(secs) * total / jobs / 3600


def unknown_chipsets(results, known):
    found = chipsets.unknown(results, known)
    lines = []
    for (vendor, device), e in sorted(found.items()):
        lines.append("| %04X:%04X | %s | %s | %s |" % (
            vendor, device, e["role"], cell(", ".join(sorted(x for x in e["chipset86"] if x))),
            cell(", ".join("`%s`" % m for m in e["machines"]))))
    if not lines:
        return "Every host and south bridge met is in `survey/chipset.c`."
    return "\n".join(["Bridges met that `survey/chipset.c` lacks (its survey says "
                      "\"unknown\" there):", "",
                      "| ID | role | 86Box's chipset | machines |", "|---|---|---|---|"]
                     + lines)


def block(results, header, known):
    c = counts(results)
    median, _ = timing(results)
    nr = ", ".join("%s %d" % (k, v) for k, v in c["not_reached"].items()) or "none"
    post = (" (and %d more by the BIOS before the kernel)" % c["off_in_post"]
            if c["off_in_post"] else "")
    lines = [BEGIN, "", header, "",
             "%d machines: %d reached the kernel (not reached: %s); APM present on %d, "
             "86Box powered off %d once apmoff ran%s, ACPI `\\_S5_` on %d; %d disagree "
             "with 86Box's table. Median time a machine: %s s." % (
                 c["machines"], c["reached"], nr, c["apm"], c["off"], post, c["s5"],
                 c["disagree"], "%.0f" % median if median is not None else "-"),
             "Asked alone in a boot of their own: %s; off by some method: %d." % (
                 ", ".join("method=%s on %d, off %d" % (m, c["asked"][m], c["off_by"][m])
                           for m in ASKED), c["off_any"]),
             "", table(results), "", unknown_chipsets(results, known), "", END]
    return "\n".join(lines)


MACHINES = re.compile(r"^(\d+) machines: ", re.M)


def machines_in(block_text):
    """How many machines a sweep-table block counts, or None for a block without."""
    m = MACHINES.search(block_text)
    return int(m.group(1)) if m else None


def replace_block(page, new_block):
    """The page with its sweep-table block replaced (the markers included); ValueError
    when the page has no such block, or when its table counts more machines than the
    new one: a sweep of a few machines (a NAME on the command line, an OUT that holds
    only those) never shrinks the page's table of a whole sweep."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError("no %s ... %s block" % (BEGIN, END))
    had, has = machines_in(page[start:end]), machines_in(new_block)
    if had and has is not None and has < had:
        raise ValueError("its table counts %d machines and this sweep's results %d: not "
                         "written (a table is written from a whole sweep's OUT; this one's "
                         "table is OUT/sweep.md)" % (had, has))
    return page[:start] + new_block + page[end + len(END):]


def kernel_versions(results):
    """[(version, commit, machines)] of the apmoff kernels the surveys came from (the
    images', not this tree's), the most used first; a sweep resumed with a newer image
    has more than one. This tree's when no survey says."""
    pairs = [(r.survey.get("version"), r.survey.get("commit")) for r in results
             if isinstance(r.survey, dict) and r.survey.get("commit")]
    if not pairs:
        return [(apmoff_version.version(), apmoff_version.commit(), 0)]
    counted = sorted(set(pairs), key=lambda p: (-pairs.count(p), p[1]))
    return [(v, c, pairs.count((v, c))) for v, c in counted]


def kernels_text(kernels):
    if len(kernels) == 1:
        version, commit, _ = kernels[0]
        return "apmoff %s (`%s`)" % (version, commit)
    return "apmoff " + " and ".join("%s (`%s`) on %d" % k for k in kernels) + \
        " of the surveys"


def coverage(results, candidates):
    """How much of the table the results are: the whole, its first N (a sweep stopped
    part way: it takes the machines in the table's order), or N of them."""
    swept = {r.machine for r in results}
    n, total = len(swept), len(candidates)
    if n >= total:
        return "the whole table"
    if swept == {m.internal for m in candidates[:n]}:
        return ("the first %d of the %d machines of the 386 and later, in 86Box's "
                "table order (the sweep's): the rest are not swept yet" % (n, total))
    return "%d of the %d machines of the 386 and later" % (n, total)
