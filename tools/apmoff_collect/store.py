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

from . import version
from .text import csv_cell

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
    source_kind     TEXT NOT NULL,         -- log, json, image, scan
    imported_at     TEXT NOT NULL,
    collector       TEXT NOT NULL DEFAULT ''   -- what imported it: "apmoff-collect 0.2"
);
CREATE INDEX IF NOT EXISTS reports_machine ON reports(machine_id);
"""

# Version 1 is version 0's tables, numbered: the step only writes the number.
# Version 2: report keys no longer hold a person's outcome (report_key), and the
# database carries APPLICATION_ID.
# Version 3: each report names the apmoff-collect that imported it (collector; '' for
# reports imported before).
SCHEMA_VERSION = 3

# PRAGMA application_id of an apmoff database ("apmo"): with it, another program's
# SQLite file is told apart from ours before anything is written to it.
APPLICATION_ID = 0x61706D6F


def migrate_0_to_1(conn):
    """A database from before user_version: the tables as SCHEMA has them (which
    creates none that exist), then the number."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def migrate_1_to_2(conn):
    """Each report's key made again without its person's outcome; two rows that now
    have one key are one report (the same log added with and without --outcome): the
    first row stays, with the outcome the other had when its own was unknown."""
    conn.execute("UPDATE reports SET key = 'v1:' || key")
    identities = {r["id"]: r["identity"] for r in conn.execute(
        "SELECT id, identity FROM machines")}
    for row in conn.execute("SELECT * FROM reports ORDER BY id").fetchall():
        try:
            survey = json.loads(row["survey_json"]) if row["survey_json"] else None
            check = json.loads(row["check_json"]) if row["check_json"] else None
        except ValueError:
            conn.execute("UPDATE reports SET key = ? WHERE id = ?",
                         (row["key"][3:], row["id"]))     # unreadable: its old key
            continue
        key = key_of(row["kind"], survey, check, row["outcome"], row["outcome_source"],
                     identities.get(row["machine_id"], ""))
        first = conn.execute("SELECT * FROM reports WHERE key = ?", (key,)).fetchone()
        if first is None:
            conn.execute("UPDATE reports SET key = ? WHERE id = ?", (key, row["id"]))
            continue
        if first["outcome"] == "unknown" and row["outcome"] != "unknown":
            conn.execute("UPDATE reports SET outcome = ?, outcome_source = ?, "
                         "outcome_detail = ? WHERE id = ?",
                         (row["outcome"], row["outcome_source"], row["outcome_detail"],
                          first["id"]))
        conn.execute("DELETE FROM reports WHERE id = ?", (row["id"],))
    conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)


def migrate_2_to_3(conn):
    """The collector column, empty for the reports already there (nobody knows which
    apmoff-collect imported them). A table made by migrate_0_to_1 from today's SCHEMA
    has it already."""
    if "collector" not in [c[1] for c in conn.execute("PRAGMA table_info(reports)")]:
        conn.execute("ALTER TABLE reports ADD COLUMN collector TEXT NOT NULL DEFAULT ''")


# version N -> the function that makes an N database an N + 1 one (in a transaction)
MIGRATIONS = {0: migrate_0_to_1, 1: migrate_1_to_2, 2: migrate_2_to_3}


class NewerSchema(sqlite3.DatabaseError):
    """The database was made by a newer apmoff-collect."""


class NotOurs(sqlite3.DatabaseError):
    """The file is another program's SQLite database."""


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


# How long a writer waits for another's transaction before it gives up: another
# `add` holds the write lock for the whole of one file (a capture of thousands of boots
# takes about 10 s). `--wait` changes it.
BUSY_SECONDS = 60


class Connection(sqlite3.Connection):
    """A connection that knows how long to wait for the write lock, and whom to tell
    that it waits (begin())."""
    busy_seconds = BUSY_SECONDS
    waiting = None                  # called once when a wait begins


def connect(path, busy_seconds=BUSY_SECONDS, waiting=None):
    """Opens (or creates) the database at path, at schema SCHEMA_VERSION. Refuses
    another program's database (NotOurs) before writing anything to it. A write waits
    up to busy_seconds for another program's transaction; waiting() is called when
    it starts to."""
    conn = sqlite3.connect(path, isolation_level=None,    # transactions are explicit
                           timeout=busy_seconds, factory=Connection)
    conn.busy_seconds, conn.waiting = busy_seconds, waiting
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            with transaction(conn):
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
                conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)
            return conn
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        if app not in (0, APPLICATION_ID) or not {"machines", "reports"} <= tables:
            raise NotOurs("not an apmoff database: it is another program's (%s)"
                          % (", ".join(sorted(tables)[:5]) if app == 0
                             else "application_id %08X" % app))
        migrate(conn)
        return conn
    except BaseException:
        conn.close()
        raise


def check_database(conn, write=False):
    """Raises sqlite3.DatabaseError before any work when the database is corrupt, or
    (write) cannot be written: read-only file or medium, or locked. The write probe
    rewrites user_version with its own value and rolls back."""
    result = conn.execute("PRAGMA quick_check").fetchone()[0]
    if result != "ok":
        raise sqlite3.DatabaseError("the database is corrupt: %s" % result)
    if write:
        begin(conn)
        try:
            conn.execute("PRAGMA user_version = %d" % schema_version(conn))
        finally:
            conn.execute("ROLLBACK")


def busy(error):
    """Whether an SQLite error is another connection's lock (SQLITE_BUSY)."""
    return getattr(error, "sqlite_errorname", "").startswith("SQLITE_BUSY") or \
        "database is locked" in str(error)


def begin(conn):
    """BEGIN IMMEDIATE: the write lock, waited for. The first second's wait is
    silent; then conn.waiting() says that another program holds the lock, and the
    wait goes on, up to conn.busy_seconds in all."""
    seconds = getattr(conn, "busy_seconds", BUSY_SECONDS)
    try:
        immediate(conn, min(1, seconds))
        return
    except sqlite3.OperationalError as e:
        if not busy(e) or seconds <= 1:
            raise
    if getattr(conn, "waiting", None):
        conn.waiting()
    immediate(conn, seconds - 1)


def immediate(conn, seconds):
    """BEGIN IMMEDIATE, waiting up to `seconds` for the lock; the connection's own
    wait (for a COMMIT behind a reader) is busy_seconds again afterwards."""
    conn.execute("PRAGMA busy_timeout = %d" % (seconds * 1000))
    try:
        conn.execute("BEGIN IMMEDIATE")
    finally:
        conn.execute("PRAGMA busy_timeout = %d"
                     % (getattr(conn, "busy_seconds", BUSY_SECONDS) * 1000))


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        begin(self.conn)
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("ROLLBACK" if kind else "COMMIT")
        return False


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


# Outcomes that the file itself shows, and so are part of what the report is.
FILE_SOURCES = ("log", "emulator", "capture")


def key_of(kind, survey, check, outcome, outcome_source, identity):
    """The unique key of a report: the hash of its canonical JSON and of the outcome
    its file shows (a halted line, an emulator's word, a capture's line), and for a
    check without a survey whose machine it is. A person's answer (--outcome, the
    prompt, set-outcome) is not part of it: the same log with and without --outcome
    is one report, whose unknown outcome the answer fills in."""
    doc = {"kind": kind, "survey": survey, "check": check,
           "shown": [outcome, outcome_source] if outcome_source in FILE_SOURCES else ""}
    if survey is None:
        doc["machine"] = identity
    return hashlib.sha256(canonical(doc).encode()).hexdigest()


def report_key(obs, identity):
    return key_of(obs.kind, obs.survey, obs.check, obs.outcome, obs.outcome_source,
                  identity)


# --- what the table shows -------------------------------------------------------------

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
    """Adds one file's observations in one transaction, parsing each when it is
    inserted (Observation.loaded) so a file of many boots is never held parsed. A
    check without a survey goes to the machine of the file's surveys (one serial
    capture is one machine) or to machine_for_checks. A report already there whose
    outcome is unknown takes a person's answer given now. Returns (added, already
    there). Raises ValueError or BadInput (nothing added) when a report is refused."""
    added = dup = 0
    with transaction(conn):
        file_machines = set()
        for obs in observations:
            if obs.survey is not None or obs.survey_text is not None:
                file_machines.add(find_or_add_machine(conn, obs.loaded().survey)[0])
        for original in observations:
            obs = original.loaded()
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
                "source_kind, imported_at, collector) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (key, machine_id, obs.kind,
                 canonical(obs.survey) if obs.survey is not None else None,
                 canonical(obs.check) if obs.check is not None else None,
                 obs.outcome, obs.outcome_source, obs.outcome_detail, obs.via,
                 obs.source, obs.source_kind, now(), version.name()))
            if cur.rowcount:
                added += 1
            else:
                dup += 1
                fill_in_outcome(conn, key, obs)
            # What the caller reports is what the database now holds.
            row = conn.execute("SELECT outcome, outcome_source FROM reports WHERE key = ?",
                               (key,)).fetchone()
            original.outcome, original.outcome_source = row
    return added, dup


def fill_in_outcome(conn, key, obs):
    """A person's answer for a report already there: it fills in an unknown outcome,
    and never overrides one (set-outcome does that)."""
    if obs.outcome_source != "person":
        return
    row = conn.execute("SELECT id, outcome, outcome_source FROM reports WHERE key = ?",
                       (key,)).fetchone()
    if row["outcome"] == "unknown":
        conn.execute("UPDATE reports SET outcome = ?, outcome_source = 'person' "
                     "WHERE id = ?", (obs.outcome, row["id"]))
        obs.notes.append("report %d: outcome set to %s" % (row["id"], obs.outcome))
    elif row["outcome"] != obs.outcome:
        obs.notes.append("report %d is already %s (%s); `set-outcome %d %s` changes it"
                         % (row["id"], row["outcome"], row["outcome_source"] or "file",
                            row["id"], obs.outcome))


# --- correcting ---------------------------------------------------------------------

class NoSuchReport(ValueError):
    pass


def remove_reports(conn, ids):
    """Deletes reports, and a machine left without any; all or none. Returns
    [(report id, machine name)]."""
    done = []
    with transaction(conn):
        for report_id in ids:
            row = conn.execute("SELECT r.machine_id, m.name FROM reports r JOIN machines m "
                               "ON m.id = r.machine_id WHERE r.id = ?",
                               (report_id,)).fetchone()
            if not row:
                raise NoSuchReport("no report %d (see `apmoff-collect list -r`)" % report_id)
            conn.execute("DELETE FROM reports WHERE id = ?", (report_id,))
            conn.execute("DELETE FROM machines WHERE id = ? AND NOT EXISTS (SELECT 1 FROM "
                         "reports WHERE machine_id = ?)", (row[0], row[0]))
            done.append((report_id, row[1]))
    return done


def set_outcome(conn, report_id, outcome):
    """A person's word on one report's outcome; returns (old outcome, old source).
    A report of a run that asked for no power-off has none to set."""
    with transaction(conn):
        row = conn.execute("SELECT outcome, outcome_source FROM reports WHERE id = ?",
                           (report_id,)).fetchone()
        if not row:
            raise NoSuchReport("no report %d (see `apmoff-collect list -r`)" % report_id)
        if row["outcome"] == "none":
            raise ValueError("report %d is of a run that asked for no power-off (%s)"
                             % (report_id, outcome_words("none")))
        conn.execute("UPDATE reports SET outcome = ?, outcome_source = 'person' "
                     "WHERE id = ?", (outcome, report_id))
    return row["outcome"], row["outcome_source"]


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
        r["survey"], r["check"] = stored_json(r["survey_json"]), stored_json(r["check_json"])
        out.append(r)
    return out


def stored_json(text):
    """A stored survey or check as an object, or None. Older collectors checked less:
    a row that is not an object, or does not parse at all, reads as none rather
    than breaking every command that reads the database."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


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
        m["interfaces"] = {i: interface_results(rs, i) for i in ("rm", "pm32", "pm16")}
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


# --- CSV ----------------------------------------------------------------------------

CSV_FIELDS = ["report_id", "machine_id", "machine", "identity", "kind", "label",
              "bios_vendor", "bios_date", "bios_year", "rom_crc32", "apm_version", "flags",
              "offered", "chipset", "soft_off", "rm_connect", "pm32_connect",
              "pm16_connect", "outcome",
              "outcome_source", "via", "method", "check", "source", "source_kind",
              "imported_at", "apmoff_version", "apmoff_commit", "collector",
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
            "apmoff_version": d["apmoff_version"], "apmoff_commit": d["apmoff_commit"],
            "collector": r["collector"],
            "survey_json": r["survey_json"] or "", "check_json": r["check_json"] or "",
        }


def write_csv(conn, out):
    """Every report as a CSV row; each cell through text.csv_cell(), which makes a
    stranger's string inert in a spreadsheet and on a terminal."""
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    n = 0
    for row in csv_rows(conn):
        w.writerow({key: csv_cell(value) for key, value in row.items()})
        n += 1
    return n
