"""The SQLite database: machines, reports, and what the table shows of them.

A report row holds the survey and check JSON as they came; every column the report
and the CSV show is computed from that JSON, once, by derived() below, so a new
survey field needs no schema change.

The schema has a number, SQLite's `PRAGMA user_version` (SCHEMA_VERSION). A database
made before the number existed reads 0. connect() brings an older database up to
date, one step of MIGRATIONS at a time, each in its own transaction, and refuses one
made by a newer apmoff-collect. A schema change is one more step in MIGRATIONS and
SCHEMA_VERSION + 1, with SCHEMA (what a new database is given) changed to match.
"""

import csv
import hashlib
import json
import re
import sqlite3
import time
import zlib

SCHEMA = """
CREATE TABLE IF NOT EXISTS machines (
    id          INTEGER PRIMARY KEY,
    identity    TEXT NOT NULL UNIQUE,      -- machine_identity() of its first survey
    name        TEXT NOT NULL,
    first_seen  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reports (
    id              INTEGER PRIMARY KEY,
    key             TEXT NOT NULL UNIQUE,  -- report_key(): the same report twice is one row
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    kind            TEXT NOT NULL CHECK (kind IN ('survey', 'check')),
    survey_json     TEXT,
    check_json      TEXT,
    outcome         TEXT NOT NULL CHECK (outcome IN ('off', 'failed', 'hung', 'unknown', 'none')),
    outcome_source  TEXT NOT NULL,         -- log, emulator, capture, person, or ''
    outcome_detail  TEXT NOT NULL,
    via             TEXT NOT NULL,         -- interface of the last power-off call
    source          TEXT NOT NULL,         -- the file(s) it was read from
    source_kind     TEXT NOT NULL,         -- log, json, image
    imported_at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_machine ON reports(machine_id);
"""

# Version 1 is version 0's tables, numbered: the step only writes the number.
SCHEMA_VERSION = 1


def migrate_0_to_1(conn):
    """A database from before user_version: the tables as SCHEMA has them (which
    creates none that exist), then the number."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


# version N -> the function that makes an N database an N + 1 one (in a transaction)
MIGRATIONS = {0: migrate_0_to_1}


class NewerSchema(sqlite3.DatabaseError):
    """The database was made by a newer apmoff-collect."""


def schema_version(conn):
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn, target=SCHEMA_VERSION, steps=MIGRATIONS):
    """Brings the database to schema `target`, one step a transaction; returns the
    versions it went through ([] when it was up to date)."""
    version = schema_version(conn)
    if version > target:
        raise NewerSchema("the database has schema %d; this apmoff-collect knows up to %d"
                          % (version, target))
    done = []
    while version < target:
        with transaction(conn):
            steps[version](conn)
            version += 1
            conn.execute("PRAGMA user_version = %d" % version)
        done.append(version)
    return done


def connect(path):
    """Opens (or creates) the database at path, at schema SCHEMA_VERSION."""
    conn = sqlite3.connect(path, isolation_level=None)    # transactions are explicit
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    fresh = not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'").fetchone()
    if fresh:
        with transaction(conn):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
    else:
        migrate(conn)
    return conn


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("ROLLBACK" if kind else "COMMIT")
        return False


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def get(report, path, default=None):
    """report["a"]["b"] for path "a.b", or default."""
    node = report
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


# --- machine identity -----------------------------------------------------------------

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
    s = survey.get("smbios") if isinstance(survey.get("smbios"), dict) else {}
    b = survey.get("bios") if isinstance(survey.get("bios"), dict) else {}
    parts = []
    uuid = s.get("uuid")
    serial = s.get("serial") or s.get("serial_number")
    if real(uuid):
        parts.append("uuid=" + uuid.strip().lower())
    elif real(serial):
        parts.append("serial=%s/%s/%s" % (s.get("manufacturer", ""), s.get("product", ""),
                                          serial.strip()))
    else:
        parts.append("firmware=%s" % survey.get("firmware", ""))
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
        parts.append("label=%s" % survey["label"])
    return "; ".join(parts)


def machine_name(survey):
    """A short human name: the label, else maker and product, else BIOS and date."""
    if survey.get("label"):
        return str(survey["label"])
    maker, product = get(survey, "smbios.manufacturer"), get(survey, "smbios.product")
    if real(maker) or real(product):
        return " ".join(x for x in (maker, product) if real(x))
    return "%s BIOS %s" % (bios_vendor(survey), get(survey, "bios.date", "?"))


def report_key(obs, identity):
    """The unique key of a report: the hash of its canonical JSON, its outcome and
    where that came from (and, for a check, whose machine it is)."""
    doc = {"kind": obs.kind, "survey": obs.survey, "check": obs.check,
           "outcome": obs.outcome, "outcome_source": obs.outcome_source}
    if obs.survey is None:
        doc["machine"] = identity
    return hashlib.sha256(canonical(doc).encode()).hexdigest()


# --- what the table shows -------------------------------------------------------------

# Names in BIOS ROM strings or SMBIOS vendor strings, and the vendor they mean.
VENDORS = [(r"award", "Award"), (r"phoenix", "Phoenix"), (r"american megatrends|\bami\b",
                                                           "AMI"),
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
    if isinstance(strings, str):
        strings = [strings]
    return known_vendor(" ".join(str(x) for x in strings)) or "unknown"


def bios_date(survey):
    """The BIOS release date: SMBIOS's when the BIOS has SMBIOS (the ROM's F000:FFF5
    string is a compatibility constant in some, e.g. SeaBIOS's 06/23/99), else the
    ROM's date string."""
    date = get(survey, "smbios.bios_date")
    return date.strip() if real(date) else str(get(survey, "bios.date") or "")


def bios_year(survey):
    """The year of bios_date() (mm/dd/yy or mm/dd/yyyy)."""
    for date in (bios_date(survey),):
        if isinstance(date, str):
            tail = date.strip().split("/")[-1]
            if tail.isdigit():
                year = int(tail)
                if year < 100:
                    year += 1900 if year >= 80 else 2000
                return year
    return None


FLAG_INTERFACES = [(0x0001, "pm16"), (0x0002, "pm32")]


def offered(survey):
    """The interfaces the installation check offers: real mode always, pm16/pm32 by
    flag bits 0 and 1."""
    if not get(survey, "apm.present"):
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
    return str(node.get("connect", ""))


def check_summary(check):
    if not check:
        return ""
    text = "%s passed, %s failed" % (check.get("passed", "?"), check.get("failed", "?"))
    if check.get("skipped"):
        text += ", %s skipped" % check["skipped"]
    return text


# --- adding -------------------------------------------------------------------------

def now():
    return time.strftime("%Y-%m-%d %H:%M:%S")


def find_or_add_machine(conn, survey):
    identity = machine_identity(survey)
    row = conn.execute("SELECT id FROM machines WHERE identity = ?", (identity,)).fetchone()
    if row:
        return row["id"], identity
    cur = conn.execute("INSERT INTO machines (identity, name, first_seen) VALUES (?, ?, ?)",
                       (identity, machine_name(survey), now()))
    return cur.lastrowid, identity


def add_observations(conn, observations, machine_for_checks=None):
    """Adds one file's observations in one transaction. A check without a survey goes
    to the machine of the file's surveys (one serial capture is one machine) or to
    machine_for_checks. Returns (added, already there). Raises ValueError (nothing
    added) when a check has no machine."""
    added = dup = 0
    with transaction(conn):
        ids = []
        for obs in observations:
            if obs.survey is not None:
                ids.append(find_or_add_machine(conn, obs.survey))
        file_machines = {i for i, _ in ids}
        for obs in observations:
            if obs.survey is not None:
                machine_id, identity = find_or_add_machine(conn, obs.survey)
            else:
                if machine_for_checks is not None:
                    machine_id = machine_for_checks
                elif len(file_machines) == 1:
                    machine_id = next(iter(file_machines))
                else:
                    raise ValueError("a check report without a survey names no machine; "
                                     "give --machine ID (see `apmoff-collect list`)")
                row = conn.execute("SELECT identity FROM machines WHERE id = ?",
                                   (machine_id,)).fetchone()
                if not row:
                    raise ValueError("no machine %s in the database" % machine_id)
                identity = row["identity"]
            key = report_key(obs, identity)
            cur = conn.execute(
                "INSERT OR IGNORE INTO reports (key, machine_id, kind, survey_json, "
                "check_json, outcome, outcome_source, outcome_detail, via, source, "
                "source_kind, imported_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (key, machine_id, obs.kind,
                 canonical(obs.survey) if obs.survey is not None else None,
                 canonical(obs.check) if obs.check is not None else None,
                 obs.outcome, obs.outcome_source, obs.outcome_detail, obs.via,
                 obs.source, obs.source_kind, now()))
            if cur.rowcount:
                added += 1
            else:
                dup += 1
    return added, dup


# --- reading back -------------------------------------------------------------------

def reports(conn, machine_id=None):
    sql = "SELECT * FROM reports"
    args = ()
    if machine_id is not None:
        sql += " WHERE machine_id = ?"
        args = (machine_id,)
    out = []
    for row in conn.execute(sql + " ORDER BY id", args):
        r = dict(row)
        r["survey"] = json.loads(r["survey_json"]) if r["survey_json"] else None
        r["check"] = json.loads(r["check_json"]) if r["check_json"] else None
        out.append(r)
    return out


def machines(conn):
    """Every machine with its reports and the columns of the compatibility table,
    taken from its latest survey and latest check."""
    out = []
    for m in conn.execute("SELECT * FROM machines ORDER BY id"):
        m = dict(m)
        rs = reports(conn, m["id"])
        surveys = [r["survey"] for r in rs if r["survey"]]
        checks = [r["check"] for r in rs if r["check"]]
        survey = surveys[-1] if surveys else {}
        outcomes, off_by = {}, set()
        for r in rs:
            if r["outcome"] != "none":
                label = r["outcome"] + (" via " + r["via"] if r["via"] else "")
                outcomes[label] = outcomes.get(label, 0) + 1
            if r["outcome"] == "off" and r["via"]:
                off_by.add(method_of(r["via"]))
        m["off_methods"] = " ".join(sorted(off_by))
        m.update(reports=rs, survey=survey, check=checks[-1] if checks else None,
                 outcomes=outcomes, columns=table_row(m, survey,
                                                      checks[-1] if checks else None,
                                                      outcomes, len(rs)))
        out.append(m)
    return out


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
        "label": str(survey.get("label", "")),
        "vendor": bios_vendor(survey) if survey else "",
        "bios_date": bios_date(survey),
        "bios_year": bios_year(survey) or "",
        "rom_crc32": str(get(survey, "bios.rom_crc32", "")),
        "apm": (get(survey, "apm.version") or "") if apm_present else
               ("none" if survey else ""),
        "apm_version": get(survey, "apm.version", "") or "",
        "flags": str(get(survey, "apm.flags", "")) if apm_present else "",
        "apm_flags": get(survey, "apm.flags", "") or "",
        "offered": " ".join(offered(survey)),
        "chipset": str(get(survey, "chipset.name", "") or ""),
        "soft_off": str(get(survey, "chipset.soft_off", "") or ""),
        "rm": connect_result(survey, "rm"),
        "pm32": connect_result(survey, "pm32"),
        "pm16": connect_result(survey, "pm16"),
        "check": check_summary(check),
    }


def table_row(m, survey, check, outcomes, count):
    d = derived(survey, check)
    row = {"machine": m["name"]}
    row.update((key, d[key]) for key, _, _ in COLUMNS if key in d)
    row.update(outcome=outcome_text(outcomes), reports=str(count),
               off_methods=m.get("off_methods", ""))
    return {key: row[key] for key, _, _ in COLUMNS}


# --- CSV ----------------------------------------------------------------------------

CSV_FIELDS = ["report_id", "machine_id", "machine", "identity", "kind", "label",
              "bios_vendor", "bios_date", "bios_year", "rom_crc32", "apm_version", "flags",
              "offered", "chipset", "soft_off", "rm_connect", "pm32_connect",
              "pm16_connect", "outcome",
              "outcome_source", "via", "method", "check", "source", "source_kind",
              "imported_at",
              "survey_json", "check_json"]


def csv_rows(conn):
    names = {m["id"]: (m["name"], m["identity"])
             for m in conn.execute("SELECT * FROM machines")}
    for r in reports(conn):
        d = derived(r["survey"], r["check"])
        yield {
            "report_id": r["id"], "machine_id": r["machine_id"],
            "machine": names[r["machine_id"]][0], "identity": names[r["machine_id"]][1],
            "kind": r["kind"], "label": d["label"], "bios_vendor": d["vendor"],
            "bios_date": d["bios_date"], "bios_year": d["bios_year"],
            "rom_crc32": d["rom_crc32"], "apm_version": d["apm_version"],
            "flags": d["apm_flags"], "offered": d["offered"],
            "chipset": d["chipset"], "soft_off": d["soft_off"],
            "rm_connect": d["rm"], "pm32_connect": d["pm32"], "pm16_connect": d["pm16"],
            "outcome": r["outcome"], "outcome_source": r["outcome_source"], "via": r["via"],
            "method": method_of(r["via"]) if r["via"] else "",
            "check": d["check"], "source": r["source"],
            "source_kind": r["source_kind"], "imported_at": r["imported_at"],
            "survey_json": r["survey_json"] or "", "check_json": r["check_json"] or "",
        }


def write_csv(conn, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    n = 0
    for row in csv_rows(conn):
        w.writerow(row)
        n += 1
    return n
