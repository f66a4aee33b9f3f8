#!/usr/bin/env python3
"""make bench's half on real BIOS ROMs: apmoff's floppies against Syslinux's
poweroff.c32 on a floppy of the same format, from power-on to the verdict, on the
86Box kit's boards (tests/emu/box86.py).

    python3 -m tests.bench.bench86 [--runs N] [--json FILE]

86Box runs the guest in real time from the moment it starts (power-on). Each run
records when each COM1 line arrived and when 86Box itself reported a soft-off; the
verdict is the soft-off where the board has one, else the run's last word: apmoff's
`apmoff: halted: ...`, Syslinux's "APM not present." (or whatever poweroff.c32 last
said). The apmoff floppies are the automation images (build/apmoff-auto*.img: the
shipped menu with no countdown); Syslinux's are built here (Debian's syslinux:
ldlinux.sys, ldlinux.c32, libcom32.c32, poweroff.c32, SERIAL 0 115200, no prompt), or
named as not fitting the format. One 86Box runs at a time; the host should be idle, as
86Box slows with it.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from tests.emu import box86
from tests.emu.syslinux import SYSLINUX_MODULES
from tests.emu.watch import ANSI_ESCAPE
from tests.paths import BUILD

OUT = os.path.join(BUILD, "bench")
TIMEOUT = 120
FORMATS = {"1440": "", "1200": "-1200", "720": "-720", "360": "-360"}
# (kit machine, the format its drive A: takes, medium name of the harness)
BOARDS = [("386-award495", "1440", "floppy"), ("386-award495-720", "720", "floppy-720"),
          ("ami386-525", "1200", "floppy-1200"), ("ami386-525", "360", "floppy-360"),
          ("tx97", "1440", "floppy")]
# The drive's own rate for each board and format: sectors a track x 512 bytes x turns a
# second (a 5.25" HD drive turns at 360 rpm, a 360 KB disk in it too; the rest at 300).
SECTORS_A_TRACK = {"1440": 18, "1200": 15, "720": 9, "360": 9}
RPM_360 = {"ami386-525"}
# The loader's own line on how long the kernel file took to read (loader/main.c).
LOADER_READ = re.compile(r"^apmoff loader: \S+: (\d+) bytes in (\d+\.\d) s ")
READ_TARGET = 1.2       # the loader reads within 1.2x of the drive's own rate
SYSLINUX_CFG = "SERIAL 0 115200\nDEFAULT off\nPROMPT 0\nTIMEOUT 0\nLABEL off\n  COM32 poweroff.c32\n"
# The lines that end a run when the board cannot cut the power.
TIMING = re.compile(r"^apmoff: timing: entry to power-off call (\d+) us")
LAST_WORD = re.compile(r"^(apmoff: halted: .*|APM not present\..*|.*power off.*failed.*)$",
                       re.M | re.I)


def syslinux_floppy(fmt):
    """(image, None) or (None, why it does not fit)."""
    out = os.path.join(OUT, "syslinux-%s.img" % fmt)
    if os.path.exists(out):
        return out, None
    os.makedirs(OUT, exist_ok=True)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "s.img")
        subprocess.run(["mformat", "-C", "-f", fmt, "-i", img, "::"], check=True, env=env)
        subprocess.run(["syslinux", "--install", img], check=True, env=env)
        cfg = os.path.join(tmp, "syslinux.cfg")
        with open(cfg, "w") as f:
            f.write(SYSLINUX_CFG)
        for src in [os.path.join(SYSLINUX_MODULES, m + ".c32")
                    for m in ("libcom32", "poweroff")] + [cfg]:
            proc = subprocess.run(["mcopy", "-i", img, src, "::/"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if proc.returncode:
                return None, "does not fit the %s KB format (%s)" % (
                    fmt, proc.stdout.decode(errors="replace").strip().splitlines()[-1])
        shutil.move(img, out)
    return out, None


def one_run(machine, medium, image):
    """{"first": s, "verdict": s, "how": what ended it, "lines": [(s, line)]}."""
    with tempfile.TemporaryDirectory(prefix="apmoff-bench86-") as work:
        com1 = os.path.join(work, "com1.txt")
        proc, err_path, start = box86.spawn(machine, image, medium, work, com1)
        lines, seen, first, verdict, how = [], b"", None, None, "timeout"
        try:
            while time.monotonic() - start < TIMEOUT:
                time.sleep(0.05)
                now = time.monotonic() - start
                with open(com1, "rb") as f:
                    data = f.read()
                if data and first is None:
                    first = now
                for raw in data[len(seen):].split(b"\n")[:-1]:
                    text = ANSI_ESCAPE.sub("", raw.decode("latin-1")).strip("\r ")
                    if text:
                        lines.append((round(now, 2), text))
                seen = data[:data.rfind(b"\n") + 1] if b"\n" in data else seen
                with open(err_path, "rb") as f:
                    if b"BENCH86: soft-off" in f.read():
                        verdict, how = now, "86Box soft-off"
                        break
                if lines and LAST_WORD.match(lines[-1][1]):
                    verdict, how = lines[-1][0], lines[-1][1]
                    break
                if proc.poll() is not None:
                    how = "86Box exited %d" % proc.returncode
                    break
        finally:
            box86.stop(proc)
    return {"first": first, "verdict": verdict, "how": how, "lines": lines}


def run_boards(runs):
    """Every board and format, apmoff's floppy and Syslinux's, runs times each; the
    rows, or None when there is no 86Box kit here."""
    missing = box86.missing("386-award495")
    if missing:
        print("bench86: skipped: %s" % missing)
        return None
    rows = []
    for machine, fmt, medium in BOARDS:
        apmoff = os.path.join(BUILD, "apmoff-auto%s.img" % FORMATS[fmt])
        syslinux, why = syslinux_floppy(fmt)
        for name, image in (("apmoff", apmoff), ("Syslinux", syslinux)):
            row = {"machine": machine, "format": fmt, "loader": name, "runs": []}
            if image is None:
                row["skipped"] = why
                print("bench86: %-18s %-5s %-9s %s" % (machine, fmt, name, why), flush=True)
            for _ in range(runs if image else 0):
                run = one_run(machine, medium, image)
                row["runs"].append(run)
                print("bench86: %-18s %-5s %-9s first line %s, verdict %s (%s)" % (
                    machine, fmt, name, secs(run["first"]), secs(run["verdict"]),
                    run["how"][:60]), flush=True)
            rows.append(row)
    return rows


def pairs(rows):
    """(machine, format, apmoff's row, Syslinux's row) for each board and format."""
    for i in range(0, len(rows), 2):
        yield rows[i]["machine"], rows[i]["format"], rows[i], rows[i + 1]


def off_call_us(row):
    """The kernel's own time from entry to the APM off call, where it made one."""
    found = [int(m.group(1)) for run in row["runs"] for _, line in run["lines"]
             for m in [TIMING.match(line)] if m]
    return statistics.median(found) if found else None


def drive_rate(machine, fmt):
    """Bytes a second the drive passes under its heads for this format."""
    return SECTORS_A_TRACK[fmt] * 512 * (360 if machine in RPM_360 else 300) / 60


def loader_read(row):
    """(bytes, seconds) of the kernel file as the loader says it read it, the median
    run's; None when it did not say."""
    found = sorted((float(m.group(2)), int(m.group(1))) for run in row["runs"]
                   for _, line in run["lines"] for m in [LOADER_READ.match(line)] if m)
    if not found:
        return None
    secs_, size = found[len(found) // 2]
    return size, secs_


def read_rate(machine, fmt, row):
    """The loader's read of the kernel file against the drive's own rate, as
    "3.1 s, 40.6 KiB/s (1.11x)" or "-"; and the ratio (None when not said)."""
    said = loader_read(row)
    if not said or not said[1]:
        return "-", None
    size, secs_ = said
    ratio = drive_rate(machine, fmt) / (size / secs_)
    return "%.1f s, %.1f KiB/s (%.2fx)" % (secs_, size / secs_ / 1024, ratio), ratio


def targets(rows):
    found = []
    for machine, fmt, ours, theirs in pairs(rows):
        text, ratio = read_rate(machine, fmt, ours)
        if ratio is not None:
            found.append((ratio <= READ_TARGET,
                          "86Box %s, %s KB floppy: the loader reads the kernel within "
                          "%.1fx of the drive's own %.1f KiB/s: %s" % (
                              machine, fmt, READ_TARGET, drive_rate(machine, fmt) / 1024,
                              text)))
        a, b = median_of(ours, "verdict"), median_of(theirs, "verdict")
        found.append((a is not None and (b is None or a <= 1.1 * b),
                      "86Box %s, %s KB floppy: power-on to verdict within 1.1x Syslinux's: "
                      "%s vs %s" % (machine, fmt, secs(a), secs(b) if b is not None else
                                    theirs.get("skipped", "failed"))))
        us = off_call_us(ours)
        if us is not None:
            found.append((us <= 1000000, "86Box %s: entry to the APM off call within 1 s: "
                          "%.0f ms" % (machine, us / 1000)))
    return found


def page_rows(rows):
    """docs/testing.md's rows for the 86Box boards (tests/bench/bench.py writes them)."""
    out = ["86Box (real BIOS ROMs, the kit of ../shared/86box), from power-on, by when "
           "COM1's lines arrived; %d run%s each:" % (len(rows[0]["runs"]) or 1,
                                                    "" if len(rows[0]["runs"]) == 1 else "s"),
           "", "| board | floppy | apmoff: first line | apmoff: verdict | Syslinux "
           "poweroff.c32: verdict | ratio | kernel's entry to off call | loader: kernel "
           "file read (vs the drive's rate) |",
           "|---|---|---|---|---|---|---|---|"]
    for machine, fmt, ours, theirs in pairs(rows):
        a, b = median_of(ours, "verdict"), median_of(theirs, "verdict")
        us = off_call_us(ours)
        out.append("| %s | %s KB | %s | %s (%s) | %s | %s | %s | %s |" % (
            machine, fmt, secs(median_of(ours, "first")), secs(a),
            ours["runs"][0]["how"] if ours["runs"] else "-",
            secs(b) if b is not None else theirs.get("skipped", "failed"),
            "%.2fx" % (a / b) if a and b else "-",
            "%.0f ms" % (us / 1000) if us is not None else "no APM",
            read_rate(machine, fmt, ours)[0]))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tests.bench.bench86",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH86_RUNS", 1)))
    ap.add_argument("--json", default=os.path.join(OUT, "results86.json"))
    args = ap.parse_args(argv)
    rows = run_boards(args.runs)
    if rows is None:
        return 0
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)
    print("\n".join(page_rows(rows)))
    for ok, text in targets(rows):
        print("%s target: %s" % ("PASS" if ok else "MISS", text))
    print("bench86: results in %s" % args.json)
    return 0


def median_of(row, key):
    values = [r[key] for r in row.get("runs", []) if r.get(key) is not None]
    return statistics.median(values) if values else None


def secs(value):
    return "%.1f s" % value if value is not None else "-"


if __name__ == "__main__":
    sys.exit(main())
