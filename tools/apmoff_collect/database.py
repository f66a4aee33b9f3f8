"""The SQLite database: machines, reports, and reading them back.

A report row holds the survey and check JSON as they came; every column the report
and the CSV show is computed from that JSON, once, by derived.py, so a new survey
field needs no schema change.

The schema has a number, SQLite's `PRAGMA user_version` (SCHEMA_VERSION). A database
made before the number existed reads 0. connect() brings an older database up to
date, one step of MIGRATIONS at a time, each in its own transaction, and refuses one
made by a newer apmoff-collect. A schema change is one more step in MIGRATIONS and
SCHEMA_VERSION + 1, with SCHEMA (what a new database is given) changed to match.
"""

import hashlib
import json
import sqlite3
import time

from . import version
from .derived import (canonical, interface_results, machine_identity, machine_name,
                      method_of, outcome_words, table_row)

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

# --- a report's key ------------------------------------------------------------------

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

# --- adding --------------------------------------------------------------------------

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


# --- correcting ----------------------------------------------------------------------

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


# --- reading back --------------------------------------------------------------------

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
