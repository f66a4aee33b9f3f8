"""docs/real-bioses.md's "Tested on real BIOSes" table, made from the 86Box cases' runs.

Nothing in the table's outcome columns is typed by hand: each cell is read from a
run's serial log (the APM version line, "powering off via X", "power-off via X
failed: REASON") and from 86Box's own verdict (its soft-off). The hardware columns
come from cases_86box.BOARDS. `make real-bios-table` runs the 86Box cases and
rewrites the table; `make test` fails when the table there differs from what the runs
it just made would write, so the table cannot go stale.
"""

import json
import os
import re

from tests.docs import blocks
from tests.emu import cases_86box
from tests.paths import ROOT

# The page that holds the table, and its block there (tests/docs/blocks.py).
TABLE_PAGE = os.path.join(ROOT, "docs", "real-bioses.md")
BLOCK = "real-bios-table"

IFACES = ("rm", "pm32", "pm16", "v86")
MEDIA = {"floppy": "floppy", "iso": "CD (El Torito)",
         "hdd": "the ISO on an IDE disk", "floppy-1200": "floppy, 1.2 MB 5.25\"",
         "floppy-720": "floppy, 720 KB 3.5\"", "floppy-360": "floppy, 360 KB 5.25\""}
VENDORS = {"ami": "AMI"}               # as the BIOS spells itself; others capitalized


def outcomes(serial, verdict):
    """{interface: what happened} for one run; "v86" is rm through the monitor."""
    found = {}
    lines = [l for l in serial.splitlines() if l.startswith("apmoff: ")]
    for i, line in enumerate(lines):
        m = re.match(r"apmoff: powering off via (\w+) \(APM [\d.]+\)( \(v86\))?", line)
        if not m:
            continue
        iface = "v86" if m.group(2) else m.group(1)
        rest = lines[i + 1:]
        failed = next((l for l in rest if l.startswith("apmoff: power-off via %s failed: "
                                                       % m.group(1))), None)
        if failed:
            found[iface] = failed.split(" failed: ", 1)[1]
        elif verdict == "poweroff" and not rest:
            found[iface] = "**off**"
        else:
            found[iface] = "no answer (%s)" % verdict
    return found


def survey(serial):
    lines = [l for l in serial.splitlines() if l.startswith("apmoff: survey {")]
    try:
        return json.loads(lines[-1][len("apmoff: survey "):]) if lines else {}
    except ValueError:
        return {}


def rows(results):
    """Table rows, one a kit machine and medium, in the order of cases_86box.CASES."""
    table = {}
    for r in results:
        row = table.setdefault((r["machine"], r["medium"]),
                               {"medium": r["medium"], "bios": "", "apm": "", "cpu": ""})
        report = survey(r["serial"])
        date = report.get("bios", {}).get("date")
        if date:
            row["bios"] = "%s, %s" % (VENDORS.get(r["bios"], r["bios"].capitalize()), date)
        m = re.search(r"^apmoff: APM (\d\.\d) BIOS", r["serial"], re.M)
        if m:
            row["apm"] = m.group(1)
        elif re.search(r"^apmoff: no APM BIOS", r["serial"], re.M):
            row["apm"] = "none"
        cpu = report.get("cpu", {})
        if cpu.get("vendor"):
            row["cpu"] = "CPUID %s %s.%s.%s" % (cpu["vendor"], cpu.get("family"),
                                              cpu.get("model"), cpu.get("stepping"))
        elif cpu.get("class"):
            row["cpu"] = "%s class, no CPUID" % cpu["class"]
        row.update(outcomes(r["serial"], r["verdict"]))
        row["rom"] = (cases_86box.BOARDS[r["machine"]], r["bios"])
    # A run that only powers off (the CD's default entry) prints no survey; the same
    # board, ROM and CPU says in another run what the BIOS and the CPU are.
    for row in table.values():
        for other in table.values():
            if other["rom"] == row["rom"]:
                row["bios"] = row["bios"] or other["bios"]
                row["cpu"] = row["cpu"] or other["cpu"]
    return table


def markdown(results):
    head = ("| board | chipset | CPU (kernel's view) | medium | BIOS | APM | rm | pm32 "
            "| pm16 | rm via v86 |\n|---|---|---|---|---|---|---|---|---|---|\n")
    lines = []
    for (machine, _), row in rows(results).items():
        board, chipset, cpu = cases_86box.BOARDS[machine]
        cells = [board, chipset, "%s: %s" % (cpu, row["cpu"]) if row["cpu"] else cpu,
                 MEDIA.get(row["medium"], row["medium"]), row["bios"] or "?",
                 row["apm"] or "?"] + [row.get(i, "-") for i in IFACES]
        lines.append("| " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n"


def stale(results):
    """"" when docs/real-bioses.md holds exactly this table, else why not."""
    why = blocks.stale(TABLE_PAGE, BLOCK, markdown(results))
    return why and why + ": make real-bios-table"


def update(results):
    if not blocks.write(TABLE_PAGE, BLOCK, markdown(results)):
        raise SystemExit("docs/real-bioses.md has no real-BIOS table markers")
