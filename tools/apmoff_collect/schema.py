"""What a survey or check JSON must be for the database to take it (docs/survey.md,
"JSON schema 1"), and JSON parsing that stays bounded.

A report is checked once, at import, against SURVEY_FIELDS: each known field's type
and range, dates that are dates, and a schema number this collector knows. Fields the
table does not name are kept (the kernel adds fields without a new schema number) but
are held to the same limits of depth and string length. A refusal names the field.
The readers (derived.derived, report.hardware) still treat every value as untrusted,
since rows written by older collectors were never checked.
"""

import json
import math
import re
from dataclasses import dataclass

from .limits import TooLarge

KNOWN_SCHEMAS = (1,)
U32 = (0, 0xFFFFFFFF)        # the kernel's json_uint


class Invalid(ValueError):
    """The report breaks the schema; the message names the field."""


# Type names -> the Python types json.loads gives for them. bool is kept apart from
# int (True is an int to Python, not to the schema).
TYPES = {"str": (str,), "int": (int,), "bool": (bool,), "obj": (dict,), "list": (list,),
         "null": (type(None),)}

# (dotted path, types, extra check). "[]" is every item of a list, "*" every key of an
# object. Extra checks: a (low, high) range, "date", or "schema" (KNOWN_SCHEMAS).
SURVEY_FIELDS = [
    ("schema", "int", "schema"),
    ("version", "str", None), ("commit", "str", None),
    ("firmware", "str", None), ("firmware_reason", "str", None),
    ("loader", "str", None), ("multiboot", "int", (1, 2)),
    ("options", "str", None), ("label", "str", None), ("record", "str", None),
    ("cpu", "obj", None),
    ("cpu.class", "str", None), ("cpu.vendor", "str", None), ("cpu.name", "str", None),
    ("cpu.family", "int", U32), ("cpu.model", "int", U32), ("cpu.stepping", "int", U32),
    ("cpu.fpu", "bool", None), ("cpu.fpu_kind", "str", None), ("cpu.tsc", "bool", None),
    ("cpu.clock_khz", "int", U32), ("cpu.clock_method", "str", None),
    ("memory", "obj", None),
    ("memory.int12_kb", "int", U32), ("memory.lower_kb", "int", U32),
    ("memory.upper_kb", "int", U32), ("memory.map_available_kb", "int", U32),
    ("memory.map", "list", None), ("memory.map.[]", "str", None),
    ("memory.e820", "list", None), ("memory.e820.[]", "str", None),
    ("memory.e820_truncated", "bool", None),
    ("memory.e801_1m_16m_kb", "int", U32), ("memory.e801_above_16m_64k", "int", U32),
    ("memory.ext88_kb", "int", U32),
    ("bios", "obj", None), ("bios.date", "str", "date"), ("bios.model_byte", "str", None),
    ("bios.rom_crc32", "str", None), ("bios.strings", "list", None),
    ("bios.strings.[]", "str", None),
    ("video", "obj", None), ("video.adapter", "str", None), ("video.dcc", "str", None),
    ("video.vbe", "obj", None), ("video.vbe.version", "str", None),
    ("video.vbe.memory_kb", "int", U32), ("video.vbe.oem", "str", None),
    ("video.vbe.vendor", "str", None), ("video.vbe.product", "str", None),
    ("video.vbe.revision", "str", None),
    ("disks", "obj", None), ("disks.floppy_a", "str", None), ("disks.floppy_b", "str", None),
    ("disks.hdd_count", "int", (0, 255)), ("disks.hdd", "list", None),
    ("disks.hdd.[]", "obj", None), ("disks.hdd.[].drive", "str", None),
    ("disks.hdd.[].cylinders", "int", U32), ("disks.hdd.[].heads", "int", U32),
    ("disks.hdd.[].sectors", "int", U32), ("disks.hdd.[].edd", "str", None),
    ("disks.hdd.[].total_sectors", "int", U32), ("disks.hdd.[].sector_size", "int", U32),
    ("efi", "obj", None), ("efi.vendor", "str", None), ("efi.revision", "str", None),
    ("efi.x64", "bool", None), ("efi.runtime_services", "bool", None),
    ("efi.reset_system", "str", None),
    ("smbios", "obj", None), ("smbios.found", "bool", None),
    ("smbios.version", "str", None), ("smbios.status", "str", None),
    ("smbios.bios_vendor", "str", None), ("smbios.bios_version", "str", None),
    ("smbios.bios_date", "str", "date"), ("smbios.manufacturer", "str", None),
    ("smbios.product", "str", None), ("smbios.version_string", "str", None),
    ("smbios.uuid", "str", None), ("smbios.serial", "str", None),
    ("smbios.serial_number", "str", None),
    ("acpi", "obj", None), ("acpi.found", "bool", None), ("acpi.revision", "int", U32),
    ("acpi.oem", "str", None), ("acpi.status", "str", None),
    ("acpi.s5", "obj str", None),
    ("acpi.s5.pm1a_cnt", "int", U32), ("acpi.s5.pm1b_cnt", "int", U32),
    ("acpi.s5.slp_typa", "int", (0, 255)), ("acpi.s5.slp_typb", "int", (0, 255)),
    ("acpi.s5.smi_cmd", "int", U32), ("acpi.s5.conditional", "bool", None),
    ("acpi.s5.pm1a_cnt_32bit", "int", U32),
    ("acpi.hw_reduced", "bool", None), ("acpi.rsdt_fadt", "bool", None),
    ("acpi.aml", "obj", None), ("acpi.aml.loaded", "bool", None),
    ("acpi.aml.why", "str", None), ("acpi.aml.tables", "int", U32),
    ("acpi.aml.bytes", "int", U32), ("acpi.aml.kb", "int", U32),
    ("acpi.aml.forgiven", "int", U32), ("acpi.aml.pts", "str", None),
    ("acpi.aml.s5", "str", None),
    ("pci", "obj", None), ("pci.bios", "str", None), ("pci.last_bus", "int", U32),
    ("pci.mechanism", "int", (0, 2)), ("pci.buses", "int", U32),
    ("pci.functions", "list", None), ("pci.functions.[]", "str", None),
    ("pci.truncated", "bool", None),
    ("chipset", "obj", None), ("chipset.name", "str", None),
    ("chipset.soft_off", "str", None), ("chipset.explain", "str", None),
    ("apm", "obj", None), ("apm.present", "bool", None), ("apm.version", "str", None),
    ("apm.raw_version", "str", None), ("apm.signature", "bool", None),
    ("apm.flags", "str", None), ("apm.flags_text", "str", None),
    ("apm.interfaces", "obj", None), ("apm.interfaces.*", "obj", None),
    ("apm.interfaces.*.tried", "bool", None), ("apm.interfaces.*.connect", "str", None),
    ("apm.interfaces.*.connection", "str", None), ("apm.interfaces.*.off", "str", None),
    ("apm.power", "obj", None), ("apm.power.life_percent", "int null", U32),
    ("apm.power.life_seconds", "int null", U32), ("apm.power.battery_count", "int", U32),
    ("apm.capabilities", "str", None), ("apm.battery_units", "int", U32),
    ("apm.steps", "str", None), ("apm.steps_truncated", "bool", None),
]

CHECK_FIELDS = [
    ("schema", "int", "schema"),
    ("passed", "int", U32), ("failed", "int", U32), ("skipped", "int", U32),
    ("checks", "obj", None), ("checks.*", "str", None),
]

# A date as firmware writes one: three groups of ASCII digits. The standard says
# mm/dd/yy (F000:FFF5) or mm/dd/yyyy (SMBIOS type 0), but Bochs' BIOS writes
# dd/mm/yyyy in SMBIOS, and a report is not refused for its firmware's habits. What
# no reader can take as a date (a "2" that is not ASCII, markup, a ROM's garbage) is
# blanked, with a note: the rest of the machine's report is still worth having.
DATE = re.compile(r"[0-9]{1,4}[/.-][0-9]{1,2}[/.-][0-9]{1,4}", re.A)
DATE_FIELDS = [path for path, _, extra in SURVEY_FIELDS if extra == "date"]


def blank_bad_dates(report):
    """Blanks each date field that is a string but not a date; returns the notes that
    say which (the value cut and quoted, so markup stays text)."""
    notes = []
    for path in DATE_FIELDS:
        parent_path, _, key = path.rpartition(".")
        parent = report
        for part in parent_path.split(".") if parent_path else ():
            parent = parent.get(part) if isinstance(parent, dict) else None
        if not isinstance(parent, dict):
            continue
        value = parent.get(key)
        if isinstance(value, str) and value and not DATE.fullmatch(value):
            notes.append("%s %r is not a date (mm/dd/yy, or three groups of digits): "
                         "kept blank" % (path, value[:40]))
            parent[key] = ""
    return notes


def values_at(node, path):
    """(concrete path, value) for every value a pattern path names."""
    head, _, rest = path.partition(".")
    if head == "[]":
        items = enumerate(node) if isinstance(node, list) else ()
        pairs = [(str(i), v) for i, v in items]
    elif head == "*":
        pairs = list(node.items()) if isinstance(node, dict) else []
    else:
        pairs = [(head, node[head])] if isinstance(node, dict) and head in node else []
    for key, value in pairs:
        if rest:
            for sub, v in values_at(value, rest):
                yield key + "." + sub, v
        else:
            yield key, value


def check_field(where, value, types, extra):
    allowed = tuple(t for name in types.split() for t in TYPES[name])
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise Invalid("%s is %s, not %s" % (where, type_name(value), " or ".join(
            types.split())))
    if extra == "schema":
        if value not in KNOWN_SCHEMAS:
            raise Invalid("%s %r is not a schema this collector knows (%s): a newer "
                          "apmoff wrote it" % (where, value,
                                               ", ".join(map(str, KNOWN_SCHEMAS))))
    elif extra == "date":
        if value and not DATE.fullmatch(value):
            raise Invalid("%s %r is not a date (mm/dd/yy, or three groups of digits)"
                          % (where, value[:40]))
    elif extra and isinstance(value, int):
        low, high = extra
        if not low <= value <= high:
            raise Invalid("%s = %d is outside %d..%d" % (where, value, low, high))


def type_name(value):
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a fraction", type(None): "null"}.get(
                type(value), type(value).__name__)


def validate(report, table, what):
    """Raises Invalid naming the first field that breaks `table`."""
    if not isinstance(report, dict):
        raise Invalid("%s is %s, not an object" % (what, type_name(report)))
    if not isinstance(report.get("schema"), int) or isinstance(report["schema"], bool):
        raise Invalid("%s has no integer \"schema\"" % what)
    for path, types, extra in table:
        for where, value in values_at(report, path):
            check_field(where, value, types, extra)
    return report


def validate_survey(report, notes=None):
    """As validate(); a date that is not one is blanked first, and the note about it
    added to notes (a list), rather than the report refused."""
    if isinstance(report, dict):
        # Kernels before 0.4 named the previous run's record "previous".
        if "previous" in report and "record" not in report:
            report["record"] = report.pop("previous")
        found = blank_bad_dates(report)
        if notes is not None:
            notes.extend(found)
    return validate(report, SURVEY_FIELDS, "the survey")


def validate_check(report):
    return validate(report, CHECK_FIELDS, "the check")


# --- bounded JSON --------------------------------------------------------------------

# One pass over JSON text finds its shape before json.loads sees it: its brackets
# (and, inside the top-level list, its commas) outside strings, each string matched
# whole and skipped. A string's pattern is possessive, so it never gives back what it
# took: a string that never closes is one match to the end of the text, however many
# quotes it holds (`"\"\"\"...`), not one scan to the end per quote. Patterns for
# text and for bytes: a JSON file is scanned as its bytes (UTF-8 puts no ASCII byte
# inside a multi-byte character).
def patterns(pattern, flags=0):
    return {str: re.compile(pattern, flags), bytes: re.compile(pattern.encode(), flags)}


STRING = r'"(?:[^"\\]++|\\.)*+"?'
TOKENS = patterns(STRING + r'|[\[\]{}]', re.S)              # depth only
TOKENS_OR_COMMA = patterns(STRING + r'|[\[\]{},]', re.S)    # inside the top-level list
SPACE_TO_END = patterns(r'\s*\Z')
OPENERS = "[{"


@dataclass
class Shape:
    """What scan() found: the deepest nesting; when the text is a list, the spans
    (start, end) of its items, and whether it ends at its own closing bracket."""
    depth: int = 0
    items: list = None
    closed: bool = False


def scan(text, max_depth, max_items=None):
    """The shape of JSON text (str or bytes) in one pass. With max_items, a list is
    also cut into its items, and the scan ends where the list does. Stops as soon as
    the nesting passes max_depth or the list holds more than max_items items: the
    caller refuses the text either way, and sizes nothing by it."""
    kind = str if isinstance(text, str) else bytes
    shape = Shape(items=[] if max_items is not None and starts_list(text) else None)
    depth, pos, start = 0, 0, None
    while shape.depth <= max_depth and (shape.items is None or
                                        len(shape.items) <= max_items):
        tokens = TOKENS_OR_COMMA if depth == 1 and shape.items is not None else TOKENS
        m = tokens[kind].search(text, pos)
        if m is None:
            break
        pos = m.end()
        c = chr(text[m.start()]) if kind is bytes else text[m.start()]
        if c == '"':
            continue
        if c in OPENERS:
            depth += 1
            shape.depth = max(shape.depth, depth)
            start = pos if depth == 1 else start
        elif c == ",":
            shape.items.append((start, m.start()))
            start = pos
        else:
            depth -= 1
            if depth == 0 and shape.items is not None:
                shape.items.append((start, m.start()))
                shape.closed = c == "]" and bool(SPACE_TO_END[kind].match(text, pos))
                return shape
    if shape.items is not None and start is not None:
        shape.items.append((start, len(text)))      # an open list: its last item
    return shape


def starts_list(text):
    """Whether JSON text is a list: its first character other than white space."""
    first = re.match(rb"\s*(.)" if isinstance(text, (bytes, bytearray)) else r"\s*(.)",
                     text, re.S)
    return bool(first) and first.group(1) in ("[", b"[")


def nesting(text):
    """The deepest [ or { nesting in JSON text, strings left out; counted in one pass
    before json.loads, whose recursion a deep enough text exhausts."""
    return scan(text, float("inf")).depth


def refuse_constant(name):
    raise Invalid("%s is not a number JSON allows" % name)


def finite(text):
    """A JSON number as a float, or Invalid: 1e309 is a number to JSON's grammar but
    not to a double, and json.loads would make it Infinity, which is no JSON."""
    value = float(text)
    if not math.isfinite(value):
        raise Invalid("%s is not a number JSON allows (past the largest double)"
                      % text[:40])
    return value


def parse(text, limits, what, size_limit="json_bytes"):
    """json.loads within the limits: the text's size, its nesting, every string's
    length; NaN, Infinity and numbers past a double refused. Raises Invalid or
    TooLarge."""
    if len(text) > getattr(limits, size_limit):
        raise TooLarge(what, size_limit, getattr(limits, size_limit))
    if scan(text, limits.json_depth).depth > limits.json_depth:
        raise TooLarge(what + " nests deeper", "json_depth", limits.json_depth)
    try:
        data = json.loads(text, parse_constant=refuse_constant, parse_float=finite)
    except ValueError as e:
        if isinstance(e, Invalid):
            raise
        if isinstance(e, json.JSONDecodeError) and "\n" not in text:
            # One line, as the kernel writes it: where in that line, not "line 1".
            raise Invalid("the JSON does not parse at byte %d of %d: %s"
                          % (e.pos + 1, len(text), e.msg))
        raise Invalid("the JSON does not parse: %s" % e)
    long_string(data, limits, what)
    return data


def long_string(node, limits, what, path=""):
    """Refuses any string (value or key) longer than limits.string_chars."""
    if isinstance(node, str):
        if len(node) > limits.string_chars:
            raise TooLarge("%s: %s" % (what, path or "a string"), "string_chars",
                           limits.string_chars)
    elif isinstance(node, dict):
        for k, v in node.items():
            long_string(k, limits, what, path + "." + k[:40] if path else k[:40])
            long_string(v, limits, what, path + "." + k[:40] if path else k[:40])
    elif isinstance(node, list):
        for i, v in enumerate(node):
            long_string(v, limits, what, "%s[%d]" % (path, i))
