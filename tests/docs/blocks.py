"""Generated blocks in the pages: text a program writes, between two HTML comments
that a reader of the rendered page never sees:

    <!-- NAME: written by `make TARGET` from WHAT; do not edit -->
    ...the block...
    <!-- end NAME -->

The opening comment names the make target that rewrites the block, so a reader of
the raw page (and a failing check) knows what to run. One block of a name a page.
`make docs` writes most blocks (tests/docs/generate.py); `make real-bios-table`,
`make bench` and `make mutate` write their own, from runs make test cannot repeat.
"""

import os
import re

from tests.paths import ROOT

OPEN = re.compile(r"^<!-- (?P<name>[a-z0-9-]+): written by `make (?P<target>[a-z-]+)`"
                  r"(?P<what>[^>]*?) -->\n", re.M)


def opening(name, target, what):
    return "<!-- %s: written by `make %s` %s; do not edit -->\n" % (name, target, what)


def closing(name):
    return "<!-- end %s -->" % name


def find(text, name):
    """(start, end) of the body of block NAME in text (between its two comments), or
    None when the page has no such block."""
    for m in OPEN.finditer(text):
        if m.group("name") == name:
            end = text.find(closing(name), m.end())
            return (m.end(), end) if end >= 0 else None
    return None


def names(text):
    """{name: make target} of every block the text opens."""
    return {m.group("name"): m.group("target") for m in OPEN.finditer(text)}


def body(path, name):
    with open(path) as f:
        text = f.read()
    span = find(text, name)
    return text[span[0]:span[1]] if span else None


def stale(path, name, want):
    """"" when the page holds exactly `want` as block NAME, else why not."""
    have = body(path, name)
    if have is None:
        return "%s has no `%s` block" % (os.path.relpath(path, ROOT), name)
    if have != want:
        return "%s's `%s` block differs from %s" % (os.path.relpath(path, ROOT), name,
                                                    first_difference(have, want))
    return ""


def first_difference(have, want):
    """Where two texts part, said in a few words (for a FAIL line)."""
    a, b = have.splitlines(), want.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "what it would write at its line %d: %r, not %r" % (i + 1, y[:120], x[:120])
    return "what it would write: %d lines, not %d" % (len(b), len(a))


def write(path, name, want):
    """Replaces block NAME's body in the page; False when the page has no such block."""
    with open(path) as f:
        text = f.read()
    span = find(text, name)
    if not span:
        return False
    if text[span[0]:span[1]] != want:
        with open(path, "w") as f:
            f.write(text[:span[0]] + want + text[span[1]:])
    return True
