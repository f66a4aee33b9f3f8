#!/usr/bin/env python3
"""docs/ci.md's emulator CI recipes and examples/github-ci.yml, run as written.

docs/ci.md marks each recipe with an HTML comment on the line before its fenced block:

    <!-- recipe: status=N output=REGEX -->
    ```sh
    COMMANDS
    ```

Each block runs in bash (`-o pipefail`) from a scratch directory in which `build`
and `examples` link to the tree's, and `../shared` to the tree's `../shared` (the
86Box kit, where it is), with stdin from /dev/null and a wall-clock limit,
in a process group of its own that is killed when it overruns (Bochs ignores
SIGTERM). It passes when bash exits with status N and, when given, REGEX matches a
line of its output. A recipe with `needs=COMMAND` is skipped, saying so, where that
command is not installed (dosbox-x: Debian 12 has none), or, for a path
(`needs=../shared/86box/86Box`), where no such file is. The CI example's `run:` steps
run the same way and must exit 0, except the package installation (`apt-get`), which
`scripts/deps.sh` has done.

    python3 -m tests.recipes [-k SUBSTRING]   prints PASS/FAIL per recipe, exits 1 on a failure
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CI_PAGE = os.path.join(ROOT, "docs", "ci.md")
CI_EXAMPLE = os.path.join(ROOT, "examples", "github-ci.yml")
TIMEOUT = 180

MARK = re.compile(r"^<!-- recipe: (.*?) -->\n```sh\n(.*?)^```$", re.M | re.S)
FIELD = re.compile(r"(status|output|needs)=(.*?)(?= (?:status|output|needs)=|$)")


def readme_recipes(text):
    """[(label, commands, status, output regex or "", command needed or "")] from
    docs/ci.md's marked blocks."""
    recipes = []
    for m in MARK.finditer(text):
        fields = dict(FIELD.findall(m.group(1)))
        if "status" not in fields:
            raise ValueError("docs/ci.md line %d: a recipe comment without status="
                             % (text[:m.start()].count("\n") + 1))
        line = text[:m.start()].count("\n") + 1
        recipes.append(("%s:%d" % (os.path.basename(CI_PAGE), line), m.group(2),
                        int(fields["status"]), fields.get("output", ""),
                        fields.get("needs", "")))
    return recipes


def ci_steps(text):
    """[(label, command, 0, "", "")] from the CI example's `run:` steps, in order."""
    steps, name = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*- name:\s*(.*)$", line)
        if m:
            name = m.group(1)
        m = re.match(r"\s*run:\s*(.*)$", line)
        if m and "apt-get" not in m.group(1):
            steps.append(("github-ci.yml:%d (%s)" % (number, name), m.group(1), 0, "", ""))
    return steps


def run(commands, workdir, timeout=TIMEOUT, env=None):
    """(status or None on timeout, output). tests/docs/commands.py runs the pages'
    other commands through this too."""
    proc = subprocess.Popen(["bash", "-o", "pipefail", "-c", commands], cwd=workdir,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("latin-1")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out.decode("latin-1")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # anything the recipe left behind
        except ProcessLookupError:
            pass


def all_recipes():
    with open(CI_PAGE) as f:
        recipes = readme_recipes(f.read())
    with open(CI_EXAMPLE) as f:
        recipes += ci_steps(f.read())
    return recipes


def run_all(substring="", record=None):
    """Runs the recipes; returns (passed, failed) and prints one line each; calls
    record(name, ok, seconds, message, skipped) for each too, when given
    (tests.run_all)."""
    record = record or (lambda name, ok, seconds, message, skipped="": None)
    passed = failed = 0
    recipes = [r for r in all_recipes() if substring in r[0] + r[1]]
    if not recipes:
        print("FAIL recipes: none found in %s (<!-- recipe: ... -->) or %s"
              % (os.path.relpath(CI_PAGE, ROOT), os.path.relpath(CI_EXAMPLE, ROOT)))
        record("recipes", False, 0.0, "no recipes found")
        return 0, 1
    for label, commands, status, output, needs in recipes:
        first = commands.strip().splitlines()[0]
        short = first if len(first) <= 90 else first[:87] + "..."
        if needs and not (os.path.exists(os.path.join(ROOT, needs)) if "/" in needs
                          else shutil.which(needs)):
            why = "no %s here" % needs
            print("SKIP recipe %s: %s: %s" % (label, short, why))
            record(label, False, 0.0, "", skipped=why)
            continue
        with tempfile.TemporaryDirectory(prefix="apmoff-recipe-") as top:
            work = os.path.join(top, "apmoff")
            os.mkdir(work)
            for name in ("build", "examples"):
                os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
            shared = os.path.join(os.path.dirname(ROOT), "shared")
            if os.path.isdir(shared):
                os.symlink(shared, os.path.join(top, "shared"))
            start = time.monotonic()
            got, text = run(commands, work)
            seconds = time.monotonic() - start
        problems = []
        if got != status:
            problems.append("exit status %s, expected %d" % (
                "none (killed after %d s)" % TIMEOUT if got is None else got, status))
        if output and not re.search(output, text, re.M):
            problems.append("no output line matches /%s/" % output)
        if problems:
            failed += 1
            print("FAIL recipe %s: %s: %s" % (label, short, "; ".join(problems)))
            for line in text.splitlines()[-5:]:
                print("    | " + line)
            record(label, False, seconds, "; ".join(problems))
        else:
            record(label, True, seconds, "")
            passed += 1
            print("PASS recipe %s: %s (%.1f s)" % (label, short, seconds), flush=True)
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", default="", help="only recipes whose place or text contains this")
    args = ap.parse_args()
    skips = []
    passed, failed = run_all(args.k, record=lambda name, ok, seconds, message, skipped="":
                             skips.append(name) if skipped else None)
    print("%d passed, %d failed" % (passed, failed) +
          (", %d skipped" % len(skips) if skips else ""))
    return 1 if failed or not (passed or skips) else 0


if __name__ == "__main__":
    sys.exit(main())
