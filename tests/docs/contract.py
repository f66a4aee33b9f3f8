"""README's tables against the kernel: every option, value, action and method the
kernel accepts (app/common/options.c's option table), every exit code it writes
(system/halt.h's enum halt_code), and nothing more; examples/qemu-smoke.sh has a name
for every exit status; docs/survey.md names every field the survey's JSON writer
(app/show/surveyjson.c) writes. The truth is read from the C sources each time, never from a
list kept here.

    check() -> (ok, [messages])
"""

import os
import re

from tests.paths import ROOT

README = os.path.join(ROOT, "README.md")
OPTIONS_C = os.path.join(ROOT, "app", "common", "options.c")
OPTIONS_H = os.path.join(ROOT, "app", "common", "options.h")
HALT_H = os.path.join(ROOT, "system", "halt.h")
MULTIBOOT_H = os.path.join(ROOT, "lib", "multiboot.h")
SMOKE = os.path.join(ROOT, "examples", "qemu-smoke.sh")
SURVEY_JSON_C = os.path.join(ROOT, "app", "show", "surveyjson.c")
SURVEY_PAGE = os.path.join(ROOT, "docs", "survey.md")


def read(path):
    with open(path) as f:
        return f.read()


def defines(*paths):
    """{NAME: int} of the #define NAME <number> lines of the headers."""
    found = {}
    for path in paths:
        for m in re.finditer(r"^#define (\w+)\s+\(?(-?\d+)\)?", read(path), re.M):
            found[m.group(1)] = int(m.group(2))
    return found


def text_defines(*paths):
    """{NAME: '"text"'} of the #define NAME "text" lines of the headers."""
    found = {}
    for path in paths:
        for m in re.finditer(r'^#define (\w+)\s+("[^"]*")', read(path), re.M):
            found[m.group(1)] = m.group(2)
    return found


# --- the kernel's side ------------------------------------------------------------------

class Option:
    def __init__(self, key, choices, default, is_list=False, is_sequence=False,
                 max_number=0, free_text=0):
        self.key, self.choices, self.default = key, choices, default
        self.is_list, self.is_sequence = is_list, is_sequence
        self.max_number, self.free_text = max_number, free_text


def kernel_options():
    """[Option] in the order of option_defs[], then label= (free text, parsed apart)."""
    text = read(OPTIONS_C)
    consts = defines(OPTIONS_C, OPTIONS_H)
    consts_text = text_defines(OPTIONS_C, OPTIONS_H)
    arrays = {}
    for m in re.finditer(r"static const struct choice (\w+)\[\] = \{(.*?)\n\};", text, re.S):
        arrays[m.group(1)] = re.findall(r'\{ "([^"]+)", ([\w]+) \}', m.group(2))
    table = re.search(r"option_defs\[\] = \{(.*?)\n\};", text, re.S).group(1)
    options = []
    # The table's rows, one macro each (app/common/options.c): INT_OPTION and BOOL_OPTION (one
    # choice), NUMBER_OPTION (or a number up to a limit), LIST_OPTION (a comma list,
    # none by default), SEQUENCE_OPTION (an ordered list, its default written out).
    for m in re.finditer(r'(\w+_OPTION)\("(\w+)", \w+, (\w+)((?:, [^,)]+)*)\)', table):
        kind, key, array = m.group(1), m.group(2), m.group(3)
        rest = [a.strip() for a in m.group(4).split(",")[1:]]
        choices = arrays[array]
        is_list = kind == "LIST_OPTION"
        sequence = kind == "SEQUENCE_OPTION"
        number = rest[0] if kind == "NUMBER_OPTION" else "0"
        if sequence:
            text_default = rest[1]
            text_default = consts_text.get(text_default, text_default).strip('"')
            options.append(Option(key, [n for n, _ in choices], text_default, False, True, 0))
            continue
        default = rest[-1] if kind in ("INT_OPTION", "BOOL_OPTION", "NUMBER_OPTION") else "0"
        if is_list:
            default_name = None                     # an empty list: nothing injected
        else:
            default_name = next((n for n, v in choices if v == default), None)
            if default_name is None and default in ("false", "true"):
                default_name = next(n for n, v in choices
                                    if v == default or (v, default) in (("0", "false"),
                                                                        ("1", "true")))
        options.append(Option(key, [n for n, _ in choices], default_name, is_list, sequence,
                              int(number) if number.isdigit() else consts.get(number, 0)))
    if 'strcmp(word, "label")' in text:
        options.append(Option("label", [], None, free_text=consts["LABEL_MAX"]))
    return options


def halt_codes():
    """{code: NAME} of enum halt_code."""
    enum = re.search(r"enum halt_code \{(.*?)\};", read(HALT_H), re.S).group(1)
    return {int(n): name for name, n in re.findall(r"(HALT_\w+) = (\d+)", enum)}


# --- README's side ----------------------------------------------------------------------

def table_after(text, heading):
    """The rows (lists of cells) of the first table under the heading."""
    at = text.index(heading)
    rows = []
    for line in text[at:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
        elif rows:
            break
    return rows[1:]                                 # past the rule under the header


def ticked(cell):
    return re.findall(r"`([^`]*)`", cell)


def check_option(option, values, default):
    problems = []
    key = option.key
    if option.free_text:
        if str(option.free_text) not in values:
            problems.append("label's row does not say its limit, %d characters"
                            % option.free_text)
        return problems
    listed = ticked(values)
    for token in listed:
        if token in option.choices:
            continue
        parts = token.split(",")
        if (option.is_list or option.is_sequence) and all(p in option.choices for p in parts):
            continue                                # an example of a list
        if option.max_number and token.isdigit() and int(token) in (0, option.max_number):
            continue
        problems.append("README lists `%s` for %s=, which the kernel does not accept"
                        % (token, key))
    for choice in option.choices:
        if choice not in listed:
            problems.append("README's %s row leaves out `%s`" % (key, choice))
    if option.max_number and str(option.max_number) not in listed:
        problems.append("README's %s row does not give the largest number, %d"
                        % (key, option.max_number))
    want = "none" if option.default is None else "`%s`" % option.default
    if default != want:
        problems.append("README gives %s='s default as %s; the kernel's is %s"
                        % (key, default, want))
    return problems


def check_options(text):
    problems = []
    options = kernel_options()
    rows = {}
    for cells in table_after(text, "| option | values | default | meaning |"):
        key = ticked(cells[0])[0] if ticked(cells[0]) else cells[0]
        rows[key] = cells
    for option in options:
        if option.key not in rows:
            problems.append("README's options table has no row for %s=" % option.key)
            continue
        problems += check_option(option, rows[option.key][1], rows[option.key][2])
    for key in rows:
        if key not in {o.key for o in options}:
            problems.append("README's options table has %s=, which the kernel does not "
                            "accept" % key)
    longest = defines(MULTIBOOT_H)["APMOFF_CMDLINE_MAX"] - 1
    if "longer than %d bytes" % longest not in text:
        problems.append("README does not say that a command line longer than %d bytes is "
                        "refused" % longest)
    return problems, len(options)


def check_exit_codes(text):
    problems = []
    codes = halt_codes()
    rows = table_after(text, "| code | QEMU status | meaning |")
    seen = set()
    for cells in rows:
        if cells[0] == "-":
            continue
        code, status = int(cells[0]), int(cells[1])
        seen.add(code)
        if code not in codes:
            problems.append("README's exit code %d is not one the kernel writes" % code)
        if status != (code << 1) | 1:
            problems.append("README gives code %d QEMU status %d, not %d"
                            % (code, status, (code << 1) | 1))
    for code, name in sorted(codes.items()):
        if code not in seen:
            problems.append("README's exit codes leave out %d (%s)" % (code, name))
    smoke = dict(re.findall(r"^\s+(\d+)\)\s+verdict=([\w-]+)", read(SMOKE), re.M))
    for code, name in sorted(codes.items()):
        if str((code << 1) | 1) not in smoke:
            problems.append("examples/qemu-smoke.sh has no name for status %d (code %d, %s)"
                            % ((code << 1) | 1, code, name))
    for status in smoke:
        if (int(status) - 1) >> 1 not in codes:
            problems.append("examples/qemu-smoke.sh names status %s, which no exit code "
                            "gives" % status)
    return problems, len(codes)


def check_survey_fields():
    """Every key the JSON writer writes appears in a code span of docs/survey.md (as
    itself or inside a path: `apm.power`, `acpi.aml`)."""
    fields = sorted(set(re.findall(r'json_\w+\(&?j, "(\w+)"', read(SURVEY_JSON_C))))
    prose = re.sub(r"(?ms)^```.*?^```$", "", read(SURVEY_PAGE))
    named = {word for line in prose.splitlines() for span in re.findall(r"`([^`]+)`", line)
             for word in re.findall(r"\w+", span)}
    return ["docs/survey.md does not name the survey field %s (app/show/surveyjson.c)" % f
            for f in fields if f not in named], len(fields)


def check():
    text = read(README)
    problems, n_options = check_options(text)
    more, n_codes = check_exit_codes(text)
    fields, n_fields = check_survey_fields()
    problems += more + fields
    if problems:
        return False, ["FAIL docs contract: " + p for p in problems]
    return True, ["PASS docs contract: README's tables hold the kernel's %d options, their "
                  "values and defaults, and its %d exit codes; qemu-smoke.sh names every "
                  "status; docs/survey.md names the survey's %d JSON fields"
                  % (n_options, n_codes, n_fields)]
