"""`make test`'s docs steps: what the pages say is what apmoff does.

static(tally), with the unit steps (no emulator):
  - README.md's tables against the kernel's option table and halt codes, and
    qemu-smoke.sh's names (contract.py);
  - every shell command in README.md and docs/ known to commands.py; the dry forms
    of the long ones run, the `$ ` sessions run and print what the page shows;
  - the blocks `make docs` writes from the build (sizes, free space, the menu, the
    mutants) are what it would write now (generate.py);
  - README.md stays at README_LINES lines or fewer, and its table of pages names
    every page of docs/; every link between the pages leads to a page and a heading.
live(tally, results), after the emulator cases, whose serial logs it reuses:
  - the runnable commands run (make run, README's QEMU line...), and make run on a
    pseudo-terminal keeps its promises (terminal.py);
  - every `<!-- example: CASE -->` block is what that case printed (examples.py);
  - the blocks written from runs (the panels, the check table, the QR figures).

    python3 -m tests.docs.check [--static]     PASS/FAIL lines; exit status 0 or 1
"""

import argparse
import os
import re
import sys

from tests.docs import commands, contract, examples, generate, pages, terminal
from tests.paths import ROOT
from tests.results import Tally

README_LINES = 300


def record(tally, suite):
    def report(ok, what, why=""):
        print("%s %s%s" % ("PASS" if ok else "FAIL", what, ": " + why if why else ""),
              flush=True)
        tally.add(suite, what, ok, message=why)
    return report


def readme_shape():
    text = pages.read("README.md")
    problems = []
    n = text.count("\n")
    if n > README_LINES:
        problems.append("README.md has %d lines, more than %d" % (n, README_LINES))
    table = text[text.index("| page | what |"):].split("\n\n")[0]
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)\)", table))
    for page in pages.pages()[1:]:
        if page not in linked:
            problems.append("README.md's table of pages leaves out %s" % page)
    return problems, n


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def broken_links():
    """Links between the pages (and to files of the tree) that lead nowhere: a missing
    file, or an anchor no heading of the page has."""
    problems = []
    for page in pages.pages():
        text = pages.read(page)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue                            # a URL
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) \
                if path else os.path.join(ROOT, page)
            if not os.path.exists(full):
                problems.append("%s links %s, which does not exist" % (page, target))
            elif anchor and full.endswith(".md"):
                with open(full) as f:
                    heads = {slug(h) for h in re.findall(r"^#+ (.*)$", f.read(), re.M)}
                if anchor not in heads:
                    problems.append("%s links %s: no such heading" % (page, target))
    return problems


# Where a page names the release it describes, it is the file VERSION's: the first
# line's version, the volume label, the release commands, the collector's name, the
# survey's "version". (A page naming an older release on purpose, "0.3's APMOFF2",
# says so in other words.)
CURRENT_VERSION = [
    re.compile(r"apmoff: version (\d+\.\d+):"),
    re.compile(r"`APMOFF_(\d+_\d+)`"),
    re.compile(r"git tag -a v(\d+\.\d+) "),
    re.compile(r"git push origin main v(\d+\.\d+)"),
    re.compile(r"dist/apmoff-(\d+\.\d+)"),
    re.compile(r"\bapmoff-(\d+\.\d+)(?:-auto)?\.(?:iso|img|elf)"),
    re.compile(r'"apmoff-collect (\d+\.\d+)"'),
    re.compile(r'the file `VERSION`, `"(\d+\.\d+)"`'),
]


def stale_versions():
    """Every place a page names the current release with another number."""
    with open(os.path.join(ROOT, "VERSION")) as f:
        version = f.read().strip()
    problems = []
    for page in pages.pages():
        for n, line in enumerate(pages.read(page).splitlines(), 1):
            for pattern in CURRENT_VERSION:
                for found in pattern.findall(line):
                    if found.replace("_", ".") != version:
                        problems.append("%s:%d says %s where VERSION is %s"
                                        % (page, n, found, version))
    return problems


def static(tally):
    report = record(tally, "docs")
    ok, messages = contract.check()
    print("\n".join(messages))
    tally.add("docs", "README's tables against the kernel", ok,
              message="; ".join(messages)[:500])

    problems, n = readme_shape()
    report(not problems, "README.md: %d lines, every page of docs/ in its table of pages" % n,
           "; ".join(problems))
    problems = broken_links()
    report(not problems, "the links between the pages lead to a page and a heading",
           "; ".join(problems))
    problems = stale_versions()
    report(not problems, "the pages name the release VERSION says where they name "
           "the current one", "; ".join(problems))

    commands_step(report)
    generated(report, [b for b in generate.BLOCKS if not b.cases], "the build")


def commands_step(report):
    """Every command known; the list of those not run here; the dry forms and the
    sessions run."""
    found = pages.all_commands()
    known, unknown = commands.classify(found)
    for c in unknown:
        report(False, "%s: `%s`" % (c.where(), c.text),
               "a command no row of tests/docs/commands.py knows: run it, or say why not")
    places = {}
    for c, action in known:
        if isinstance(action, commands.NotHere):
            places.setdefault((c.text, action.reason), []).append(c.where())
    for (text, reason), where in places.items():
        print("NOT RUN `%s` (%s): %s" % (text, ", ".join(where), reason))
    print("docs: %d commands in the pages: %d run, %d dry-run, %d not runnable here, "
          "%d in sessions, %d recipes (tests/recipes.py)" % (
              len(found), count(known, commands.Run), count(known, commands.Dry),
              count(known, commands.NotHere),
              sum(1 for c in found if c.kind == "session"),
              sum(1 for c in found if "recipe:" in c.marker)))
    commands.dry_runs(known, report)
    commands.sessions(found, report)


def generated(report, block_list, source, results=()):
    problems = generate.problems(block_list, results)
    for why in problems:
        report(False, "generated block", why)
    if not problems:
        report(True, "the blocks make docs writes from %s (%s)"
               % (source, ", ".join(b.name for b in block_list)))


def count(known, kind):
    return sum(1 for _, a in known if isinstance(a, kind))


def live(tally, results=()):
    report = record(tally, "docs")
    known, _ = commands.classify(pages.all_commands())
    commands.live_runs(known, report)
    problems = terminal.problems()
    report(not problems, "make run on a terminal: keys reach GRUB's menu, one verdict line, "
           "the terminal as it was", "; ".join(problems))
    problems, n = examples.problems(results)
    for why in problems:
        report(False, "example", why)
    if not problems:
        report(True, "%d examples of kernel output are what their runs printed" % n)
    generated(report, [b for b in generate.BLOCKS if b.cases], "runs", results)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--static", action="store_true", help="no emulator runs")
    args = ap.parse_args()
    tally = Tally()
    static(tally)
    if not args.static:
        live(tally)
    print(tally.summary())
    return 1 if tally.count("fail") else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
