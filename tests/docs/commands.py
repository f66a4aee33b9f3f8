"""Every shell command in the pages (tests/docs/pages.py finds them) runs here, or is
listed below as not runnable here, with the reason.

RULES says, for each command (the first pattern that matches all of its text):
  Run(...)     run as written, from the top folder, with stdin from /dev/null, under
               a time limit, in a process group of its own killed when it overruns;
               it must exit with `status` and, when given, print a line matching
               `output`;
  Dry(...)     too long or too big for `make test`, so a harmless form of it is run
               instead (`make -n TARGET`, `--help`, the runner's `-l`), which proves
               the target, the program and its arguments exist;
  NotHere(...) cannot run here at all (it writes a device, it is DOS, it is `make
               test` itself): only listed, with the reason.
docs/ci.md's blocks with a `<!-- recipe: ... -->` comment are run by tests/recipes.py;
a session (`$ ` lines) is run in an empty folder and must print what the page shows.
A command no rule matches is a failure: a new command in a page needs its row here.
"""

import os
import re
import shutil
import tempfile
from dataclasses import dataclass

from tests import recipes
from tests.paths import ROOT


@dataclass
class Run:
    status: int = 0
    output: str = ""
    timeout: int = 120


@dataclass
class Dry:
    reason: str
    form: str = "make -n"           # "make -n": make's dry run; "--help"; "-l"


@dataclass
class NotHere:
    reason: str


DEVICE = "writes a whole disk, floppy or CD: never in a test"
FRAGMENT = "a fragment of the command in the block below it, which is run"
SYNOPSIS = ("a synopsis (FILE, ID are yours; collect.md's session runs each command): the "
            "program and its command are checked with --help")
EXAMPLES = ("a synopsis (IMAGE and BIOS are yours; docs/ci.md's recipes run it): the script "
            "is checked with --help")

RULES = [
    # --- what a newcomer types first -------------------------------------------------
    (r"make test", NotHere("it is the command running this check")),
    (r"apt-get install make git", NotHere("installs what runs this check; make test's "
                                           "scripts/deps.sh installs the rest")),
    (r'scripts/debian-root\.sh "make test"', NotHere(
        "make test itself again, in a Debian 13 root (an hour): how the other release "
        "is tested")),
    (r"make run", Run(output=r"^make run: powered off via rm \(APM 1\.2\) \(QEMU: SHUTDOWN "
                           r"guest-shutdown, exit status 0\)$")),
    (r'make run ARGS="action=survey wait=0"',
     Run(output=r"^make run: the guest halted: survey complete")),
    (r'make run SCREEN=vnc( ARGS="action=off")?',
     Run(output=r"^make run: the screen is at 127\.0\.0\.1:5900")),
    (r"make run SCREEN=(window|curses)", NotHere(
        "shows the PC's screen on a desktop or in this terminal: a person's to see "
        "(SCREEN=vnc, the same option, is run)")),
    (r"make( floppy| iso)?", Run(timeout=600)),
    (r"qemu-system-i386 -kernel build/apmoff\.elf -append \"action=survey wait=0 onfail=exit\" "
     r"-device isa-debug-exit,iobase=0xf4,iosize=4 -serial stdio -display none",
     Run(status=17, output=r"^apmoff: halted: survey complete")),
    # --- long runs: their make targets and arguments are checked -------------------------
    (r"(BENCH_RUNS=\d+ )?make bench(-table)?", Dry("boots 9 images again and again for "
                                                   "minutes")),
    (r"make mutate(-check)?", Dry("builds and tests the tree once per planted bug (an hour)")),
    (r"python3 -m tests\.mutate\.mutate( --check)?",
     Dry("builds and tests the tree once per planted bug (--list prints its table)",
         "--list")),
    (r"make check", Dry("its steps and cases are make test's (the group quick)")),
    (r"make real-bios-table", Dry("boots every 86Box case and rewrites a page")),
    (r"make docs", Dry("rewrites the pages; make test checks they are what it would write")),
    (r"make fuzz", Dry("runs each fuzzer for minutes (make test runs them for seconds)")),
    (r"make (collect-test|collect-screenshot)",
     Dry("twelve emulator runs and headless Chromium: make test's apmoff-collect step")),
    (r"make clean", NotHere("deletes build/, which the rest of make test uses")),
    (r"make -n TARGET", NotHere("the dry form itself, TARGET a placeholder")),
    (r"python3 -m tests\.run_all( -.*)?", Dry("runs emulator cases that make test runs "
                                              "anyway", "-l")),
    (r"tools/apmoff-collect --help", Run()),
    (r"tools/apmoff-collect --version", Run(output=r"^apmoff-collect \d")),
    (r"make dist", Dry("builds every image; make test's dist step runs it twice and once "
                       "from its tarball")),
    (r"python3 -m tests\.check_dist", NotHere("it is make test's dist step (three "
                                               "builds)")),
    (r"scripts/version\.sh( version| commit| short| epoch| label)?", Run()),
    (r"git archive", NotHere("names what make dist runs (release/dist.py), which make "
                             "test's dist step runs")),
    (r"git tag -a v[\d.]+ -m .*|git push origin main v[\d.]+",
     NotHere("tags or publishes a release: a maintainer's act")),
    (r"\(cd dist/apmoff-[\d.]+ && sha256sum -c SHA256SUMS\)", NotHere(
        "needs a dist/ folder, which make test builds in temporary folders and checks "
        "there")),
    (r"examples/(qemu-smoke|bochs-verdict)\.sh dist/.*", NotHere(
        "boots a dist/ image: the same bytes as build/'s (make test's dist step), which "
        "docs/ci.md's recipes boot")),
    (r"tools/apmoff-collect [a-z][a-z-]*( .*)?", Dry(SYNOPSIS, "--help")),
    (r"iasl -d", NotHere("a fragment: the tables to disassemble are the reader's; the "
                         "dump group's cases (tests/emu/dumpjudge.py) run it on every table "
                         "of QEMU's dump")),
    (r"tools/apmoff-sweep --help", Run()),
    (r"make help", Run(output=r"^make test +unit tests")),
    (r"examples/qemu-smoke\.sh build/apmoff\.elf action=off", Run(output=r"^poweroff$",
                                                                  timeout=150)),
    (r"examples/bochs-verdict\.sh build/apmoff-auto\.iso", Run(output=r"^poweroff$",
                                                               timeout=200)),
    (r"tools/apmoff-sweep --source \.\./86Box (--roms \.\./86box-roms|--merge)( .*)?|"
     r"tools/apmoff-sweep --dumps",
     Dry("boots machines of 86Box's table for minutes each (hours for all of them), from "
         "86Box's source and ROM set, which make test has not: make test sweeps the "
         "kit's machines (tests/sweep/test_kit.py)", "--help")),
    (r"git clone https://github\.com/86Box/(86Box|roms) \.\./(86Box|86box-roms)|"
     r"git -C \.\./86Box checkout [0-9a-f]{40}",
     NotHere("downloads 86Box's source or its ROM set (hundreds of MB), which never "
             "enter the repository or make test")),
    (r"examples/(qemu-smoke\.sh IMAGE|bochs-verdict\.sh IMAGE\.iso) .*",
     Dry(EXAMPLES, "--help")),
    (r"examples/dosbox-x-smoke\.sh \[IMAGE\]", Dry(EXAMPLES, "--help")),
    (r"examples/sweep-hosts\.sh HOSTS \[N\]", Dry(
        "a synopsis (HOSTS are yours, over ssh with GNU parallel): the script is checked "
        "with --help; the shards and the merge it runs are tests/sweep/test_sweep.py's "
        "Shards", "--help")),
    (r"examples/86box-smoke\.sh MACHINE_DIR IMAGE \[ROMS\]", Dry(EXAMPLES, "--help")),
    (r"iso/mkiso\.sh build/my\.iso build/apmoff\.elf examples/grub\.cfg", Run(timeout=300)),
    (r"iso/mkfloppy\.sh build/my-720\.img build/apmoff\.elf examples/grub\.cfg 720",
     Run(timeout=300)),
    (r"SMOKE_TIMEOUT=90 examples/qemu-smoke\.sh build/my-720\.img",
     Run(output=r"^poweroff$", timeout=150)),
    (r"split -b 700k build/apmoff-1200\.img build/APM1200\.", Run()),
    (r"split -b 340k", NotHere("a variant of the split line in the block above it, which "
                               "is run")),
    (r"iso/mk(iso|floppy)\.sh OUT.*", NotHere("a template: OUT, KERNEL and the grub.cfg "
                                              "are yours")),
    (r"APMOFF_EFI=0 iso/mkiso\.sh", NotHere(FRAGMENT)),
    # --- what writes a medium, or is not this machine's shell ----------------------------
    (r"(sudo )?dd .*of=(/dev/|\\\\).*", NotHere(DEVICE)),
    (r"xorriso -as cdrecord .*", NotHere(DEVICE)),
    (r"sudo apt-get install fdutils && sudo superformat /dev/fd0 dd|mknod /dev/\w+ b \d+ \d+"
     r"|cmp build/\S+ /dev/\w+",
     NotHere("needs a floppy drive")),
    (r"timeout -s KILL|qemu-system-i386 -M q35,smm=on", NotHere(FRAGMENT)),
]


def rule_for(command):
    for pattern, action in RULES:
        if re.fullmatch(pattern, command.text):
            return action
    return None


def clean_env():
    """The environment a user has: not make's, which make test runs us under (a
    child make would try the parent's jobserver), and unbuffered Python, so a
    session's stdout and stderr lines keep their order."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL",
                                                            "MFLAGS", "MAKEOVERRIDES")}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def dry_form(command, form):
    if form == "make -n":
        return re.sub(r"\bmake\b", "make -n", command, count=1)
    if form == "--help":
        words = command.split()
        keep = 2 if re.fullmatch(r"[a-z][a-z-]*", words[1]) else 1   # a command
        return " ".join(words[:keep] + ["--help"])
    return command + " " + form


def classify(commands):
    """([(command, action)], [command no rule matches])."""
    known, unknown = [], []
    for c in commands:
        if c.kind == "session" or (c.page == "docs/ci.md" and "recipe:" in c.marker):
            continue
        action = rule_for(c)
        (known.append((c, action)) if action else unknown.append(c))
    return known, unknown


def run_one(command, timeout):
    return recipes.run(command, ROOT, timeout, env=clean_env())


def dry_runs(known, report):
    """The dry forms, each once; report(ok, what, why)."""
    done = set()
    for c, action in known:
        if not isinstance(action, Dry):
            continue
        form = dry_form(c.text, action.form)
        if form in done:
            continue
        done.add(form)
        status, out = run_one(form, 120)
        report(status == 0, "%s: `%s` (not run as written: %s; dry: `%s`)"
               % (c.where(), c.text, action.reason, form),
               "" if status == 0 else "exit status %s: %s" % (status, last_lines(out)))


def live_runs(known, report):
    done = set()
    for c, action in known:
        if not isinstance(action, Run) or c.text in done:
            continue
        done.add(c.text)
        status, out = run_one(c.text, action.timeout)
        why = []
        if status != action.status:
            why.append("exit status %s, expected %d" % (
                "none (killed after %d s)" % action.timeout if status is None else status,
                action.status))
        if action.output and not re.search(action.output, out, re.M):
            why.append("no output line matches /%s/" % action.output)
        report(not why, "%s: `%s`" % (c.where(), c.text),
               "; ".join(why) + ("; it printed: " + last_lines(out) if why else ""))


def last_lines(out, n=3):
    return " | ".join(out.strip().splitlines()[-n:])


def sessions(commands, report):
    """Each page's `$ ` session, in an empty folder with tools/ and tests/ at hand:
    every command must print exactly the lines the page shows under it."""
    by_page = {}
    for c in commands:
        if c.kind == "session":
            by_page.setdefault(c.page, []).append(c)
    for page, session in by_page.items():
        with tempfile.TemporaryDirectory(prefix="apmoff-session-") as work:
            for name in ("tools", "tests"):
                os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
            for c in session:
                _, out = recipes.run(c.text, work, 60, env=clean_env())
                got = [l.rstrip() for l in out.rstrip("\n").splitlines()]
                want = [l.rstrip() for l in c.output]
                why = "" if got == want else "it printed %r where the page shows %r" % (
                    "\n".join(got)[:300], "\n".join(want)[:300])
                report(not why, "%s: session `$ %s`" % (c.where(), c.text), why)
            shutil.rmtree(os.path.join(work, "html"), ignore_errors=True)
