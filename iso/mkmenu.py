#!/usr/bin/env python3
"""Turns a GRUB menu (grub.cfg) into the floppy loader's menu file (loader/menu.h):
the same countdown, default entry, titles and kernel words.

    iso/mkmenu.py GRUB.cfg KERNEL_PATH > MENU.CFG

What is read of GRUB's language: `set timeout=N`, `set default=N`, and each
`menuentry TITLE { ... }` whose body calls the kernel, either through a function the
file defines around `multiboot` (apmoff's own grub.cfg: `apmoff action=off`) or with
`multiboot` or `multiboot2` and a path. Words are split and unquoted as GRUB's shell
does (double and single quotes, backslash escapes), then written so the kernel reads
each one back whole: a word with a space or a quote is written key="value", with \\"
and \\\\ inside the quotes (app/common/options.c reads that, and GRUB's own quoting too).
Everything else (serial, terminal, echo) is left out: the loader has COM1 and the
screen without being told. What stands between `if` and `fi` is left out too: the
file's conditions ask which firmware GRUB runs on (UEFI's own default entry), and the
loader only ever runs on a BIOS. A menu entry that boots no kernel is an error.
"""

import re
import sys

MENUENTRY = re.compile(r"^\s*menuentry\s")
IF, FI = re.compile(r"^\s*if\s"), re.compile(r"^\s*fi\s*$")
SET = re.compile(r"^\s*set\s+(timeout|default)=(\S+)\s*$")
FUNCTION = re.compile(r"^\s*function\s+(\S+)\s*\{")


class MenuError(Exception):
    pass


def grub_words(text):
    """GRUB's shell splitting: whitespace separates words; '...' keeps everything;
    "..." keeps all but \\" \\\\ \\$ escapes; a backslash outside quotes escapes the
    next character."""
    words, cur, have, i = [], [], False, 0
    while i < len(text):
        c = text[i]
        if c in " \t":
            if have:
                words.append("".join(cur))
                cur, have = [], False
            i += 1
            continue
        have = True
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise MenuError("a single quote is not closed: %s" % text)
            cur.append(text[i + 1:end])
            i = end + 1
        elif c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$':
                    i += 1
                cur.append(text[i])
                i += 1
            if i == len(text):
                raise MenuError("a double quote is not closed: %s" % text)
            i += 1
        elif c == "\\" and i + 1 < len(text):
            cur.append(text[i + 1])
            i += 2
        else:
            cur.append(c)
            i += 1
    if have:
        words.append("".join(cur))
    return words


def kernel_word(word):
    """One word as the kernel's command line carries it."""
    if not re.search(r"[\s\"\\]", word):
        return word
    key, eq, value = word.partition("=")
    quoted = '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')
    return key + "=" + quoted if eq and not re.search(r"[\s\"\\]", key) else \
        '"%s"' % word.replace("\\", "\\\\").replace('"', '\\"')


def blocks(lines):
    """(header, body lines) of each top-level { } block, and the other lines."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if "{" in line and not line.strip().startswith("#"):
            depth, body = line.count("{") - line.count("}"), []
            i += 1
            while depth > 0 and i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                if depth > 0:
                    body.append(lines[i])
                i += 1
            out.append((line, body))
        else:
            out.append((line, None))
            i += 1
    return out


def convert(cfg, kernel):
    lines = [l for l in cfg.splitlines() if not l.strip().startswith("#")]
    functions, entries, settings = set(), [], {"timeout": "5", "default": "0"}
    conditions = 0
    for header, body in blocks(lines):
        if body is None and IF.match(header):
            conditions += 1
        if conditions:
            if body is None and FI.match(header):
                conditions -= 1
            continue
        m = FUNCTION.match(header)
        if m and body is not None and any(re.search(r"\bmultiboot2?\b", b) for b in body):
            functions.add(m.group(1))
            continue
        m = SET.match(header)
        if m:
            settings[m.group(1)] = m.group(2).strip("\"'")
            continue
        if MENUENTRY.match(header) and body is not None:
            title = grub_words(header.strip()[len("menuentry"):].rstrip("{ \t"))
            if not title:
                raise MenuError("a menuentry without a title")
            words = None
            for b in body:
                w = grub_words(b.strip())
                if w and w[0] in functions:
                    words = w[1:]
                elif w and w[0] in ("multiboot", "multiboot2") and len(w) > 1:
                    words = w[2:]
            if words is None:
                raise MenuError("menu entry %r boots no multiboot kernel" % title[0])
            entries.append((title[0], " ".join(kernel_word(w) for w in words)))
    if not entries:
        raise MenuError("no menu entries")
    try:
        timeout, default = int(settings["timeout"]), int(settings["default"])
    except ValueError:
        raise MenuError("timeout and default must be numbers")
    if not 0 <= default < len(entries):
        raise MenuError("default=%d names no entry" % default)
    out = ["# The floppy loader's menu (loader/menu.h), made by iso/mkmenu.py from a GRUB",
           "# menu. Any text editor may change it: one statement a line.",
           "timeout %d" % max(0, min(timeout, 3600)), "default %d" % (default + 1),
           "kernel %s" % kernel]
    for title, words in entries:
        if not title.isprintable() or not words.isprintable():
            raise MenuError("menu entry %r is not printable text" % title)
        out += ["title %s" % title, "words %s" % words]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    try:
        with open(argv[1]) as f:
            sys.stdout.write(convert(f.read(), argv[2]))
    except (OSError, MenuError) as e:
        print("mkmenu: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
