#!/usr/bin/python3
"""apmoff-collect fed by strangers: every hostile input it must refuse, run as a user
runs the program, each with its peak memory measured.

Bombs are made with the project's own encoders: QR pictures by the kernel's
survey/qr.c (tests/collect/mkqr.c, built here), an APMOFF2 stream by the kernel's
survey/deflate.c and base45.c, and larger ones by qrpages.pack() (zlib with the same
dictionary, the same Base45). Payloads too large for real symbols reach the program
through a stand-in zbarimg (tests/collect/harness.py). Then deep JSON, wrong types, a
page count of 10^9, a breaker in every field of the HTML, /dev/zero, a FIFO,
read-only, corrupt and foreign databases, the everyday commands, the chart titles
measured in headless Chromium. The second round of strangers is in test_bounds.py and
test_output.py, the fuzz targets in fuzz_collect.py.

    python3 -m tests.collect.test_hostile [-v] [--tap] [-k PATTERN]
"""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

from tests.collect.harness import (PEAK_MB, SURVEY, Tmp, bomb, build_mkqr,
                                   kernel_packed, main, paged, qr_picture, run,
                                   survey_line, variant)
from tests.collect.test_collect import FIXTURES, ROOT, TOOL, chromium, dump, read, write
from tools.apmoff_collect import database, derived, inputs, report
from tools.apmoff_collect.limits import DEFAULT as LIMITS

BREAKER = "\"'><img src=x onerror=alert(1)><svg onload=alert(2)></title><!--\x00&amp;</script>"


# --- limits ---------------------------------------------------------------------------

class Limits(Tmp):
    @classmethod
    def setUpClass(cls):
        build_mkqr()

    def test_page_count_of_1e9_and_1e7_in_a_real_picture(self):
        for count in ("1000000000", "10000000"):
            pic = qr_picture(self.path("page-%s.pgm" % count),
                             "APMOFF1 1/%s 0123ABCD %s" % (count, survey_line()[:200]))
            self.assertLess(os.path.getsize(pic), 60000)
            r = run(self.db, "add", pic, self.good())
            self.assertRefused(r, "page-%s.pgm" % count, "QR page 1 of %s:" % count,
                               "pages limit of 64")
            self.assertLess(len(r.stderr), 1000, r)      # no list of missing pages
            os.unlink(self.db)

    def test_missing_pages_are_listed_briefly(self):
        pages = paged(survey_line(), 40)
        env = self.fake_zbar()
        pics = [self.fake_picture("p%d.png" % i, [pages[i]]) for i in (0, 39)]
        r = run(self.db, "add", *pics, self.good(), env=env)
        self.assertIn("page(s) 2, 3, 4, 5, 6, 7, 8, 9 and 30 more of 40 missing", r.stderr)
        self.assertEqual(r.returncode, 1, r)

    def test_inflate_bomb_in_one_real_symbol(self):
        text = bomb(2 << 20)                 # 2 MiB inflated, in one version-40 symbol
        self.assertLess(len(text), 4296)
        pic = qr_picture(self.path("bomb.pgm"), text)
        r = run(self.db, "add", pic, self.good())
        self.assertRefused(r, "bomb.pgm", "inflated_bytes limit of 256K")

    def test_kernel_encoded_stream_past_a_lowered_limit(self):
        # The kernel's own deflate and Base45: a survey line with a 4.6 KB label (the line
        # within the kernel's SURVEY_JSON_MAX, 6144), which the default limit takes and
        # inflated_bytes=4K refuses.
        line = json.dumps(variant(label="x" * 4600), separators=(",", ":"))
        self.assertTrue(4096 < len(line) <= 6144, len(line))
        pic = qr_picture(self.path("long.pgm"), kernel_packed(line))
        r = run(self.db, "add", "--limit", "inflated_bytes=4K", pic, self.good())
        self.assertRefused(r, "long.pgm", "inflated_bytes limit of 4K")
        os.unlink(self.db)
        r = run(self.db, "add", pic)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("1 added", r.stdout)

    def test_inflate_bombs_over_pages(self):
        env = self.fake_zbar()
        # Pages of a version-40 symbol's size (4296 characters with the header):
        # 100 MiB fits in 37, within their limit, and the inflation is refused; 1 GiB
        # needs about 350, and the page limit refuses them first. Ten symbols a
        # picture (a photo of several screens), each picture a child process or two.
        for size, limit in ((100 << 20, "inflated_bytes"), (1 << 30, "pages")):
            text = bomb(size)
            pages = -(-len(text) // 4260)
            self.assertEqual(pages <= LIMITS.pages, limit == "inflated_bytes", pages)
            symbols = paged(text, pages)
            self.assertLessEqual(max(map(len, symbols)), 4296)
            pics = [self.fake_picture("b%d-%d.png" % (size, i), symbols[i:i + 10])
                    for i in range(0, len(symbols), 10)]
            r = run(self.db, "add", *pics, self.good(), env=env, timeout=300)
            self.assertEqual(r.returncode, 1, r)
            self.assertIn("%s limit" % limit, r.stderr, r)
            self.assertIn("1 reports added", r.stdout, r)
            self.assertLess(r.peak, PEAK_MB, r)
            os.unlink(self.db)

    def test_a_symbol_larger_than_any_qr_code(self):
        env = self.fake_zbar()
        pic = self.fake_picture("huge.png", ["APMOFF2:" + "0" * (3 << 20)])
        r = run(self.db, "add", pic, self.good(), env=env)
        self.assertRefused(r, "huge.png", "symbols_bytes limit")

    def test_deep_json_in_a_file_and_on_serial(self):
        deep = self.file("deep.json", "[" * 989 + "]" * 989)
        deeper = self.file("deeper.json", '{"schema":1,"a":' * 100000 + "1" + "}" * 100000)
        log = self.file("deep.log", "apmoff: version 0.1\napmoff: survey " +
                        '{"schema":1,"a":' * 2000 + "1" + "}" * 2000 + "\n")
        for path in (deep, deeper, log):
            r = run(self.db, "add", path, self.good())
            self.assertRefused(r, os.path.basename(path), "json_depth limit of 16")
            os.unlink(self.db)

    def test_dev_zero(self):
        r = run(self.db, "add", "/dev/zero", self.good())
        self.assertRefused(r, "/dev/zero", "file_bytes limit")

    def test_a_fifo_that_never_writes_is_given_up(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        holder = os.open(fifo, os.O_RDWR)      # a writer that never writes
        try:
            r = run(self.db, "add", "--limit", "read_seconds=2", fifo, self.good(),
                    timeout=60)
        finally:
            os.close(holder)
        self.assertRefused(r, "fifo", "read_seconds")
        self.assertLess(r.seconds, 30)

    def test_a_fifo_that_writes_is_read(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        # The writer opens the FIFO a second after the collector does: read before it
        # came, the FIFO would look empty and the writer would wait for a reader forever.
        writer = subprocess.Popen(["sh", "-c", 'sleep 1; cat "$1" > "$2"', "sh",
                                   self.good(), fifo])
        try:
            r = run(self.db, "add", fifo, timeout=60)
        finally:
            writer.wait(timeout=30)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("1 added", r.stdout)

    def test_big_but_legal_log_stays_bounded(self):
        # Close to file_bytes: thousands of boots, each a different machine. Parsed one
        # report at a time, so the peak stays near the file's own size.
        line = survey_line()
        with open(self.path("many.log"), "w") as f:
            for i in range(4000):
                f.write("apmoff: version 0.1\napmoff: survey %s\n"
                        % line.replace('"options":""', '"options":"","label":"m%d"' % i))
        size = os.path.getsize(self.path("many.log"))
        r = run(self.db, "add", self.path("many.log"), timeout=300)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("4000 added", r.stdout)
        self.assertLess(r.peak, PEAK_MB, "%s (file %d bytes)" % (r, size))

    def test_file_past_the_limit_and_raising_it(self):
        log = self.file("big.log", read(self.good()) + "x" * (2 << 20) + "\n")
        r = run(self.db, "add", "--limit", "file_bytes=1M", log, self.good())
        self.assertRefused(r, "big.log", "file_bytes limit", "--limit file_bytes=")
        r = run(self.db, "add", "--limit", "file_bytes=4M", log)
        self.assertEqual(r.returncode, 0, r)
        r = run(self.db, "add", "--limit", "nonsense=4", log)
        self.assertEqual(r.returncode, 2, r)
        self.assertIn("NAME one of file_bytes", r.stderr)

    def test_long_strings_and_lines(self):
        long_string = self.file("long.json", json.dumps(variant(label="x" * 9000)))
        r = run(self.db, "add", long_string, self.good())
        self.assertRefused(r, "long.json", "label", "string_chars limit")
        os.unlink(self.db)
        line = self.file("line.log", "apmoff: version 0.1\napmoff: survey {" + "x" * 70000
                         + "}\n")
        r = run(self.db, "add", line, self.good())
        self.assertRefused(r, "line.log", "line_chars limit")


# --- validation -------------------------------------------------------------------------

# (field changes, the words the refusal must hold)
WRONG = [
    ({"apm__version": 1.2}, "apm.version is a fraction, not str"),
    ({"cpu__clock_khz": "fast"}, "cpu.clock_khz is a string, not int"),
    ({"pci": "none"}, "pci is a string, not obj"),
    ({"video": [1]}, "video is a list, not obj"),
    ({"disks": 3}, "disks is a number, not obj"),
    ({"disks": {"hdd": [{"cylinders": "many"}]}}, "disks.hdd.0.cylinders is a string"),
    ({"schema": 99}, "schema 99 is not a schema this collector knows"),
    ({"schema": "1"}, "no integer \"schema\""),
    ({"multiboot": 7}, "multiboot = 7 is outside 1..2"),
    ({"cpu__family": -1}, "cpu.family = -1 is outside"),
    ({"apm__interfaces__pm16__connect": 5}, "apm.interfaces.pm16.connect is a number"),
    ({"apm__present": "yes"}, "apm.present is a string, not bool"),
]


# Dates that are no dates: the report is kept, the field blanked, and a note says so.
NOT_DATES = [
    ({"bios__date": "01/01/\u00b2"}, "bios.date '01/01/\u00b2' is not a date"),
    ({"smbios__bios_date": "\"><img src=x onerror=alert(3)>/01/99"},
     "smbios.bios_date '\"><img src=x onerror=alert(3)>/01/99' is not a date"),
    ({"bios__date": "\"><img src=x onerror=alert(3)>/01/98"}, "bios.date"),
]


class Validation(Tmp):
    def test_dates_that_are_not_dates_are_blanked(self):
        paths = [self.file("date%d.json" % i, json.dumps(variant(label="date%d" % i,
                                                                 **changes)))
                 for i, (changes, _) in enumerate(NOT_DATES)]
        r = run(self.db, "add", *paths)
        self.assertEqual(r.returncode, 0, r)
        for i, (_, words) in enumerate(NOT_DATES):
            line = [l for l in r.stderr.splitlines() if "date%d.json" % i in l]
            self.assertTrue(line and "note: " + words in line[0] and "kept blank" in line[0],
                            "%s: %s" % (words, line))
        self.assertIn("%d reports added" % len(NOT_DATES), r.stdout)
        html = self.path("html")
        self.assertEqual(run(self.db, "report", html).returncode, 0)
        with open(os.path.join(html, "index.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertNotIn("<img", page)
        self.assertNotIn("onerror", page)             # blanked, so not even as text

    def test_wrong_types_are_refused_naming_the_field(self):
        paths = [self.file("wrong%d.json" % i, json.dumps(variant(**changes)))
                 for i, (changes, _) in enumerate(WRONG)]
        r = run(self.db, "add", *paths, self.good())
        self.assertEqual(r.returncode, 1, r)
        for i, (_, words) in enumerate(WRONG):
            line = [l for l in r.stderr.splitlines() if "wrong%d.json" % i in l]
            self.assertTrue(line and words in line[0], "%s: %s" % (words, line))
        self.assertIn("1 reports added, 0 already there, %d files skipped" % len(WRONG),
                      r.stdout)
        for command in (["report", self.path("html")], ["list", "-r"], ["csv"]):
            self.assertEqual(run(self.db, *command).returncode, 0, command)

    def test_dates_as_firmware_writes_them(self):
        # Bochs' BIOS writes its SMBIOS date dd/mm/yyyy: a real report, kept, its year
        # read; what is not digits is refused (above).
        for date, key in (("29/12/2019", "20191229"), ("11/22/96", "19961122"),
                          ("2014-04-01", "20140401")):
            s = variant(smbios__bios_date=date)
            inputs.check_survey(s, "t")
            self.assertEqual(report.date_sort_key(s), key, date)
        self.assertIsNone(derived.bios_year(variant(smbios__bios_date="junk",
                                                  bios__date="01/01/\u00b2")))

    def test_nan_and_infinity_are_refused(self):
        for name, text in (("nan.json", '{"schema":1,"cpu":{"clock_khz":NaN}}'),
                           ("inf.log", 'apmoff: survey {"schema":1,"x":-Infinity}\n')):
            r = run(self.db, "add", self.file(name, text), self.good())
            self.assertRefused(r, name, "is not a number JSON allows")
            os.unlink(self.db)

    def test_check_json_is_checked_too(self):
        text = read(os.path.join(FIXTURES, "check.log")).replace('"passed":22',
                                                                 '"passed":"many"')
        r = run(self.db, "add", self.file("check.log", text), self.good())
        self.assertRefused(r, "check.log", "passed is a string")

    def test_rows_of_older_versions_survive(self):
        # What collectors before the schema check stored: the wrong types above,
        # something that is not an object, JSON that does not parse, a breaker.
        r = run(self.db, "add", self.good())
        self.assertEqual(r.returncode, 0, r)
        conn = sqlite3.connect(self.db)
        rows = [json.dumps(variant(**changes)) for changes, _ in WRONG] + [
            "[1, 2]", "{not json", json.dumps(variant(apm__interfaces="x", apm__flags=[1])),
            json.dumps({"schema": 1, "apm": {"present": True, "version": {"a": 1}}}),
            json.dumps({"schema": 1, "cpu": {"clock_khz": NAN_TEXT}})]
        for i, text in enumerate(rows):
            conn.execute("INSERT INTO reports (key, machine_id, kind, survey_json, "
                         "check_json, outcome, outcome_source, outcome_detail, via, "
                         "source, source_kind, imported_at) VALUES (?, 1, 'survey', ?, ?, "
                         "'unknown', '', '', 'rm', 'old', 'log', '2020-01-01')",
                         ("old%d" % i, text, '{"checks": [1]}' if i % 2 else "7"))
        conn.commit()
        conn.close()
        for command in (["report", self.path("html")], ["list", "-r"], ["csv"]):
            r = run(self.db, *command)
            self.assertEqual(r.returncode, 0, "%s: %s" % (command, r))
            self.assertNotIn("Traceback", r.stderr)
        page = read(self.path("html/machine-1.html"))
        self.assertNotIn("<img", page)


NAN_TEXT = 1e400   # json.dumps writes Infinity: what an older collector let through


# --- isolation and exit codes -------------------------------------------------------------

class Isolation(Tmp):
    def test_any_exception_in_one_file_skips_only_that_file(self):
        # A file the reader chokes on in a way nobody foresaw: a decoder that raises
        # KeyError. The file is named with the exception; the rest of the batch goes in.
        from tools.apmoff_collect import cli

        def broken(text, limits):
            if "BROKEN" in text:
                raise KeyError("surprise")
            return None

        inputs.DECODERS.insert(0, broken)
        try:
            bad = self.file("bad.log", "apmoff: version 0.1\napmoff: survey {BROKEN}\n")
            with open(os.devnull, "w") as devnull:
                saved = sys.stdout, sys.stderr
                with tempfile.TemporaryFile("w+") as err:
                    sys.stdout, sys.stderr = devnull, err
                    try:
                        status = cli.main(["--db", self.db, "add", bad, self.good()])
                    finally:
                        sys.stdout, sys.stderr = saved
                    err.seek(0)
                    text = err.read()
        finally:
            inputs.DECODERS.remove(broken)
        self.assertEqual(status, 1)
        self.assertRegex(text, r"skipped .*bad\.log: .*KeyError: 'surprise'")
        conn = database.connect(self.db)
        self.assertEqual(len(database.reports(conn)), 1)
        conn.close()

    def test_each_file_in_its_own_transaction(self):
        # The second boot of a capture is broken: nothing of that file, all of the next.
        two = self.file("two.log", read(os.path.join(FIXTURES, "survey.log")) +
                        read(self.good()).replace('"apm":{', '"apm":{{', 1))
        r = run(self.db, "add", two, os.path.join(FIXTURES, "off.log"))
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("boot 2", r.stderr)
        conn = database.connect(self.db)
        self.assertEqual([x["source"] for x in database.reports(conn)],
                         [os.path.join(FIXTURES, "off.log")])
        conn.close()

    def test_exit_0_done(self):
        self.assertEqual(run(self.db, "add", self.good()).returncode, 0)
        for command in (["list"], ["csv"], ["report", self.path("h")],
                        ["set-outcome", "1", "hung"], ["remove", "1"]):
            self.assertEqual(run(self.db, *command).returncode, 0, command)

    def test_exit_1_refused_input(self):
        self.assertEqual(run(self.db, "add", self.file("x.txt", "hello\n")).returncode, 1)
        run(self.db, "add", self.good())
        self.assertEqual(run(self.db, "remove", "7").returncode, 1)
        self.assertEqual(run(self.db, "set-outcome", "7", "off").returncode, 1)

    def read_only(self, path):
        """Makes a file read-only even for root (chattr +i), or skips."""
        os.chmod(path, 0o444)
        if os.geteuid() == 0:
            if not shutil.which("chattr") or subprocess.run(
                    ["chattr", "+i", path], stderr=subprocess.DEVNULL).returncode:
                self.skipTest("root, and no chattr +i here to make a file read-only")
            self.addCleanup(subprocess.run, ["chattr", "-i", path])

    def test_exit_2_read_only_database(self):
        run(self.db, "add", self.good())
        before = dump(self.db)
        self.read_only(self.db)
        r = run(self.db, "add", os.path.join(FIXTURES, "off.log"),
                os.path.join(FIXTURES, "survey.log"))
        self.assertEqual(r.returncode, 2, r)
        self.assertIn("readonly", r.stderr)
        self.assertNotIn("skipped", r.stderr)           # not a line per file
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r)
        self.assertEqual(dump(self.db), before)
        self.assertEqual(run(self.db, "list").returncode, 0)      # reading still works

    def test_exit_2_corrupt_database(self):
        run(self.db, "add", self.good(), os.path.join(FIXTURES, "off.log"))
        # The reports table's root page made something no B-tree page is.
        conn = sqlite3.connect(self.db)
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'reports'"
                            ).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        with open(self.db, "r+b") as f:
            f.seek((root - 1) * size)
            f.write(b"\xff" * 64)
        for command in (["add", os.path.join(FIXTURES, "survey.log")], ["list"], ["csv"],
                        ["report", self.path("h")]):
            r = run(self.db, *command)
            self.assertEqual(r.returncode, 2, "%s: %s" % (command, r))
            self.assertNotIn("Traceback", r.stderr)

    def test_exit_2_not_a_database_newer_or_foreign(self):
        junk = self.file("junk.db", "not sqlite at all " * 100)
        self.assertEqual(run(junk, "list").returncode, 2)
        self.assertEqual(run(self.path("none.db"), "list").returncode, 2)
        foreign = self.path("other.db")
        conn = sqlite3.connect(foreign)
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('mine')")
        conn.commit()
        conn.close()
        r = run(foreign, "add", self.good())
        self.assertEqual(r.returncode, 2, r)
        self.assertIn("not an apmoff database", r.stderr)
        conn = sqlite3.connect(foreign)
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master")]
        conn.close()
        self.assertEqual(tables, ["notes"])

    def test_exit_2_wrong_command_line(self):
        self.assertEqual(run(self.db, "frobnicate").returncode, 2)
        self.assertEqual(run(self.db, "set-outcome", "1", "maybe").returncode, 2)


# --- escaping ---------------------------------------------------------------------------

class Page(HTMLParser):
    """Every element and attribute of a page, its script bodies, its comments, and
    its text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.scripts, self.comments, self.text = set(), set(), [], \
            [], []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)
        self.in_script = tag == "script"

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, data):
        (self.scripts if self.in_script else self.text).append(data)

    def handle_comment(self, data):
        self.comments.append(data)


# What the report's own markup uses; anything else came from a value.
TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "code",
        "label", "input", "span", "table", "thead", "tbody", "tr", "th", "td", "a", "div",
        "svg", "text", "line", "rect", "script", "details", "summary", "pre", "br"}
ATTRS = {"lang", "charset", "name", "content", "class", "id", "for", "type", "placeholder",
         "hidden", "href", "data-col", "data-sort", "data-machine", "xmlns", "width",
         "height", "role", "aria-label", "x", "y", "x1", "x2", "y1", "y2", "font-size",
         "font-weight", "text-anchor", "stroke", "fill"}


def broken_survey(breaker):
    """The fixture survey with every string, every list of strings and every key
    under smbios made a breaker (SMBIOS strings name the machine)."""
    def walk(node, path):
        if isinstance(node, dict):
            return {k: walk(v, path + [k]) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, path) for v in node]
        if isinstance(node, str) and path[-1] not in ("flags",):
            return breaker + ".".join(path)
        return node
    s = walk(SURVEY, [])
    s["smbios"][breaker] = breaker
    s["label"] = breaker + "label"
    return s


class Escaping(Tmp):
    def test_a_breaker_in_every_field_never_becomes_markup(self):
        r = run(self.db, "add", self.good())
        self.assertEqual(r.returncode, 0, r)
        # Rows as an older collector stored them (no schema check): the breaker in
        # every string, the BIOS dates included (the data-sort attribute), a NUL.
        survey = broken_survey(BREAKER)
        survey["bios"]["date"] = "\"><img src=x onerror=alert(3)>/01/99"
        survey["smbios"]["bios_date"] = BREAKER + "/01/99"
        check = {"schema": 1, "passed": BREAKER, "checks": {BREAKER: BREAKER}}
        conn = sqlite3.connect(self.db)
        conn.execute("UPDATE machines SET name = ?, identity = ?", (BREAKER, BREAKER))
        conn.execute("INSERT INTO reports (key, machine_id, kind, survey_json, check_json, "
                     "outcome, outcome_source, outcome_detail, via, source, source_kind, "
                     "imported_at) VALUES ('b', 1, 'survey', ?, ?, 'off', ?, ?, ?, ?, ?, ?)",
                     (derived.canonical(survey), derived.canonical(check), BREAKER,
                      BREAKER, BREAKER, BREAKER, BREAKER, BREAKER))
        conn.commit()
        conn.close()
        r = run(self.path("t.db"), "report", self.path("html"))
        self.assertEqual(r.returncode, 0, r)
        pages = [os.path.join(self.path("html"), n) for n in os.listdir(self.path("html"))]
        self.assertEqual(len(pages), 2)
        for page in pages:
            with open(page, encoding="utf-8") as f:
                text = f.read()
            self.assertNotIn("\x00", text)
            p = Page()
            p.feed(text)
            p.close()
            self.assertLessEqual(p.tags, TAGS, page)
            self.assertLessEqual(p.attrs, ATTRS, page)
            self.assertEqual(p.comments, [], page)
            self.assertLessEqual(len(p.scripts), 1)
            if p.scripts:
                self.assertEqual(p.scripts[0], report.SCRIPT)
            # ... and the values are there, as text.
            self.assertIn(BREAKER.replace("\x00", "\ufffd"), "".join(p.text), page)

    def test_a_breaker_that_passes_the_schema_is_text(self):
        # Imported the ordinary way: free-text fields may hold anything printable.
        survey = variant(label=BREAKER.replace("\x00", ""), smbios__product=BREAKER,
                         chipset__name=BREAKER, bios__strings=[BREAKER])
        r = run(self.db, "add", self.file("b'\"<x>.json", json.dumps(survey)))
        self.assertEqual(r.returncode, 0, r)
        r = run(self.db, "report", self.path("html"))
        self.assertEqual(r.returncode, 0, r)
        for name in ("index.html", "machine-1.html"):
            p = Page()
            p.feed(read(self.path("html/" + name)))
            self.assertLessEqual(p.tags, TAGS, name)
            self.assertLessEqual(p.attrs, ATTRS, name)
            self.assertNotIn("\x00", read(self.path("html/" + name)))

    def test_one_escaping_function(self):
        self.assertEqual(report.e("<a href='x'>\"&\x00</a>"),
                         "&lt;a href=&#x27;x&#x27;&gt;&quot;&amp;\ufffd&lt;/a&gt;")
        self.assertEqual(report.e(1.5), "1.5")
        self.assertEqual(report.e(None), "")
        source = read(os.path.join(ROOT, "tools", "apmoff_collect", "report.py"))
        self.assertEqual(source.count("html.escape("), 1)


# --- everyday commands ------------------------------------------------------------------

def off_log(*tail):
    return read(os.path.join(FIXTURES, "off.log")) + "".join(l + "\n" for l in tail)


class Everyday(Tmp):
    def outcome(self, name):
        conn = database.connect(self.db)
        try:
            return [(r["outcome"], r["outcome_source"]) for r in database.reports(conn)
                    if os.path.basename(r["source"]) == name][0]
        finally:
            conn.close()

    def test_make_run_and_qemu_trace_lines(self):
        cases = [
            ("make run: powered off via rm (APM 1.2) (QEMU: SHUTDOWN guest-shutdown, exit "
             "status 0)", ("off", "emulator")),
            ("make run: the guest reset the machine (QEMU: SHUTDOWN guest-reset, exit "
             "status 0)", ("failed", "emulator")),
            ("make run: QEMU exited with status 3 (apmoff exit code 1)", ("failed", "emulator")),
            ("make run: QEMU reported SHUTDOWN, reason guest-shutdown", ("off", "emulator")),
            ("make run: QEMU reported SHUTDOWN, reason guest-reset", ("failed", "emulator")),
            ("make run: no power-off within 60 s", ("hung", "emulator")),
            ("make run: QEMU exited", ("unknown", "")),
            ("qemu_system_shutdown_request reason=6", ("off", "emulator")),
            ("12345@1700000000.123456:qemu_system_shutdown_request reason=6",
             ("off", "emulator")),
            ("qemu_system_shutdown_request reason=7", ("failed", "emulator")),
            ("qemu_system_shutdown_request reason=2", ("unknown", "")),
        ]
        for i, (line, want) in enumerate(cases):
            name = "run%d.log" % i
            text = off_log(line).replace('"options":""', '"options":"","label":"r%d"' % i)
            r = run(self.db, "add", "--no-prompt", self.file(name, text))
            self.assertEqual(r.returncode, 0, r)
            self.assertEqual(self.outcome(name), want, line)

    def test_a_halted_kernel_outweighs_a_shutdown_event(self):
        # QEMU 10 reports the isa-debug-exit write that follows a failed power-off as
        # SHUTDOWN guest-shutdown: the kernel's halted line says the machine stayed on.
        text = off_log("apmoff: halted: power-off failed via rm, pm32 and pm16",
                       '{"timestamp": {}, "event": "SHUTDOWN", "data": {"guest": true, '
                       '"reason": "guest-shutdown"}}')
        r = run(self.db, "add", "--no-prompt", self.file("qemu10.log", text))
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.outcome("qemu10.log"), ("failed", "log"))

    def test_make_run_line_is_what_run_py_prints(self):
        # evidence.py reads tests/emu/run.py's last line; when that line changes, this
        # fails, pointing at the one parser to change with it.
        source = read(os.path.join(ROOT, "tests", "emu", "run.py"))
        for piece in ('"\\nmake run: %s" % said',
                      '"powered off%s (QEMU: SHUTDOWN guest-shutdown, exit status 0)"',
                      '"the guest reset the machine (QEMU: SHUTDOWN guest-reset, exit status 0)"',
                      '"QEMU exited with status %d%s%s"', '" (apmoff exit code %d)"',
                      '"no power-off within %g s"'):
            self.assertIn(piece, source)

    def test_same_log_with_and_without_outcome_is_one_report(self):
        log = os.path.join(FIXTURES, "off.log")
        run(self.db, "add", "--no-prompt", log)
        r = run(self.db, "add", "--outcome", "off", log)
        self.assertIn("0 added, 1 already there", r.stdout)
        self.assertIn("outcome set to off", r.stdout)
        r = run(self.db, "add", "--outcome", "hung", log)
        self.assertIn("already off (person); `set-outcome 1 hung` changes it", r.stdout)
        self.assertEqual(self.outcome("off.log"), ("off", "person"))
        r = run(self.db, "set-outcome", "1", "hung")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(self.outcome("off.log"), ("hung", "person"))
        conn = database.connect(self.db)
        self.assertEqual(len(database.reports(conn)), 1)
        conn.close()

    def test_version_1_keys_are_made_again(self):
        # A database of schema 1 with the same log twice (with and without
        # --outcome, which schema 1 kept apart) becomes one report.
        conn = sqlite3.connect(self.db)
        conn.executescript(database.SCHEMA)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO machines VALUES (1, ?, 'Foo Bar', 'x')",
                     (derived.machine_identity(SURVEY),))
        for key, outcome, source in (("k1", "unknown", ""), ("k2", "off", "person")):
            conn.execute("INSERT INTO reports (key, machine_id, kind, survey_json, "
                         "outcome, outcome_source, outcome_detail, via, source, "
                         "source_kind, imported_at) VALUES (?, 1, 'survey', ?, ?, ?, '', "
                         "'rm', 'off.log', 'log', 'x')",
                         (key, derived.canonical(SURVEY), outcome, source))
        conn.commit()
        conn.close()
        r = run(self.db, "add", os.path.join(FIXTURES, "off.log"))
        self.assertIn("0 added, 1 already there", r.stdout)
        conn = database.connect(self.db)
        self.assertEqual([(x["id"], x["outcome"]) for x in database.reports(conn)],
                         [(1, "off")])
        self.assertEqual(conn.execute("PRAGMA application_id").fetchone()[0],
                         database.APPLICATION_ID)
        conn.close()

    def test_remove(self):
        run(self.db, "add", os.path.join(FIXTURES, "survey.log"),
            os.path.join(FIXTURES, "off.log"), self.good())
        before = dump(self.db)
        r = run(self.db, "remove", "1", "99")
        self.assertEqual(r.returncode, 1, r)
        self.assertEqual(dump(self.db), before)                  # all or nothing
        r = run(self.db, "remove", "1", "3")
        self.assertEqual(r.returncode, 0, r)
        conn = database.connect(self.db)
        self.assertEqual([x["id"] for x in database.reports(conn)], [2])
        self.assertEqual([m["id"] for m in database.machines(conn)], [1])  # 2 had only #3
        conn.close()

    def test_set_outcome_refuses_a_run_without_a_power_off(self):
        run(self.db, "add", os.path.join(FIXTURES, "survey.log"))
        r = run(self.db, "set-outcome", "1", "off")
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("asked for no power-off (not tried)", r.stderr)

    def test_db_before_or_after_the_command(self):
        r = run(None, "add", self.good(), "--db", self.db)
        self.assertEqual(r.returncode, 0, r)
        self.assertTrue(os.path.exists(self.db))
        for args in (["list", "--db", self.db], ["--db", self.db, "list"]):
            r = run(None, *args)
            self.assertEqual(r.returncode, 0, r)
            self.assertIn("QEMU Standard PC", r.stdout)

    def test_closed_pipe_ends_quietly(self):
        for i in range(40):
            self.file("m%d.json" % i, json.dumps(variant(label="m%d" % i)))
        run(self.db, "add", *[self.path("m%d.json" % i) for i in range(40)])
        for command in ("csv", "list -r"):
            proc = subprocess.run(
                "set -o pipefail; %s %s --db %s %s | head -1 >/dev/null"
                % (sys.executable, TOOL, self.db, command),
                shell=True, executable="/bin/bash", stderr=subprocess.PIPE,
                universal_newlines=True, timeout=60)
            self.assertEqual((proc.returncode, proc.stderr), (0, ""), command)
        proc = subprocess.run("%s %s --db %s add %s | head -c 10 >/dev/null"
                              % (sys.executable, TOOL, self.path("b.db"),
                                 " ".join(self.path("m%d.json" % i) for i in range(40))),
                              shell=True, stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=60)
        self.assertEqual(proc.stderr, "")
        conn = database.connect(self.path("b.db"))
        self.assertEqual(len(database.reports(conn)), 40)     # the import went on
        conn.close()

    def test_index_row_merges_interfaces_across_reports(self):
        first = variant(options="action=survey", apm__interfaces__pm16={
            "tried": True, "connect": "ok"})
        later = variant(options="action=survey", apm__interfaces__pm16={"tried": False},
                        cpu__name="later")
        for name, s in (("a.json", first), ("b.json", later)):
            self.assertEqual(run(self.db, "add", self.file(name, json.dumps(s))).returncode,
                             0)
        conn = database.connect(self.db)
        [m] = database.machines(conn)
        conn.close()
        self.assertEqual(m["columns"]["pm16"], "ok (#1); not tried (#2)")
        run(self.db, "report", self.path("html"))
        index = read(self.path("html/index.html"))
        self.assertIn('ok (<a href="machine-1.html#report-1">#1</a>); not tried '
                      '(<a href="machine-1.html#report-2">#2</a>)', index)

    def test_same_words_in_cli_and_html(self):
        r = run(self.db, "add", os.path.join(FIXTURES, "survey.log"))
        self.assertIn("(survey not tried)", r.stdout)
        self.assertNotRegex(r.stdout, r"\bnone\b")
        r = run(self.db, "list", "-r")
        self.assertIn("not tried", r.stdout)
        self.assertNotRegex(r.stdout, r"\bnone\b")
        run(self.db, "report", self.path("html"))
        self.assertIn("not tried", read(self.path("html/machine-1.html")))

    def test_file_names_cannot_fake_progress_lines(self):
        # "/" cannot be in a file's name, but it can be in its path.
        os.mkdir(self.path("x\n[9"))
        name = self.file("x\n[9/9] fake.log: 5 added, 0 already there (survey off)\nx.log",
                         read(self.good()))
        r = run(self.db, "add", name, self.file("bad\nskipped everything.log", "nothing"))
        lines = r.stdout.splitlines() + r.stderr.splitlines()
        self.assertFalse([l for l in lines if l.startswith(("[9/9]", "skipped everything"))],
                         r)
        self.assertIn("x\\n[9/9] fake.log", r.stdout)

    def test_logs_that_start_like_pictures_are_logs(self):
        for magic in ("BM", "P5", "GIF8", "P6 ", "\x89PNG"):
            name = "magic-%d.log" % ord(magic[1])
            path = self.file(name, magic + " boot log\n" + read(self.good()))
            [o] = inputs.read_file(path, {})
            self.assertEqual(o.source_kind, "log", magic)
        build_mkqr()
        pic = qr_picture(self.path("real.pgm"), "APMOFF1 1/2 0123ABCD x")
        with open(pic, "rb") as f:
            self.assertTrue(inputs.is_picture(f.read()))


# --- the charts, measured in Chromium -------------------------------------------------

MEASURE = """<script>
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('svg').forEach(function (svg, i) {
    var width = svg.width.baseVal.value;
    svg.querySelectorAll('text').forEach(function (t) {
      var box = t.getBBox();
      out.push([i, t.textContent, Math.ceil(box.x + box.width), width]);
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script></body>"""


class Charts(Tmp):
    def test_every_chart_text_fits_its_svg(self):
        # One vendor and one year: the narrowest charts, whose titles were clipped.
        r = run(self.db, "add", self.good())
        self.assertEqual(r.returncode, 0, r)
        run(self.db, "report", self.path("html"))
        index = read(self.path("html/index.html")).replace("</body>", MEASURE)
        write(self.path("html/measure.html"), index)
        dom = chromium("--dump-dom", "file://" + self.path("html/measure.html")).stdout
        m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
        self.assertTrue(m, dom[-500:])
        import html as htmllib
        texts = json.loads(htmllib.unescape(m.group(1)))
        titles = [t for t in texts if "(machines)" in t[1] or "(reports)" in t[1]]
        self.assertEqual(len(titles), 2, texts)
        for svg, text, right, width in texts:
            self.assertLessEqual(right, width, "%r ends at %d in a %d px chart"
                                 % (text, right, width))


if __name__ == "__main__":
    main()
