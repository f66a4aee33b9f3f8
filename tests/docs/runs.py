"""The real runs the pages quote: cases of the emulator table (tests/emu/cases.py),
named by the page's marker or by the block that is written from them.

In `make test` those cases have just run, and their serial logs are taken from the
results; anything the run did not include (a -k or -g subset, `make docs`) is booted
here, one at a time.
"""

from tests.emu import harness
from tests.emu.cases import CASES

BY_NAME = {c.name: c for c in CASES}
BOOTED = {}                             # what this process booted itself, by case name


def serials(names, results=(), say=print):
    """{case name: serial log} of each named case (a name that is no case is a
    KeyError: the caller says which page names it)."""
    have = {r.case.name: r.serial for r in results if not r.skipped}
    have.update(BOOTED)
    out = {}
    for name in dict.fromkeys(names):
        if name in have:
            out[name] = have[name]
            continue
        result = harness.run_case(BY_NAME[name])
        if result.skipped:
            raise RuntimeError("case %s cannot run here: %s" % (name, result.skipped))
        say("docs: ran %s for the pages (%s in %.1f s)" % (name, result.verdict,
                                                          result.seconds))
        out[name] = BOOTED[name] = result.serial
    return out
