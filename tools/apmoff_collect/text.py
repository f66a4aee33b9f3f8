"""Strangers' text on its way out: to a terminal, to a CSV file, and file names into
the database. The HTML has its own single escaping function (report.e()).

A report's strings, and the names of the files it came in, may hold anything: ESC
sequences that set a terminal's title, write its clipboard (OSC 52) or clear the
screen; a newline that fakes a line of output; a right-to-left override; a leading
"=" that a spreadsheet runs as a formula; bytes that are not UTF-8. Every path to a
terminal goes through shown(), every CSV cell through csv_cell(), and every file name
into the database through stored_name().
"""

import os

# Bytes of a file name that are not UTF-8 reach Python as these lone surrogates
# (PEP 383's surrogateescape): U+DC80-U+DCFF for the bytes 80-FF.
ESCAPED_BYTES = range(0xDC80, 0xDD00)

# What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection"): a cell
# that starts with one of these is written after a single quote, which makes it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def shown(text):
    """Text as a terminal may print it: every character that is not printable (the
    C0 and C1 controls, ESC above all; format characters such as U+202E; line and
    paragraph separators) written as its Python escape (\\n, \\x1b, \\u202e), and a
    file name's bytes that are not UTF-8 as \\xNN. Printable text, accents included,
    stays as it is; backslashes are not doubled, so shown(shown(x)) == shown(x)."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else escape(c, "py") for c in text)


def escape(c, style):
    """One character that must not reach a terminal or a cell as it is: "py" gives
    \\n, \\x1b, \\u202e (for messages), "json" gives \\u000a, \\u001b (which JSON
    reads back as the same character, so a CSV cell of JSON stays JSON)."""
    code = ord(c)
    if code in ESCAPED_BYTES:
        return "\\x%02x" % (code - 0xDC00)
    if style == "py":
        return c.encode("unicode_escape", "backslashreplace").decode("ascii")
    if code > 0xFFFF:                              # JSON's surrogate pair
        code -= 0x10000
        return "\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
    return "\\u%04x" % code


def csv_cell(value):
    """A CSV cell safe to open in a spreadsheet and to print on a terminal: numbers
    as they are; in text, every character that is not printable as \\uXXXX, then a
    single quote before a leading =, +, -, @ (a tab or carriage return, the other two
    starts OWASP names, are escaped by then)."""
    if not isinstance(value, str):
        return value
    if not value.isprintable():
        value = "".join(c if c.isprintable() else escape(c, "json") for c in value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def stored_name(path):
    """A file name as the database keeps it: text SQLite can store (UTF-8), with any
    byte of the name that is not UTF-8 written \\xNN (a Latin-1 "caf\\xe9.log")."""
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not any(ord(c) in ESCAPED_BYTES for c in path):
        return path
    return "".join("\\x%02x" % (ord(c) - 0xDC00) if ord(c) in ESCAPED_BYTES else c
                   for c in path)
