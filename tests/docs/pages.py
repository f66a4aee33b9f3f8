"""The pages a user reads (README.md and docs/*.md) and the shell commands in them.

A command is
  - a line of a fenced block marked `sh` (comment lines and `# ...` tails dropped,
    `\\` continuations joined);
  - a `$ ` line of a fenced block (a session: the lines up to the next `$ ` are what
    it printed);
  - an inline code span whose first word (after VAR=value words) is a program: one
    of PROGRAMS, or a path into the tree (tools/, examples/, iso/, ...) followed by
    arguments (a bare path names a file, it runs nothing).
"""

import glob
import os
import re
from dataclasses import dataclass, field

from tests.paths import ROOT

PROGRAMS = {"make", "sudo", "python3", "bash", "sh", "dd", "cmp", "fdformat", "mknod",
            "setfdprm", "xorriso", "wodim", "bochs", "timeout", "iasl", "acpiexec",
            "zbarimg", "git", "apt-get", "superformat", "split", "qemu-system-i386", "qemu-system-x86_64", "lsblk"}
TREE_DIRS = ("tools/", "examples/", "iso/", "scripts/", "tests/", "build/", "./")
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")


def pages():
    """Paths relative to the top folder: README.md, then docs/*.md."""
    return ["README.md"] + sorted(os.path.relpath(p, ROOT)
                                  for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def read(page):
    with open(os.path.join(ROOT, page)) as f:
        return f.read()


@dataclass
class Command:
    page: str
    line: int
    text: str
    kind: str                       # "block", "session" or "inline"
    marker: str = ""                # the HTML comment on the line before its block
    output: list = field(default_factory=list)      # a session command's printed lines

    def where(self):
        return "%s:%d" % (self.page, self.line)


def fenced_blocks(text):
    """(first line number of the body, info string, body lines, comment before)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        before = lines[i - 1] if i and lines[i - 1].startswith("<!--") else ""
        yield i + 2, m.group(1), lines[i + 1:end], before
        i = end + 1


def is_program(word):
    return word in PROGRAMS or word.startswith("qemu-system-")


def looks_like_command(span):
    """A program and its arguments; a program's name alone is a name (`zbarimg`), but
    `make` alone builds; `make run: ...` is a line of output, not a command."""
    words = span.split()
    while words and ASSIGNMENT.match(words[0]):
        words = words[1:]
    if not words:
        return False
    if words[0] == "make":
        return not any(w.endswith(":") for w in words[1:])
    if is_program(words[0]):
        return len(words) > 1
    return words[0].startswith(TREE_DIRS) and len(words) > 1


def strip_comment(line):
    """The command without a trailing `  # comment` (two spaces before the #)."""
    return re.split(r"\s{2,}#", line, 1)[0].rstrip()


def commands(page):
    text = read(page)
    found = []
    fenced = set()
    for first, info, body, before in fenced_blocks(text):
        fenced.update(range(first - 1, first + len(body) + 1))
        if info == "sh":
            joined, start = "", None
            for n, line in enumerate(body, first):
                if not joined and (not line.strip() or line.lstrip().startswith("#")):
                    continue
                start = start or n
                joined += strip_comment(line)
                if joined.endswith("\\"):
                    joined = joined[:-1]
                    continue
                found.append(Command(page, start, joined.strip(), "block", before))
                joined, start = "", None
        elif any(l.startswith("$ ") for l in body):
            current = None
            for n, line in enumerate(body, first):
                if line.startswith("$ "):
                    current = Command(page, n, line[2:], "session", before)
                    found.append(current)
                elif current:
                    current.output.append(line)
    for n, line in enumerate(text.splitlines(), 1):
        if n in fenced or line.startswith("<!--"):    # a block's marker names its target
            continue
        for span in re.findall(r"`([^`]+)`", line):
            if looks_like_command(span):
                found.append(Command(page, n, span, "inline"))
    return found


def all_commands():
    return [c for page in pages() for c in commands(page)]
