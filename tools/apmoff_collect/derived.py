"""The columns a report's JSON gives, for the compatibility table, the CSV and
apmoff-sweep's table alike: a machine's identity and name, its BIOS vendor and date,
APM version and flags, the interfaces offered, the chipset, each connect's answer, a
check's summary. Pure functions of the parsed survey and check (no database: database.py
stores the JSON as it came and calls these on it), so a new survey field needs no
schema change.

Rows from older collectors were never checked against the schema, so no function
here assumes a type: every value goes through scalar(), obj() or get().
"""

import json
import re
import zlib

def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def scalar(value):
    """A JSON value as table text: strings and numbers as they are, anything else
    (an object, a list, null) as "". Rows from older collectors were never checked
    against the schema, so no reader may assume a type."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return ""


def obj(value):
    return value if isinstance(value, dict) else {}


def number(value):
    """An int or float (not true/false), else None."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def get(report, path, default=None):
    """report["a"]["b"] for path "a.b", or default."""
    node = report
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node

# --- machine identity ------------------------------------------------------------------

# Values firmware puts in SMBIOS when it knows nothing; they identify no machine.
JUNK = {"", "none", "n/a", "na", "default string", "to be filled by o.e.m.",
        "system serial number", "0", "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff", "03000200-0400-0500-0006-000700080009",
        "123456789", "not specified", "not applicable"}


def real(value):
    return isinstance(value, str) and value.strip().lower() not in JUNK


def machine_identity(survey):
    """What makes two surveys the same machine, as one string. The SMBIOS UUID, or
    the SMBIOS system serial (with maker and product) when there is one; otherwise
    everything the BIOS ROM says about itself: date and model byte, ROM CRC-32 and
    strings, and the SMBIOS strings. The person's
    label= is always part of it. Grow it here: new parts go at the end."""
    s, b = obj(survey.get("smbios")), obj(survey.get("bios"))
    parts = []
    uuid = s.get("uuid")
    serial = s.get("serial") or s.get("serial_number")
    if real(uuid):
        parts.append("uuid=" + uuid.strip().lower())
    elif real(serial):
        parts.append("serial=%s/%s/%s" % (scalar(s.get("manufacturer", "")),
                                          scalar(s.get("product", "")), serial.strip()))
    else:
        parts.append("firmware=%s" % scalar(survey.get("firmware", "")))
        # The ROM's CRC-32 only where there is no SMBIOS: a modern BIOS (SeaBIOS)
        # keeps variables in its own F-segment, so its CRC changes from boot to boot,
        # while a 1990s board write-protects its shadowed BIOS after POST.
        has_smbios = any(real(s.get(k)) for k in ("bios_vendor", "manufacturer"))
        for key in ("date", "model_byte") + (() if has_smbios else ("rom_crc32",)):
            if b.get(key) is not None:
                parts.append("bios.%s=%s" % (key, b[key]))
        if b.get("strings"):
            digest = zlib.crc32(canonical(b["strings"]).encode()) & 0xFFFFFFFF
            parts.append("bios.strings=%08x" % digest)
        for key in ("bios_vendor", "bios_version", "bios_date", "manufacturer", "product",
                    "version_string"):
            if real(s.get(key)):
                parts.append("smbios.%s=%s" % (key, s[key]))
    if survey.get("label"):
        parts.append("label=%s" % scalar(survey["label"]))
    return "; ".join(parts)


def machine_name(survey):
    """A short human name: the label, else maker and product, else BIOS and date."""
    if scalar(survey.get("label")):
        return scalar(survey["label"])
    maker, product = get(survey, "smbios.manufacturer"), get(survey, "smbios.product")
    if real(maker) or real(product):
        return " ".join(x for x in (maker, product) if real(x))
    return "%s BIOS %s" % (bios_vendor(survey), scalar(get(survey, "bios.date", "?")))

# --- what the table shows --------------------------------------------------------------

# Names in BIOS ROM strings or SMBIOS vendor strings, and the vendor they mean.
# AMIBIOS's own name counts: the kernel keeps 64 characters of a string, so "American
# Megatrends" may be cut, and an AMI ROM may name IBM too ("IBM 386SLC", a CPU).
VENDORS = [(r"award", "Award"), (r"phoenix", "Phoenix"),
           (r"american megatrends|\bami\b|\bamibios", "AMI"),
           (r"mr bios|microid", "MR BIOS"), (r"quadtel", "Quadtel"), (r"compaq", "Compaq"),
           (r"\bibm\b", "IBM"), (r"seabios", "SeaBIOS"), (r"bochs", "Bochs"),
           (r"insyde", "Insyde"), (r"systemsoft", "SystemSoft"), (r"\bdell\b", "Dell"),
           (r"toshiba", "Toshiba"), (r"chips and technologies", "C&T")]


def known_vendor(text):
    for pattern, name in VENDORS:
        if re.search(pattern, text, re.I):
            return name
    return None


def bios_vendor(survey):
    """The BIOS maker, by a short name when it is a known one: SMBIOS's BIOS vendor
    when there is one, else a known name in the ROM's strings (bios.strings), else
    "unknown"."""
    vendor = get(survey, "smbios.bios_vendor") or get(survey, "bios.vendor")
    if real(vendor):
        return known_vendor(vendor) or vendor.strip()
    strings = get(survey, "bios.strings") or []
    if not isinstance(strings, list):
        strings = [strings]
    return known_vendor(" ".join(scalar(x) for x in strings)) or "unknown"


def bios_date(survey):
    """The BIOS release date: SMBIOS's when the BIOS has SMBIOS (the ROM's F000:FFF5
    string is a compatibility constant in some, e.g. SeaBIOS's 06/23/99), else the
    ROM's date string."""
    date = get(survey, "smbios.bios_date")
    return date.strip() if real(date) else scalar(get(survey, "bios.date"))


DATE_PARTS = re.compile(r"([0-9]{1,4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,4})", re.A)


def date_parts(survey):
    """(year, month, day) of bios_date(), or None: mm/dd/yy or mm/dd/yyyy as the
    standards say, dd/mm/yyyy when the first number cannot be a month (Bochs' SMBIOS),
    yyyy-mm-dd; ASCII digits only ("\u00b2" is a digit to str.isdigit(), not to
    int())."""
    m = DATE_PARTS.fullmatch(bios_date(survey).strip())
    if not m:
        return None
    a, b, c = (int(x) for x in m.groups())
    if len(m.group(1)) == 4:
        year, month, day = a, b, c
    elif len(m.group(3)) in (2, 4):
        year, month, day = (c, b, a) if a > 12 else (c, a, b)
    else:
        return None
    if year < 100:
        year += 1900 if year >= 80 else 2000
    return year, month, day


def bios_year(survey):
    """The year of bios_date(), or None."""
    parts = date_parts(survey)
    return parts[0] if parts else None


FLAG_INTERFACES = [(0x0001, "pm16"), (0x0002, "pm32")]


def offered(survey):
    """The interfaces the installation check offers: real mode always, pm16/pm32 by
    flag bits 0 and 1."""
    if get(survey, "apm.present") is not True:
        return []
    try:
        flags = int(str(get(survey, "apm.flags", "0")), 0)
    except ValueError:
        flags = 0
    return ["rm"] + [name for bit, name in FLAG_INTERFACES if flags & bit]


def connect_result(survey, iface):
    node = get(survey, "apm.interfaces.%s" % iface)
    if not isinstance(node, dict):
        return ""
    if not node.get("tried", True) and "connect" not in node:
        return "not tried"
    return scalar(node.get("connect", ""))


def check_summary(check):
    if not isinstance(check, dict):
        return ""
    text = "%s passed, %s failed" % (scalar(check.get("passed", "?")),
                                     scalar(check.get("failed", "?")))
    if check.get("skipped"):
        text += ", %s skipped" % scalar(check["skipped"])
    return text


# The words for an outcome, the same in the CLI, the HTML and the docs. The database
# and the CSV keep the stored value ("none").
OUTCOME_WORDS = {"none": "not tried"}


def outcome_words(outcome):
    return OUTCOME_WORDS.get(outcome, outcome)

# --- a machine's reports, as its table row shows them ----------------------------------

def interface_results(rs, iface):
    """[(result, [report ids])] for one APM interface over a machine's reports: what
    connecting answered in each survey, the answers first and "not tried" last, so an
    earlier survey's "ok" is not hidden by a later one that did not try."""
    found = {}
    for r in rs:
        result = connect_result(r["survey"], iface) if r["survey"] else ""
        if result:
            found.setdefault(result, []).append(r["id"])
    return sorted(found.items(), key=lambda kv: kv[0] == "not tried")


def single_source(results):
    """Whether every answer comes from one report: then naming it says nothing."""
    return len({i for _, ids in results for i in ids}) <= 1


def results_text(results):
    if single_source(results):
        return "; ".join(result for result, _ in results)
    return "; ".join("%s (%s)" % (result, ", ".join("#%d" % i for i in ids))
                     for result, ids in results)

def method_of(via):
    """The power-off method of a report's last call: apm for its three interfaces,
    otherwise the method itself (acpi, efi)."""
    return "apm" if via in ("rm", "pm32", "pm16") else via


def outcome_text(outcomes):
    if not outcomes:
        return "not tried"
    return ", ".join(k if v == 1 else "%s (%d)" % (k, v) for k, v in sorted(outcomes.items()))


# The compatibility table's columns: (key, heading, shown only when some machine has it).
COLUMNS = [("machine", "Machine", False), ("label", "Label", True),
           ("vendor", "BIOS vendor", False), ("bios_date", "BIOS date", False),
           ("rom_crc32", "ROM CRC-32", True), ("apm", "APM", False),
           ("flags", "Flags", False), ("offered", "Offered", False),
           ("chipset", "Chipset", True), ("soft_off", "Soft-off", True),
           ("rm", "rm", False), ("pm32", "pm32", False),
           ("pm16", "pm16", False), ("outcome", "Power-off", False),
           ("off_methods", "Off by", True),
           ("check", "Check", False), ("reports", "Reports", False)]


def derived(survey, check):
    """The columns computed from a report's JSON, once, for the table (table_row) and
    the CSV (csv_rows) alike. "apm" and "flags" are what the table shows (blank, or
    "none", without APM); "apm_version" and "apm_flags" the survey's values as they
    are, which the CSV carries."""
    survey = survey or {}
    apm_present = get(survey, "apm.present")
    return {
        "label": scalar(survey.get("label", "")),
        "vendor": bios_vendor(survey) if survey else "",
        "bios_date": bios_date(survey),
        "bios_year": bios_year(survey) or "",
        "rom_crc32": scalar(get(survey, "bios.rom_crc32", "")),
        "apm": scalar(get(survey, "apm.version")) if apm_present else
               ("none" if survey else ""),
        "apm_version": scalar(get(survey, "apm.version", "")),
        "flags": scalar(get(survey, "apm.flags", "")) if apm_present else "",
        "apm_flags": scalar(get(survey, "apm.flags", "")),
        "offered": " ".join(offered(survey)),
        "chipset": scalar(get(survey, "chipset.name", "")),
        "soft_off": scalar(get(survey, "chipset.soft_off", "")),
        "rm": connect_result(survey, "rm"),
        "pm32": connect_result(survey, "pm32"),
        "pm16": connect_result(survey, "pm16"),
        "check": check_summary(check),
        "apmoff_version": scalar(survey.get("version", "")),
        "apmoff_commit": scalar(survey.get("commit", "")),
    }


def table_row(m, survey, check, outcomes, count):
    d = derived(survey, check)
    row = {"machine": m["name"]}
    row.update((key, d[key]) for key, _, _ in COLUMNS if key in d)
    row.update(outcome=outcome_text(outcomes), reports=str(count),
               off_methods=m.get("off_methods", ""))
    if "interfaces" in m:             # every report's answer, not only the latest's
        row.update((i, results_text(r)) for i, r in m["interfaces"].items())
    return {key: row[key] for key, _, _ in COLUMNS}
