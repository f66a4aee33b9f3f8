"""Boot a case in QEMU, Bochs, 86Box or DOSBox-X and judge the run from the emulator's
side.

A case passes on what the emulator saw (a QMP SHUTDOWN event with reason
guest-shutdown, Bochs' power-off log line, QEMU's exit status from isa-debug-exit,
86Box's chipset soft-off, DOSBox-X's log of the APM off call and its exit), never on
what the guest printed it would do. The serial log is checked as well, for the lines the output contract promises. Every emulator
runs in its own process group with a wall-clock limit and is killed by that group, so
nothing is left behind.

The modules, one concern each:
    case.py     the table's schema (Case, Run, Result, Probe)
    cases.py    the table, gathered from the cases_*.py files by topic
    images.py   the image a case boots (variants of the menu, cached)
    qemu.py, bochs.py, box86.py, dosboxx.py
                one runner an emulator: (verdict, seconds, serial)
    judges.py   judge_core() and the judge objects a row may carry
    watch.py    the serial log watch and the process-group kill
This one runs a case: the runner, then the judges, then the logs of a failure.
"""

import os
import re
import shutil
import subprocess
import tempfile

from tests.emu import bochs, box86, dosboxx, qemu
from tests.emu.case import Result, Run
from tests.emu.judges import judge_core, judges_of
from tests.emu.watch import apmoff_lines

RUNNERS = {"qemu": qemu.run, "bochs": bochs.run, "86box": box86.run,
           "dosbox-x": dosboxx.run}


def unavailable(case):
    """Why this case cannot run on this machine, or "" when it can."""
    if case.emulator == "86box":
        return box86.missing(case.machine) or ""
    if case.emulator == "dosbox-x":
        return dosboxx.missing()
    return ""


def run_case(case, keep_dir=None):
    """Boots and judges one case (twice at most: see Case.retry_if)."""
    why = unavailable(case)
    if why:
        return Result(case, "skipped", False, 0.0, [], "", skipped=why)
    first = run_once(case, keep_dir)
    if first.passed or not case.retry_if or apmoff_lines(first.serial):
        return first
    hiccup = [p[len("screen: "):] for p in first.problems
              if p.startswith("screen: ") and re.search(case.retry_if, p)]
    if not hiccup:
        return first
    second = run_once(case, keep_dir)
    second.retried = hiccup[0].strip()
    return second


def run_once(case, keep_dir):
    workdir = tempfile.mkdtemp(prefix="apmoff-%s-" % case.name)
    try:
        try:
            verdict, seconds, serial = RUNNERS[case.emulator](case, workdir)
        except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
            # The emulator died under the harness (QMP's socket reset, a missing
            # image...): this case fails, saying how; the others still run.
            return Result(case, "error", False, 0.0,
                          ["the run broke off: %s: %s" % (type(e).__name__, e)], "")
        run = Run(case, workdir, verdict=verdict, serial=serial)
        problems = judge_core(run)
        for judge in judges_of(case):
            problems += judge.problems(run)
        stuck = os.path.join(workdir, qemu.STUCK_SCREEN)
        if problems and os.path.exists(stuck):
            with open(stuck) as f:
                problems += ["screen: " + l for l in f.read().splitlines() if l.strip()]
        if not problems and verdict in ("quiet", "timeout"):
            verdict = case.expect       # no emulator event, as expected: name it so
        if problems and keep_dir:
            dest = os.path.join(keep_dir, case.name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(workdir, dest,
                            ignore=shutil.ignore_patterns("*.sock"))
        return Result(case, verdict, not problems, seconds, problems, serial)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
