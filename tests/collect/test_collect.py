#!/usr/bin/python3
"""Tests of tools/apmoff-collect.

Unit tests against stored serial logs (tests/collect/fixtures/, made by QEMU runs of
this kernel), then one end-to-end test: surveys from a dozen emulator configurations
made live (QEMU -kernel runs with different machines, -smbios strings and options,
two Bochs runs, a QR screenshot turned into degraded phone photos with Pillow, a
survey as a vintage machine gives it: a label, an Award ROM, no SMBIOS), collected with
the program, the report opened in headless Chromium, its table read back from the DOM,
a screenshot taken.

    python3 -m tests.collect.test_collect [-v] [--tap] [--update-screenshot] [-k PATTERN]

--tap prints one "ok N name" / "not ok N name" line a test (tests.run_all counts
them); --update-screenshot copies the report's screenshot to docs/collect-report.png.
"""

import contextlib
import csv
import io
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest
import zlib
import warnings
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "apmoff-collect")
FIXTURES = os.path.join(HERE, "fixtures")
OUT = os.path.join(ROOT, "build", "collect-test")
from tools.apmoff_collect import (csvfile, database, derived, inputs, pciids, qrpages, report,
                                   schema)

UPDATE_SCREENSHOT = False


def fixture(name):
    return os.path.join(FIXTURES, name)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def tool(db, *args, stdin=None):
    """Runs the program as a user would; returns the CompletedProcess (text)."""
    return subprocess.run([sys.executable, TOOL, "--db", db] + list(args),
                          input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)


def counts(db):
    conn = sqlite3.connect(db)
    try:
        return tuple(conn.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
                     for t in ("machines", "reports"))
    finally:
        conn.close()


def dump(db):
    """Everything in the database, for "nothing changed" comparisons."""
    conn = sqlite3.connect(db)
    try:
        return [list(conn.execute("SELECT * FROM %s ORDER BY id" % t))
                for t in ("machines", "reports")]
    finally:
        conn.close()


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="apmoff-collect-")
        self.db = os.path.join(self.dir, "t.db")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# --- reading files --------------------------------------------------------------------

class Outcomes(Tmp):
    """The power-off outcome rules, as docs/collect.md and --help state them."""

    def obs(self, name):
        return inputs.read_file(fixture(name), {})

    def test_survey_run_is_not_tried(self):
        [o] = self.obs("survey.log")
        self.assertEqual((o.kind, o.outcome, o.via), ("survey", "none", ""))

    def test_halted_after_power_off_is_failed(self):
        [o] = self.obs("failed.log")
        self.assertEqual((o.outcome, o.outcome_source, o.via), ("failed", "log", "pm16"))
        self.assertIn("halted: power-off failed via rm, pm32 and pm16", o.outcome_detail)

    def test_ending_at_powering_off_is_unknown(self):
        [o] = self.obs("off.log")
        self.assertEqual((o.outcome, o.outcome_source, o.via), ("unknown", "", "rm"))

    def test_emulator_evidence_is_off(self):
        for evidence, source in (
                ("00117031092p[UNMAP ] >>PANIC<< Shutdown port: shutdown requested",
                 "emulator"),
                ('{"timestamp": {}, "event": "SHUTDOWN", "data": {"guest": true, '
                 '"reason": "guest-shutdown"}}', "emulator"),
                ("86BOX poweroff secs=23", "emulator"),
                ("apmoff-outcome: off", "capture")):
            path = write(os.path.join(self.dir, "x.log"),
                         read(fixture("off.log")) + "\n" + evidence + "\n")
            [o] = inputs.read_file(path, {})
            self.assertEqual((o.outcome, o.outcome_source), ("off", source), evidence)

    def test_method_of_the_power_off(self):
        # method=acpi's and method=efi's lines name the method where APM names its
        # interface; the table's "Off by" column and the CSV say which method worked.
        for line, via in (("apmoff: powering off via acpi (S5: PM1a_CNT 0604h, "
                           "SLP_TYPa 0)", "acpi"),
                          ("apmoff: powering off via efi (ResetSystem, x64)", "efi")):
            text = read(fixture("off.log")).replace(
                "apmoff: powering off via rm (APM 1.2)", line)
            self.assertIn(line, text)
            path = write(os.path.join(self.dir, "x.log"), text + "\nACPI control: soft "
                         "power off\n")
            [o] = inputs.read_file(path, {})
            self.assertEqual((o.outcome, o.via), ("off", via))
            self.assertEqual(derived.method_of(o.via), via)
        self.assertEqual(derived.method_of("pm16"), "apm")

    def test_86box_verdict_line(self):
        # The last line of the kit's run.sh and of apmoff-sweep's logs: 86Box's own
        # verdict. A reset or triple fault after the call is a failure, a run stopped
        # at its deadline a hang; "on" (stopped after the kernel halted) and exit:N say
        # nothing, so the log's own lines decide.
        for line, outcome in (("86BOX reset secs=40", "failed"),
                              ("86BOX triple-fault secs=31", "failed"),
                              ("86BOX timeout secs=150", "hung"),
                              ("86BOX on secs=30", "unknown"),
                              ("86BOX exit:1 secs=2", "unknown"),
                              ("86BOX poweroff", "unknown")):      # no secs: not the line
            path = write(os.path.join(self.dir, "x.log"),
                         read(fixture("off.log")) + "\n" + line + "\n")
            [o] = inputs.read_file(path, {})
            self.assertEqual(o.outcome, outcome, line)

    def test_capture_line_can_say_hung(self):
        path = write(os.path.join(self.dir, "x.log"),
                     read(fixture("off.log")) + "\napmoff-outcome: hung\n")
        [o] = inputs.read_file(path, {})
        self.assertEqual(o.outcome, "hung")

    def test_boots_split_at_either_banner(self):
        for banner in ("apmoff: apmoff 0.1:", "apmoff: version 0.1:"):
            text = (read(fixture("survey.log")) + read(fixture("failed.log"))).replace(
                "apmoff: apmoff 0.1:", banner)
            obs = inputs.read_file(write(os.path.join(self.dir, "x.log"), text), {})
            self.assertEqual([o.outcome for o in obs], ["none", "failed"], banner)

    def test_outcome_option_fills_only_the_undecided(self):
        r = tool(self.db, "add", "--outcome", "off", fixture("off.log"),
                 fixture("failed.log"), fixture("survey.log"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--outcome off ignored: the log shows failed", r.stdout)
        conn = database.connect(self.db)
        got = sorted((os.path.basename(x["source"]), x["outcome"], x["outcome_source"])
                     for x in database.reports(conn))
        self.assertEqual(got, [("failed.log", "failed", "log"), ("off.log", "off", "person"),
                               ("survey.log", "none", "")])

    def test_prompt_asks_the_person(self):
        # The prompt reads the terminal; here stdin is a pipe, so the code is driven
        # directly with a fake terminal.
        [o] = self.obs("off.log")
        answers = iter(["maybe", "hung"])
        import builtins
        from tools.apmoff_collect import cli
        saved = builtins.input
        builtins.input = lambda prompt="": next(answers)
        try:
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(cli.ask_outcome(o, "Foo Bar"), "hung")
        finally:
            builtins.input = saved
        self.assertIn("answer off, failed, hung", err.getvalue())


class Importing(Tmp):
    def test_same_log_twice_is_one_row(self):
        for _ in range(2):
            r = tool(self.db, "add", fixture("survey.log"), fixture("failed.log"))
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("0 reports added, 2 already there", r.stdout)
        self.assertEqual(counts(self.db), (2, 2))

    def test_off_by_lists_each_method_that_worked(self):
        # One machine powered off once through APM and once through ACPI: the table's
        # "Off by" column names both.
        text = read(fixture("off.log"))
        apm = write(os.path.join(self.dir, "apm.log"), text + "\napmoff-outcome: off\n")
        acpi = write(os.path.join(self.dir, "acpi.log"), text.replace(
            "apmoff: powering off via rm (APM 1.2)",
            "apmoff: powering off via acpi (S5: PM1a_CNT 0604h, SLP_TYPa 0)").replace(
            '"options":""', '"options":"method=acpi"') + "\napmoff-outcome: off\n")
        r = tool(self.db, "add", apm, acpi)
        self.assertEqual(r.returncode, 0, r.stderr)
        [m] = database.machines(database.connect(self.db))
        self.assertEqual(m["columns"]["off_methods"], "acpi apm")

    def test_same_report_as_json_file_is_the_same_row(self):
        tool(self.db, "add", fixture("survey.log"))
        line = [l for l in read(fixture("survey.log")).splitlines()
                if l.startswith("apmoff: survey {")][0]
        path = write(os.path.join(self.dir, "survey.json"), line[len("apmoff: survey "):])
        r = tool(self.db, "add", path)
        self.assertIn("0 added, 1 already there", r.stdout)
        self.assertEqual(counts(self.db), (1, 1))

    def test_malformed_json_is_named_and_skipped(self):
        tool(self.db, "add", fixture("survey.log"))
        before = dump(self.db)
        bad = write(os.path.join(self.dir, "broken.json"), '{"schema": 1, "apm": {"pres')
        notschema = write(os.path.join(self.dir, "list.json"),
                          '[{"schema": 1, "apm": {}}, {"no": "schema"}]')
        r = tool(self.db, "add", bad, notschema)
        self.assertEqual(r.returncode, 1)
        self.assertIn("skipped %s: the JSON does not parse" % bad, r.stderr)
        self.assertIn("skipped %s: list.json[1]: the survey has no integer" % notschema,
                      r.stderr)
        self.assertEqual(dump(self.db), before)    # not even list.json[0]

    def test_log_with_a_broken_boot_is_not_half_imported(self):
        good = read(fixture("survey.log"))
        broken = read(fixture("failed.log")).replace('"apm":{', '"apm":{{', 1)
        path = write(os.path.join(self.dir, "two-boots.log"), good + broken)
        r = tool(self.db, "add", path)
        self.assertEqual(r.returncode, 1)
        # The file named once; the boot, the log's line, which line, the byte.
        self.assertRegex(r.stderr, r"skipped \S*two-boots.log: boot 2, log line \d+ \(the "
                                   r"survey line\): the JSON does not parse at byte \d+ of "
                                   r"\d+: ")
        self.assertEqual(counts(self.db), (0, 0))

    def test_text_without_reports_and_pictures_without_qr_are_skipped(self):
        text = write(os.path.join(self.dir, "notes.txt"), "nothing here\n")
        from PIL import Image
        blank = os.path.join(self.dir, "blank.png")
        Image.new("L", (200, 200), 255).save(blank)
        r = tool(self.db, "add", text, blank, os.path.join(self.dir, "missing.log"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("notes.txt: no 'apmoff: survey {...}'", r.stderr)
        self.assertIn("blank.png: zbarimg found no QR code", r.stderr)
        self.assertIn("missing.log: No such file", r.stderr)

    def test_transaction_failure_leaves_the_database_unchanged(self):
        tool(self.db, "add", fixture("failed.log"))
        before = dump(self.db)
        # Two boots in one capture (the survey, then the check of the same machine); the
        # database refuses the second insert: nothing of the file may stay.
        capture = write(os.path.join(self.dir, "capture.log"),
                        read(fixture("survey.log")) + read(fixture("check.log")))
        conn = database.connect(self.db)
        conn.execute("CREATE TEMP TRIGGER refuse BEFORE INSERT ON reports "
                     "WHEN NEW.kind = 'check' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        with self.assertRaises(sqlite3.IntegrityError):
            database.add_observations(conn, inputs.read_file(capture, {}))
        conn.close()
        self.assertEqual(dump(self.db), before)
        # ... and the same file goes in whole once the database takes it.
        r = tool(self.db, "add", capture)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(counts(self.db), (2, 3))

    def test_check_without_a_survey_needs_a_machine(self):
        r = tool(self.db, "add", fixture("check.log"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("give --machine ID", r.stderr)
        self.assertEqual(counts(self.db), (0, 0))
        tool(self.db, "add", fixture("failed.log"))
        r = tool(self.db, "add", "--machine", "1", fixture("check.log"))
        self.assertEqual(r.returncode, 0, r.stderr)
        conn = database.connect(self.db)
        [m] = database.machines(conn)
        self.assertEqual(m["columns"]["check"], "22 passed, 9 failed")

    def test_csv_round_trips(self):
        capture = write(os.path.join(self.dir, "capture.log"),
                        read(fixture("survey.log")) + read(fixture("check.log")))
        tool(self.db, "add", "--outcome", "hung", capture, fixture("failed.log"),
             fixture("off.log"))
        out = os.path.join(self.dir, "r.csv")
        r = tool(self.db, "csv", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        conn = database.connect(self.db)
        db_rows = database.reports(conn)
        self.assertEqual(len(rows), len(db_rows))
        for row, dbr in zip(rows, db_rows):
            self.assertEqual(int(row["report_id"]), dbr["id"])
            self.assertEqual(row["outcome"], dbr["outcome"])
            self.assertEqual(row["via"], dbr["via"])
            self.assertEqual(json.loads(row["survey_json"]) if row["survey_json"] else None,
                             dbr["survey"])
            self.assertEqual(json.loads(row["check_json"]) if row["check_json"] else None,
                             dbr["check"])
        self.assertEqual([r["outcome"] for r in rows], ["none", "none", "failed", "hung"])
        self.assertEqual(rows[2]["offered"], "rm pm16 pm32")
        self.assertEqual(rows[1]["check"], "22 passed, 9 failed")


class DamagedLines(Tmp):
    """Since 0.4 each survey and check line is followed by its length and CRC-32
    (`apmoff: sum: survey line N bytes, CRC-32 X`): a line damaged on its way (a
    cable, a loaded host: `make run` once lost bytes so) is named by its log line and
    left out, and the rest of the log goes in. A log without sums whose JSON does not
    parse is refused, naming the log's line, which line it is and where it breaks."""

    def log(self, name, boots):
        """A log of boots, each fixture survey.log's survey with its kernel's sum line;
        damage=True cuts 20 bytes out of that boot's JSON after the sum was made."""
        base = [l for l in read(fixture("survey.log")).splitlines()
                if l.startswith("apmoff: ")]
        lines = []
        for label, damage in boots:
            for l in base:
                if not l.startswith("apmoff: survey {"):
                    lines.append(l)
                    continue
                report = json.loads(l[len("apmoff: survey "):])
                report["label"] = label
                text = json.dumps(report, separators=(",", ":"))
                shown = text[:100] + text[120:] if damage else text
                lines.append("apmoff: survey " + shown)
                lines.append("apmoff: sum: survey line %d bytes, CRC-32 %08X"
                             % (len(text), zlib.crc32(text.encode())))
        return write(os.path.join(self.dir, name), "\n".join(lines) + "\n")

    def survey_line(self, path, n=1):
        return [i for i, l in enumerate(read(path).splitlines(), 1)
                if l.startswith("apmoff: survey {")][n - 1]

    def test_a_damaged_line_is_named_and_the_rest_kept(self):
        path = self.log("two.log", [("first", True), ("second", False)])
        r = tool(self.db, "add", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 added", r.stdout)
        self.assertIn("note: log line %d: the survey line is damaged" % self.survey_line(path),
                      r.stdout)
        conn = database.connect(self.db)
        [label] = [json.loads(row[0]).get("label") for row in
                   conn.execute("SELECT survey_json FROM reports")]
        self.assertEqual(label, "second")

    def test_a_log_of_damaged_lines_only_is_refused_by_line(self):
        path = self.log("bad.log", [("only", True)])
        r = tool(self.db, "add", path)
        self.assertEqual(r.returncode, 1)
        self.assertIn("skipped %s: no report left: log line %d: the survey line is damaged"
                      % (path, self.survey_line(path)), r.stderr)
        self.assertEqual(counts(self.db), (0, 0))

    def test_an_intact_line_passes_its_sum(self):
        r = tool(self.db, "add", self.log("good.log", [("fine", False)]))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("damaged", r.stdout + r.stderr)

    def test_a_log_without_sums_names_the_line_that_does_not_parse(self):
        path = self.log("old.log", [("old", True)])
        write(path, "\n".join(l for l in read(path).splitlines()
                              if not l.startswith("apmoff: sum:")) + "\n")
        r = tool(self.db, "add", path)
        self.assertEqual(r.returncode, 1)
        line = [l for l in r.stderr.splitlines() if l.startswith("skipped ")][0]
        self.assertRegex(line, r"^skipped %s: log line %d \(the survey line\): the JSON does "
                         r"not parse at byte \d+ of \d+: " % (re.escape(path),
                                                             self.survey_line(path)))
        self.assertEqual(line.count("old.log"), 1, line)


class Schema(Tmp):
    """PRAGMA user_version: the schema's number, and the upgrade of an older database."""

    def version(self):
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()

    def test_new_database_has_the_current_version(self):
        database.connect(self.db).close()
        self.assertEqual(self.version(), database.SCHEMA_VERSION)

    def test_version_0_database_is_upgraded_in_place(self):
        conn = sqlite3.connect(self.db)
        conn.executescript(read(fixture("schema0.sql")))   # made by the code before the number
        conn.close()
        self.assertEqual((self.version(), counts(self.db)), (0, (2, 2)))
        before = dump(self.db)
        database.connect(self.db).close()
        self.assertEqual(self.version(), database.SCHEMA_VERSION)
        # The rows, as they were, but for their keys: version 2's keys leave out a
        # person's outcome (database.key_of); version 3 adds the collector, unknown ('')
        # for reports imported before.
        after = dump(self.db)
        without_key = lambda rows: [r[:1] + r[2:] for r in rows]
        self.assertEqual(after[0], before[0])
        self.assertEqual([r[-1] for r in after[1]], ["", ""])
        self.assertEqual(without_key([r[:-1] for r in after[1]]), without_key(before[1]))
        self.assertNotEqual([r[1] for r in after[1]], [r[1] for r in before[1]])
        r = tool(self.db, "add", fixture("survey.log"), fixture("off.log"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 reports added, 1 already there", r.stdout)
        self.assertEqual(counts(self.db)[1], 3)

    def test_newer_database_is_refused(self):
        database.connect(self.db).close()
        conn = sqlite3.connect(self.db)
        conn.execute("PRAGMA user_version = %d" % (database.SCHEMA_VERSION + 1))
        conn.close()
        r = tool(self.db, "list")
        self.assertEqual(r.returncode, 2)
        self.assertIn("knows up to %d" % database.SCHEMA_VERSION, r.stderr)

    def test_migration_steps_run_in_order_each_in_a_transaction(self):
        conn = database.connect(self.db)
        ran = []

        def add_column(c):
            ran.append(database.SCHEMA_VERSION)
            c.execute("ALTER TABLE machines ADD COLUMN note TEXT NOT NULL DEFAULT ''")

        def broken(c):
            ran.append(database.SCHEMA_VERSION + 1)
            c.execute("CREATE TABLE half_done (x)")
            raise sqlite3.OperationalError("step failed")

        steps = {database.SCHEMA_VERSION: add_column, database.SCHEMA_VERSION + 1: broken}
        with self.assertRaises(sqlite3.OperationalError):
            database.migrate(conn, database.SCHEMA_VERSION + 2, steps)
        self.assertEqual(ran, [database.SCHEMA_VERSION, database.SCHEMA_VERSION + 1])
        self.assertEqual(database.schema_version(conn), database.SCHEMA_VERSION + 1)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        self.assertNotIn("half_done", names)               # the failed step rolled back
        self.assertIn("note", [r[1] for r in conn.execute("PRAGMA table_info(machines)")])
        conn.close()

    def test_previous_of_older_kernels_reads_as_record(self):
        old = schema.validate_survey({"schema": 1, "previous": "reset:kbd:warm"})
        self.assertEqual(old, {"schema": 1, "record": "reset:kbd:warm"})
        new = {"schema": 1, "record": "power-off:rm:warm", "previous": "x"}
        self.assertEqual(schema.validate_survey(dict(new))["record"], "power-off:rm:warm")
        with self.assertRaises(schema.Invalid):
            schema.validate_survey({"schema": 1, "previous": 7})


class Identity(unittest.TestCase):
    BASE = {"schema": 1, "firmware": "bios", "bios": {"date": "06/23/99",
                                                       "model_byte": "0xFC"},
            "smbios": {"manufacturer": "Foo", "product": "Bar"}, "apm": {}}

    def variant(self, **changes):
        s = json.loads(json.dumps(self.BASE))
        for path, value in changes.items():
            node = s
            keys = path.split("__")
            for k in keys[:-1]:
                node = node.setdefault(k, {})
            node[keys[-1]] = value
        return derived.machine_identity(s)

    def test_uuid_wins_and_junk_is_ignored(self):
        a = self.variant(smbios__uuid="5D7A1C2E-1111-2222-3333-444455556666")
        b = self.variant(smbios__uuid="5d7a1c2e-1111-2222-3333-444455556666",
                         bios__date="01/01/95")
        self.assertEqual(a, b)
        self.assertEqual(self.variant(smbios__uuid="00000000-0000-0000-0000-000000000000"),
                         self.variant())
        self.assertNotEqual(self.variant(smbios__serial="A1"), self.variant(smbios__serial="A2"))
        self.assertEqual(self.variant(smbios__serial="To Be Filled By O.E.M."), self.variant())

    def test_rom_fields_and_label_separate_machines(self):
        plain = self.variant()
        # Without SMBIOS (a 1990s board) the ROM's CRC-32 tells machines apart; with
        # it, the CRC is left out (SeaBIOS changes its own F-segment at run time).
        no_smbios = self.variant(smbios={"found": False})
        self.assertNotEqual(self.variant(smbios={"found": False}, bios__rom_crc32="0x12345678"),
                            no_smbios)
        self.assertEqual(self.variant(bios__rom_crc32="0x12345678"), plain)
        self.assertNotEqual(self.variant(bios__strings=["Award Modular BIOS v4.51PG"]), plain)
        self.assertNotEqual(self.variant(label="attic"), plain)
        self.assertNotEqual(self.variant(label="attic"), self.variant(label="cellar"))

    def test_vendor_from_rom_strings(self):
        s = {"bios": {"strings": ["Copyright (C) 1984-95 Award Software, Inc."]}}
        self.assertEqual(derived.bios_vendor(s), "Award")
        self.assertEqual(derived.bios_vendor({}), "unknown")
        # A 1993 AMIBIOS as 86Box's ECS Panda 386V has it: the company's name cut at
        # 64 characters, and IBM named for a CPU.
        s = {"bios": {"strings": ["AMIBIOS System Configuration (C) 1985-1993, American "
                                  "Megatren", "AMIBIOS Date       :", "IBM 386SLC"]}}
        self.assertEqual(derived.bios_vendor(s), "AMI")


class Decoders(unittest.TestCase):
    """A new payload format is one decoder function; a paged one returns Pages."""

    def test_paged_payload_joins_across_pictures(self):
        def paged(text, limits):
            m = re.match(r"^P(\d)/(\d) (\w+) (.*)$", text, re.S)
            if not m:
                return None
            return inputs.Page(m.group(3), int(m.group(1)), int(m.group(2)), m.group(4))

        inputs.DECODERS.insert(0, paged)
        try:
            payload = json.dumps({"schema": 1, "apm": {"present": False},
                                  "options": "action=survey"})
            pages = {}
            for i, chunk in enumerate((payload[:20], payload[20:40], payload[40:]), 1):
                r = inputs.decode_payload("P%d/3 m1 %s" % (i, chunk))
                pages.setdefault(r.group, {})[r.index] = (r, "photo%d.jpg" % i, "image")
            obs, problems = inputs.join_pages(pages)
            self.assertEqual(problems, [])
            self.assertEqual(obs[0].survey, json.loads(payload))
            self.assertEqual(obs[0].outcome, "none")
            del pages["m1"][2]
            obs, problems = inputs.join_pages(pages)
            self.assertEqual(obs, [])
            self.assertIn("page(s) 2 of 3 missing", problems[0][1])
        finally:
            inputs.DECODERS.remove(paged)


class Hardware(unittest.TestCase):
    """The machine page names the PCI functions from pci.ids (read by the collector,
    never the kernel), and the table carries the chipset's verdict."""
    SURVEY = {"schema": 1, "chipset": {"name": "Intel 430HX (PIIX3)", "soft_off": "no",
                                       "explain": "the PIIX3 south bridge has no soft-off"},
              "pci": {"mechanism": 1, "functions": ["00:00.0 8086:1250 060000 03",
                                                    "00:07.1 8086:7010 010180 00 1/0E",
                                                    "not a function"]},
              "video": {"adapter": "EGA"}, "disks": {"floppy_a": "1.2M", "floppy_b": "none",
                                                    "hdd": []},
              "memory": {"int12_kb": 640, "ext88_kb": 7168},
              "cpu": {"clock_khz": 33330, "clock_method": "div-loop", "fpu_kind": "387"}}

    def test_pci_ids_file_is_read(self):
        with tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as f:
            f.write("# comment\n8086  Intel Corporation\n\t1250  430HX - 82439HX TXC\n"
                    "\t\t1234 5678  a subsystem\n1106  VIA Technologies, Inc.\n"
                    "C 00  Unclassified device\n\t00  Non-VGA\n")
        try:
            db = pciids.load(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(db["8086"][0], "Intel Corporation")
        self.assertEqual(db["8086"][1], {"1250": "430HX - 82439HX TXC"})
        self.assertEqual(set(db), {"8086", "1106"})        # the class list is not vendors
        self.assertEqual(pciids.load("/nonexistent"), {})

    def test_machine_page_names_functions(self):
        saved = pciids._vendors
        pciids._vendors = {"8086": ("Intel Corporation", {"1250": "430HX - 82439HX TXC"})}
        try:
            html = report.hardware(self.SURVEY)
        finally:
            pciids._vendors = saved
        for text in ("Intel 430HX (PIIX3), soft-off no", "the PIIX3 south bridge has no "
                     "soft-off", "430HX - 82439HX TXC", "Intel Corporation", "00:07.1",
                     "33.3 MHz (div-loop)", "EGA", "A: 1.2M, B: none", "7168 KiB"):
            self.assertIn(text, html)
        self.assertNotIn("not a function", html)
        d = derived.derived(self.SURVEY, None)
        self.assertEqual((d["chipset"], d["soft_off"]), ("Intel 430HX (PIIX3)", "no"))


class PackedPayload(unittest.TestCase):
    """APMOFF2: what the kernel's own encoder drew on QEMU's screen (the symbol's text
    as zbarimg read it, fixtures/apmoff2-qemu-pc.txt) unpacks to that run's serial
    line byte for byte; a damaged symbol is refused, never half-read."""

    def setUp(self):
        with open(os.path.join(FIXTURES, "apmoff2-qemu-pc.txt")) as f:
            self.symbol = f.read()
        with open(os.path.join(FIXTURES, "apmoff2-qemu-pc.json")) as f:
            self.line = f.read()

    def test_unpacks_to_the_serial_line(self):
        self.assertEqual(qrpages.unpack(self.symbol), self.line)
        self.assertEqual(inputs.decode_payload(self.symbol), json.loads(self.line))
        self.assertEqual(qrpages.survey_line([self.symbol]), self.line)

    def test_each_dictionary_is_the_one_its_prefix_names(self):
        # The preset dictionary is part of its payload's format (its Adler-32 is the
        # zlib stream's DICTID): photos taken today must inflate for ever, so a changed
        # dictionary needs a new tag (APMOFF4), not an edit of these numbers.
        for prefix, adler in (("APMOFF2:", 0x5F12402F), ("APMOFF3:", 0x22D9A627)):
            self.assertEqual(zlib.adler32(qrpages.zdict(prefix)), adler, prefix)

    def test_apmoff3_reads_the_same_line(self):
        # What the kernel draws from 0.4 on: its own deflate against survey3.zdict.
        from tests.collect import harness   # it imports this module: not at the top
        harness.build_mkqr()
        symbol = harness.kernel_packed(self.line)
        self.assertTrue(symbol.startswith("APMOFF3:"))
        self.assertLess(len(symbol), len(self.symbol))
        self.assertEqual(qrpages.unpack(symbol), self.line)
        self.assertEqual(inputs.decode_payload(symbol), json.loads(self.line))

    def test_damage_is_refused(self):
        cut = self.symbol[:-6]
        other = self.symbol[:100] + ("0" if self.symbol[100] != "0" else "1") + \
            self.symbol[101:]
        for bad in (cut, other, self.symbol + "A", "APMOFF2:abc", "APMOFF3:abc",
                    "APMOFF3:" + self.symbol[len("APMOFF2:"):]):
            with self.assertRaises(inputs.BadInput):
                inputs.decode_payload(bad)


class ScannedText(Tmp):
    """What a phone's QR scanner gives is enough: the text of the symbol (APMOFF2) or
    of each page (APMOFF1), in a file, on standard input, or as the argument itself.
    The APMOFF2 text is what zbarimg read off QEMU's screen; the pages are the
    kernel's own (survey/qrpages.c through tests/collect/mkqr.c) of that run's real
    survey line, cut for a screen that holds symbols of version 14 at most."""

    def setUp(self):
        super().setUp()
        from tests.collect import harness   # it imports this module: not at the top
        harness.build_mkqr()
        with open(fixture("apmoff2-qemu-pc.txt")) as f:
            self.symbol = f.read().strip()
        with open(fixture("apmoff2-qemu-pc.json")) as f:
            self.line = f.read().strip()
        self.pages = subprocess.run([harness.MKQR, "pages", "14"], input=self.line.encode(),
                                    stdout=subprocess.PIPE, check=True
                                    ).stdout.decode().splitlines()
        self.assertGreater(len(self.pages), 2)

    def stored(self):
        conn = sqlite3.connect(self.db)
        try:
            return [(json.loads(r[0]), r[1]) for r in conn.execute(
                "SELECT survey_json, source_kind FROM reports ORDER BY id")]
        finally:
            conn.close()

    def test_a_file_of_the_packed_symbol(self):
        scan = write(os.path.join(self.dir, "scan.txt"), self.symbol + "\n")
        r = tool(self.db, "add", scan, "--no-prompt")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.stored(), [(json.loads(self.line), "scan")])

    def test_standard_input_and_an_argument(self):
        r = tool(self.db, "add", "-", "--no-prompt", stdin=self.symbol + "\r\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("standard input", r.stdout)
        self.assertEqual(counts(self.db), (1, 1))
        # the same survey again, as a scanner's text pasted as the argument
        r = tool(self.db, "add", self.symbol, "--no-prompt")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("0 reports added, 1 already there", r.stdout)
        self.assertIn("argument 1", r.stdout)

    def test_every_page_in_one_text_in_any_order(self):
        shuffled = self.pages[1::2] + self.pages[0::2]
        scan = write(os.path.join(self.dir, "pages.txt"), "\n\n".join(shuffled) + "\n")
        r = tool(self.db, "add", scan, "--no-prompt")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.stored(), [(json.loads(self.line), "scan")])

    def test_pages_as_arguments_and_files(self):
        first = write(os.path.join(self.dir, "page1.txt"), self.pages[0])
        r = tool(self.db, "add", first, *self.pages[1:], "--no-prompt")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("paged QR text", r.stdout)
        self.assertEqual(self.stored(), [(json.loads(self.line), "scan")])

    def test_a_page_missing_is_named(self):
        r = tool(self.db, "add", *(self.pages[:1] + self.pages[2:]), "--no-prompt")
        self.assertEqual(r.returncode, 1)
        self.assertIn("page(s) 2 of %d missing" % len(self.pages), r.stderr)
        self.assertEqual(counts(self.db), (0, 0))

    def test_text_that_is_not_apmoffs(self):
        scan = write(os.path.join(self.dir, "wifi.txt"),
                     self.symbol + "\nWIFI:S:attic;T:WPA;P:secret;;\n")
        r = tool(self.db, "add", scan, "--no-prompt")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ignored 1 QR code that is not apmoff's", r.stdout)
        self.assertEqual(counts(self.db), (1, 1))
        bad = write(os.path.join(self.dir, "cut.txt"), self.symbol[:-8])
        r = tool(self.db, "add", bad, "--no-prompt")
        self.assertEqual(r.returncode, 1)
        self.assertIn("skipped", r.stderr)


class Cli(Tmp):
    def test_help_and_errors(self):
        r = subprocess.run([TOOL, "--help"], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 0)
        for word in ("add FILE", "report DIR", "csv", "APMOFF_DB"):
            self.assertIn(word, r.stdout)
        r = subprocess.run([TOOL, "add", "--help"], stdout=subprocess.PIPE,
                           universal_newlines=True)
        self.assertIn("apmoff-outcome: off|failed|hung", r.stdout)
        r = tool(os.path.join(self.dir, "none.db"), "report", self.dir)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no database", r.stderr)

    def test_version_is_apmoffs_and_each_report_names_its_importer(self):
        with open(os.path.join(ROOT, "VERSION")) as f:
            release = f.read().strip()
        r = subprocess.run([TOOL, "--version"], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"^apmoff-collect %s \(commit [0-9a-f]{40}(-dirty)?, "
                         r"database schema %d\)$" % (re.escape(release),
                                                       database.SCHEMA_VERSION))
        db = os.path.join(self.dir, "v.db")
        log = os.path.join(self.dir, "v.log")
        write(log, read(fixture("survey.log")).replace(
            'apmoff: survey {"schema":1,', 'apmoff: survey {"schema":1,"version":"9.8",'
            '"commit":"%s",' % ("ab" * 20), 1))
        self.assertEqual(tool(db, "add", "--no-prompt", log).returncode, 0)
        conn = database.connect(db)
        self.assertEqual([x["collector"] for x in database.reports(conn)],
                         ["apmoff-collect " + release])
        rows = list(csvfile.csv_rows(conn))
        conn.close()
        self.assertEqual((rows[0]["apmoff_version"], rows[0]["apmoff_commit"],
                          rows[0]["collector"]), ("9.8", "ab" * 20, "apmoff-collect " + release))


# --- end to end: live emulator surveys, Chromium ---------------------------------------

def smbios(vendor, date, maker, product):
    return ["-smbios", "type=0,vendor=%s,date=%s" % (vendor, date),
            "-smbios", "type=1,manufacturer=%s,product=%s" % (maker, product)]


def emulator_runs():
    """(name, Case) of the live runs: QEMU -kernel runs and two Bochs runs. A power-off
    that works prints no survey line (it does only what the call needs first): the
    power-off runs are survey,off runs, as a user who wants both would boot."""
    from tests.emu.case import Case
    from tests.emu.judges import QrDecodes
    q = "qemu"
    award = smbios("Award Software International Inc.", "11/22/1996", "Vintage PC Co",
                   "486DX2-66")
    phoenix = smbios("Phoenix Technologies Ltd.", "07/04/1997", "Zenith", "Z-Station")
    return [
        ("award-486", Case("c-award-486", q, "seabios", "pc", "kernel", "action=survey wait=0",
                           "halt", 20, extra=award)),
        ("award-486-check", Case("c-award-486-check", q, "seabios", "pc", "kernel",
                                 "action=check", "halt", 20, extra=award)),
        ("ami-qr", Case("c-ami-qr", q, "seabios", "pc", "kernel", "action=survey", "halt", 30,
                        judges=[QrDecodes()],
                        extra=smbios("American Megatrends Inc.", "03/15/1995", "Acme",
                                     "Deskpro 4-66"))),
        ("phoenix-off", Case("c-phoenix-off", q, "seabios", "pc", "kernel",
                             "action=survey,off wait=0", "poweroff", 20, extra=phoenix)),
        ("phoenix-pm32", Case("c-phoenix-pm32", q, "seabios", "pc", "kernel",
                              "action=survey,off wait=0 inject=rm-off", "poweroff", 20,
                              extra=phoenix)),
        ("compaq-fail", Case("c-compaq-fail", q, "seabios", "pc", "kernel",
                             "inject=rm-off,pm32-off,pm16-off", "halt", 20,
                             extra=smbios("Compaq", "02/10/1994", "Compaq", "Deskpro XL"))),
        ("q35-off", Case("c-q35-off", q, "seabios", "q35", "kernel",
                         "action=survey,off wait=0", "poweroff", 20)),
        ("isapc-hang", Case("c-isapc-hang", q, "seabios", "isapc", "kernel",
                            "action=survey,off wait=0", "hang", 20,
                            hang_after=r"^apmoff: powering off via rm",
                            extra=["-smbios", "type=1,manufacturer=Zeos,product=Pantera"])),
        ("mrbios-486", Case("c-mrbios-486", q, "seabios", "pc", "kernel", "action=survey wait=0",
                            "halt", 20, extra=["-cpu", "486", "-m", "4"] +
                            smbios("MR BIOS", "05/05/1995", "Gateway", "4DX-33V"))),
        ("toshiba-pm16", Case("c-toshiba-pm16", q, "seabios", "pc", "kernel",
                              "action=survey,off wait=0 interface=pm16", "poweroff", 20,
                              extra=smbios("TOSHIBA", "09/01/1998", "TOSHIBA",
                                           "T4900CT"))),
        ("bochs-rombios", Case("c-bochs-rombios", "bochs", "bochs", "-", "iso",
                               "action=survey,off wait=0", "poweroff", 60)),
        ("bochs-seabios", Case("c-bochs-seabios", "bochs", "seabios", "-", "iso",
                               "action=survey,off wait=0", "poweroff", 60)),
    ]


def run_emulators(work):
    """Runs every configuration, one emulator at a time; returns {name: (verdict,
    workdir)}. Serial logs are in each workdir's serial.txt."""
    from tests.emu import harness
    done = {}
    for name, case in emulator_runs():
        workdir = os.path.join(work, name)
        os.makedirs(workdir)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)   # the harness's QMP socket
            verdict, seconds, serial = harness.RUNNERS[case.emulator](case, workdir)
        done[name] = (verdict, workdir)
        print("  emulator %-14s %-9s %.1f s" % (name, verdict, seconds), file=sys.stderr,
              flush=True)
    return done


def photos(screens, work):
    """QEMU screenshots of the QR pages as a phone might see them: each picture at
    camera resolution, turned, blurred, dim and low in contrast, JPEG-compressed; the
    set twice, differently (the same report, so one row); the first page once with
    only its top half in the frame (unreadable, however large the modules); and the
    lossless pages."""
    from PIL import Image, ImageFilter

    def photo(im, up, angle, blur, quality, path):
        big = im.resize((im.width * up, im.height * up), Image.NEAREST)
        p = big.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=110)
        p = p.filter(ImageFilter.GaussianBlur(blur)).point(lambda v: 40 + v * 160 // 255)
        p.save(path, "JPEG", quality=quality)
        return path

    good_a, good_b, pngs, bad = [], [], [], None
    for i, screen in enumerate(screens, 1):
        with Image.open(screen) as im:
            im = im.convert("L")
            good_a.append(photo(im, 3, 7, 2.0, 40, os.path.join(work, "ami-p%d-a.jpg" % i)))
            good_b.append(photo(im, 4, -5, 3.0, 35, os.path.join(work, "ami-p%d-b.jpg" % i)))
            if i == 1:
                half = im.crop((0, 0, im.width, im.height // 2))
                bad = photo(half, 3, 3, 2.0, 30, os.path.join(work, "ami-half.jpg"))
            pngs.append(os.path.join(work, "ami-screen-%d.png" % i))
            im.save(pngs[-1])
    return good_a, good_b, bad, pngs


class DomTable(HTMLParser):
    """The rows of table#compat as {data-col: text}, with each row's hidden flag."""

    def __init__(self):
        super().__init__()
        self.rows, self.in_table, self.col, self.text = [], False, None, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "compat":
            self.in_table = True
        elif self.in_table and tag == "tr" and "data-machine" in a:
            self.rows.append({"_hidden": "hidden" in a})
        elif self.in_table and tag == "td" and self.rows:
            self.col, self.text = a.get("data-col"), ""

    def handle_endtag(self, tag):
        if tag == "td" and self.col:
            self.rows[-1][self.col] = self.text.strip()
            self.col = None
        elif tag == "table":
            self.in_table = False

    def handle_data(self, data):
        if self.col:
            self.text += data


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


def chromium(*args):
    profile = tempfile.mkdtemp(prefix="apmoff-chromium-")
    try:
        return subprocess.run(["chromium"] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile]
                              + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, universal_newlines=True,
                              timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def dom_rows(url):
    r = chromium("--dump-dom", url)
    p = DomTable()
    p.feed(r.stdout)
    return p.rows


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(ROOT, "build", "apmoff.elf")):
            raise unittest.SkipTest("build/apmoff.elf is missing (run make)")
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
        cls.db = os.path.join(OUT, "apmoff.db")
        cls.runs = run_emulators(os.path.join(OUT, "runs"))
        serial = {n: os.path.join(w, "serial.txt") for n, (v, w) in cls.runs.items()}
        cls.verdicts = {n: v for n, (v, w) in cls.runs.items()}
        add = []

        def step(*args):
            r = tool(cls.db, "add", "--no-prompt", *args)
            add.append(r)
            return r

        # Two boots of one machine in one serial capture: the survey, then the check.
        capture = write(os.path.join(OUT, "award-486-capture.log"),
                        read(serial["award-486"]) + read(serial["award-486-check"]))
        # A serial capture that knew the machine went off says so on a line of its own.
        phoenix = write(os.path.join(OUT, "phoenix-capture.log"),
                        read(serial["phoenix-off"]) + "apmoff-outcome: off\n")
        # Bochs: its own log says "Shutdown port: shutdown requested".
        bochs = []
        for n in ("bochs-rombios", "bochs-seabios"):
            bochs.append(write(os.path.join(OUT, n + ".log"),
                               read(serial[n]) + read(os.path.join(cls.runs[n][1],
                                                                   "bochs.log"))))
        # The QR screen, photographed badly; and once so badly that nothing reads it.
        shots = sorted(glob.glob(os.path.join(cls.runs["ami-qr"][1], "screen-*.ppm")))
        good_a, good_b, bad, pngs = photos(shots, OUT)
        cls.photo_add = step(*good_a, bad)
        cls.photo_again = step(*good_b)
        cls.first = step(capture, phoenix, serial["compaq-fail"], serial["mrbios-486"],
                         *bochs)
        step("--outcome", "off", serial["phoenix-pm32"], serial["q35-off"],
             serial["toshiba-pm16"])
        step("--outcome", "hung", serial["isapc-hang"])
        # The same QR screen as the lossless screenshot, and the serial log of that run:
        # one report, already there.
        cls.again = step(*pngs, serial["ami-qr"], capture)
        # A survey as a vintage machine gives it: label=, an Award ROM's CRC-32 and
        # strings, and no SMBIOS.
        future = json.loads([l for l in read(serial["mrbios-486"]).splitlines()
                             if l.startswith("apmoff: survey {")][0][len("apmoff: survey "):])
        del future["smbios"]
        future["bios"].update(rom_crc32="0x1A2B3C4D", date="04/18/93",
                              strings=["Award Modular BIOS v4.50G", "(C) 1984-93 Award"])
        future["label"] = "attic-386"
        future["options"] = "action=survey,off label=attic-386"
        step("--outcome", "failed", write(os.path.join(OUT, "attic-386.json"),
                                          json.dumps(future)))
        cls.add = add
        cls.report = tool(cls.db, "report", os.path.join(OUT, "report"))
        cls.index = os.path.join(OUT, "report", "index.html")
        cls.rows = dom_rows("file://" + cls.index)
        cls.shot = os.path.join(OUT, "report.png")
        chromium("--screenshot=" + cls.shot, "--window-size=1280,960",
                 "--hide-scrollbars", "file://" + cls.index)
        if UPDATE_SCREENSHOT and os.path.exists(cls.shot):
            shutil.copyfile(cls.shot, os.path.join(ROOT, "docs", "collect-report.png"))

    def row(self, machine):
        found = [r for r in self.rows if r.get("machine") == machine]
        self.assertEqual(len(found), 1, "%s in %s" % (machine, [r.get("machine")
                                                                for r in self.rows]))
        return found[0]

    def test_emulators_did_what_the_cases_say(self):
        for name, case in emulator_runs():
            want = {"halt": "quiet", "hang": "quiet"}.get(case.expect, case.expect)
            self.assertEqual(self.verdicts[name], want, name)

    def test_imports(self):
        for r in self.add:
            self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(self.photo_add.returncode, 1)     # the half one is skipped
        self.assertIn("ami-half.jpg: zbarimg found no QR code", self.photo_add.stderr)
        self.assertIn("1 reports added, 0 already there, 1 files skipped",
                      self.photo_add.stdout)
        # the other photographs of the same pages: the same report
        self.assertIn("0 reports added, 1 already there", self.photo_again.stdout)
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertIn("0 reports added, 4 already there", self.again.stdout)
        self.assertEqual(self.report.returncode, 0, self.report.stderr)

    def test_dom_table_has_every_machine(self):
        names = sorted(r["machine"] for r in self.rows)
        # 12 runs: the check and the pm32 run are of machines surveyed already; and
        # attic-386 from its JSON file.
        self.assertEqual(len(names), 11, names)
        for name in ("Vintage PC Co 486DX2-66", "Acme Deskpro 4-66", "Zenith Z-Station",
                     "Compaq Deskpro XL", "Gateway 4DX-33V", "TOSHIBA T4900CT",
                     "attic-386", "QEMU Standard PC (Q35 + ICH9, 2009)"):
            self.assertIn(name, names)
        self.assertFalse(any(r["_hidden"] for r in self.rows))

    def test_dom_cells(self):
        r = self.row("Vintage PC Co 486DX2-66")
        self.assertEqual((r["vendor"], r["bios_date"], r["apm"], r["flags"], r["offered"]),
                         ("Award", "11/22/1996", "1.2",
                          "0x0003", "rm pm16 pm32"))
        # One survey: its answers, without naming the report (derived.results_text).
        acme = self.row("Acme Deskpro 4-66")
        self.assertEqual((acme["rm"], acme["pm32"], acme["pm16"]), ("ok", "ok", "ok"))
        # Two (the survey run's, and the one a check run prints with what its
        # connects answered): each answer names the reports it came from.
        for iface in ("rm", "pm32", "pm16"):
            self.assertRegex(r[iface], r"^ok \(#\d+, #\d+\)$")
        self.assertRegex(self.row("Zenith Z-Station")["rm"], r"^ok \(#\d+, #\d+\)$")
        check = json.loads([l for l in read(os.path.join(self.runs["award-486-check"][1],
                                                         "serial.txt")).splitlines()
                            if l.startswith("apmoff: check {")][0][len("apmoff: check "):])
        self.assertEqual((r["outcome"], r["check"], r["reports"]),
                         ("not tried", derived.check_summary(check), "2"))
        self.assertRegex(r["check"], r"^\d+ passed, \d+ failed")
        self.assertEqual(self.row("Zenith Z-Station")["outcome"], "off via pm32, off via rm")
        self.assertEqual(self.row("Compaq Deskpro XL")["outcome"], "failed via pm16")
        self.assertEqual(self.row("TOSHIBA T4900CT")["outcome"], "off via pm16")
        self.assertEqual(self.row("Acme Deskpro 4-66")["reports"], "1")
        attic = self.row("attic-386")
        self.assertEqual((attic["label"], attic["rom_crc32"], attic["vendor"],
                          attic["bios_date"], attic["outcome"]),
                         ("attic-386", "0x1A2B3C4D", "Award", "04/18/93", "failed"))
        self.assertEqual(self.row("Zeos Pantera")["outcome"], "hung via rm")
        # Bochs' two BIOSes: rombios has no SMBIOS system strings (the machine is named
        # by its BIOS date: 08/01/21 in Bochs 2.7, another in 3.0), SeaBIOS says "Bochs".
        names = [r.get("machine") or "" for r in self.rows]
        rombios = [n for n in names if n.startswith("Bochs BIOS ")]
        self.assertEqual(len(rombios), 1, names)
        for name in rombios + ["Bochs Bochs"]:
            self.assertEqual(self.row(name)["outcome"], "off via rm")

    def test_sorting_and_filtering_in_the_browser(self):
        rows = dom_rows("file://%s#sort=bios_date-desc&filter=award" % self.index)
        shown = [r["machine"] for r in rows if not r["_hidden"]]
        self.assertEqual(shown, ["Vintage PC Co 486DX2-66", "attic-386"])
        rows = dom_rows("file://%s#sort=machine" % self.index)
        names = [r["machine"] for r in rows]
        self.assertEqual(names, sorted(names, key=str.lower))

    def test_machine_pages_and_charts(self):
        text = read(self.index)
        self.assertIn("APM version by BIOS year", text)
        self.assertIn("Power-off outcomes by BIOS vendor", text)
        self.assertNotRegex(text, r"<script[^>]+src=|https?://(?!www\.w3\.org/2000/svg)")
        attic = [r for r in database.machines(database.connect(self.db))
                 if r["name"] == "attic-386"][0]
        page = read(os.path.join(OUT, "report", report.machine_file(attic)))
        for field in ("bios.rom_crc32", "bios.strings", "Award Modular BIOS v4.50G", "label"):
            self.assertIn(field, page)

    def test_screenshot(self):
        from PIL import Image
        with Image.open(self.shot) as im:
            self.assertEqual(im.size, (1280, 960))
            self.assertGreater(len(im.convert("L").getcolors(65536) or range(99)), 8)


class TapResult(unittest.TextTestResult):
    n = 0

    def line(self, test, ok, extra=""):
        TapResult.n += 1
        print("%s %d %s%s" % ("ok" if ok else "not ok", TapResult.n, test.id(), extra),
              flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(test, False)

    def addError(self, test, err):
        super().addError(test, err)
        self.line(test, False)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line(test, True, " # SKIP " + reason)


def tap_main():
    """unittest's main, its results as TAP lines on stderr with --tap (how make test
    counts them)."""
    argv = [a for a in sys.argv if a != "--tap"]
    if "--tap" in sys.argv:
        unittest.main(argv=argv, testRunner=unittest.TextTestRunner(
            resultclass=TapResult, stream=sys.stderr, verbosity=0))
    else:
        unittest.main(argv=argv)


def main():
    global UPDATE_SCREENSHOT
    argv = [a for a in sys.argv if a not in ("--tap", "--update-screenshot")]
    UPDATE_SCREENSHOT = "--update-screenshot" in sys.argv
    if "--tap" in sys.argv:
        runner = unittest.TextTestRunner(resultclass=TapResult, stream=sys.stderr,
                                         verbosity=0)
        unittest.main(argv=argv, testRunner=runner)
    else:
        unittest.main(argv=argv)


if __name__ == "__main__":
    main()
