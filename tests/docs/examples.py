"""Kernel output quoted in the pages, against a real run: a fenced block right under

    <!-- example: CASE -->

holds lines of the serial log of that emulator case (tests/emu/cases.py), in its
order. Lines next to each other in the block are next to each other in the log; a
line `...` stands for any number of lines left out; `...` inside a line stands for
any text (a long JSON line, a measured time).

    problems(results) -> [why a block is not what its run printed]
"""

import re

from tests.docs import pages, runs
from tests.emu.watch import apmoff_lines

MARKER = re.compile(r"^<!-- example: ([\w-]+) -->$")


def examples():
    """[(page, line, case, block lines)]."""
    found = []
    for page in pages.pages():
        for first, _, body, before in pages.fenced_blocks(pages.read(page)):
            m = MARKER.match(before)
            if m:
                found.append((page, first, m.group(1), body))
    return found


def pattern(line):
    return re.compile("^" + ".*".join(map(re.escape, line.split("..."))) + "$")


def matches(block, log):
    """"" when the block's lines are in the log as the rules above say, else the
    first line that is not."""
    runs_of = [[]]
    for line in block:
        if line.strip() == "...":
            runs_of.append([])
        else:
            runs_of[-1].append(pattern(line))
    at = 0
    for group in filter(None, runs_of):
        while at + len(group) <= len(log) and not all(
                p.match(log[at + i]) for i, p in enumerate(group)):
            at += 1
        if at + len(group) > len(log):
            missing = next((p.pattern for i, p in enumerate(group)
                            if not any(p.match(l) for l in log)), group[0].pattern)
            return missing
        at += len(group)
    return ""


def problems(results=(), say=print):
    found = []
    listed = examples()
    unknown = [(p, l, c) for p, l, c, _ in listed if c not in runs.BY_NAME]
    for page, line, case in unknown:
        found.append("%s:%d: the example names case %s, which tests/emu/cases.py does not "
                     "have" % (page, line, case))
    serials = runs.serials([c for _, _, c, _ in listed if c in runs.BY_NAME], results, say)
    for page, line, case, body in listed:
        if case not in serials:
            continue
        miss = matches(body, apmoff_lines(serials[case]))
        if miss:
            found.append("%s:%d: the example is not what %s printed: no line /%s/ where "
                         "the block has it" % (page, line, case, miss[:100]))
    return found, len(listed)
