#!/usr/bin/python3
"""Fuzz targets for apmoff-collect's parsers (Debian's python3-hypothesis): every
reader of a stranger's bytes, fed random and half-valid input, must answer or refuse
(BadInput, TooLarge), and never fail otherwise; where a simpler model of the same
rule exists, they must agree with it.

- the payload decoders (APMOFF3 and APMOFF2, APMOFF1 pages, JSON), and every reader of what they
  accept (the table, the identity, the machine page);
- the one-pass JSON scanner: its nesting, and its cut of a list into items, against
  a character-by-character model and json.loads;
- a JSON file's reader, a serial log's reader (the outcome rules against a model
  that keeps every line), the byte order marks;
- what goes out: CSV cells and terminal text.

`make test` runs each briefly, the same examples each time (APMOFF_FUZZ_EXAMPLES,
default 300 a target); `make fuzz` runs them longer with new examples
(APMOFF_FUZZ_EXAMPLES=20000 APMOFF_FUZZ_RANDOM=1), keeping failures in
build/collect-fuzz/ so the next run tries them first.

    python3 -m tests.collect.fuzz_collect [-v] [--tap] [-k PATTERN]
"""

import codecs
import json
import os
import unittest

from tests.collect.harness import SURVEY, main, survey_line
from tests.collect.test_collect import ROOT
from tools.apmoff_collect import derived, evidence, inputs, qrpages, report, schema, text
from tools.apmoff_collect.limits import DEFAULT as LIMITS, TooLarge

try:
    from hypothesis import configuration
    configuration.set_hypothesis_home_dir(os.path.join(ROOT, "build", "collect-fuzz"))
    from hypothesis import HealthCheck, given, settings, strategies as st
    from hypothesis.database import DirectoryBasedExampleDatabase
except ImportError:                             # the test says so (below)
    st = None

EXAMPLES = int(os.environ.get("APMOFF_FUZZ_EXAMPLES", "300"))
RANDOM = bool(os.environ.get("APMOFF_FUZZ_RANDOM"))


def fuzz(strategy):
    """@given(strategy) with the run's settings: the same examples each run unless
    APMOFF_FUZZ_RANDOM, then with a database of failures to try first."""
    def wrap(test):
        if st is None:
            def missing(self):
                self.fail("python3-hypothesis is missing (scripts/deps.sh installs it)")
            return missing
        database = DirectoryBasedExampleDatabase(
            os.path.join(ROOT, "build", "collect-fuzz", "examples")) if RANDOM else None
        return settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM,
                        database=database, suppress_health_check=list(HealthCheck))(
            given(strategy)(test))
    return wrap


def strategies():
    """The inputs, built once hypothesis is known to be there."""
    line = survey_line()
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30))
    json_values = st.recursive(leaf, lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.sampled_from(
            ["schema", "apm", "cpu", "bios", "pci", "disks", "video", "date",
             "version", "present", "flags", "interfaces", "rm", "pm16", "connect",
             "tried", "hdd", "functions", "label", "clock_khz", "memory", "e820",
             "smbios", "bios_date", "chipset", "soft_off", "vbe", "strings", "x"]),
            kids, max_size=6)), max_leaves=30)

    @st.composite
    def mutated(draw, base=line):
        """A text with a stretch of it replaced."""
        i = draw(st.integers(0, len(base)))
        j = draw(st.integers(i, min(len(base), i + 40)))
        return base[:i] + draw(st.text(max_size=12)) + base[j:]

    payloads = st.one_of(
        st.text(max_size=300),
        st.builds(json.dumps, json_values),
        st.builds(lambda v: json.dumps(dict(SURVEY, **v) if isinstance(v, dict) else v),
                  json_values),
        mutated(),
        st.builds(lambda a, b, c, d: "APMOFF1 %s/%s %s %s" % (a, b, c, d),
                  st.integers(0, 10**12), st.integers(0, 10**12),
                  st.sampled_from(["0123ABCD", "zzzz", "FFFFFFFF"]), st.text(max_size=50)),
        st.builds(lambda p, t: p + t, st.sampled_from(sorted(qrpages.PACKED)),
                  st.text(qrpages.BASE45, max_size=200)),
        st.builds(qrpages.pack, st.binary(max_size=300)))
    # JSON-ish text: mostly the characters the scanner cares about.
    jsonish = st.text(st.sampled_from('[]{},"\\: ab1\n\u00e9'), max_size=80) | \
        st.builds(json.dumps, json_values)
    log_lines = st.lists(st.one_of(
        st.sampled_from(["apmoff: version 0.2", "apmoff: apmoff 0.1: x",
                         "apmoff: powering off via rm", "apmoff: powering off via acpi",
                         "apmoff: halted: power-off failed", "apmoff-outcome: off",
                         "apmoff-outcome: hung", "apmoff: survey " + line,
                         'apmoff: check {"schema":1,"passed":1,"failed":0,"checks":{}}',
                         "qemu_system_shutdown_request reason=6",
                         "qemu_system_shutdown_request reason=7",
                         '{"event": "SHUTDOWN", "data": {"reason": "guest-shutdown"}}',
                         "make run: QEMU reported SHUTDOWN, reason guest-reset",
                         "make run: no power-off within 60 s",
                         "00117031092p[UNMAP ] >>PANIC<< Shutdown port: shutdown requested",
                         "\x1b[1mapmoff: powering off via pm32\x1b[0m", "", "noise"]),
        st.text(max_size=40), mutated(base="apmoff: survey " + line)), max_size=14)
    return payloads, json_values, jsonish, log_lines


STRATEGIES = strategies() if st else (None,) * 4
PAYLOADS, JSON_VALUES, JSONISH, LOG_LINES = STRATEGIES


# --- models: the rules, written the simplest way ------------------------------------------

def nesting_model(text):
    """JSON nesting, one character at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def outcome_model(lines):
    """The outcome rules of docs/collect.md over a boot's lines, every line kept."""
    apm = [(i, l) for i, l in enumerate(lines) if l.startswith("apmoff: ")]
    offs = [(i, l) for i, l in apm if inputs.POWERING_OFF.match(l)]
    if not offs:
        return inputs.NOT_TRIED, "", "", ""
    at, off = offs[-1]
    via = inputs.POWERING_OFF.match(off).group(1)
    found = [e for e in map(evidence.of_line, lines[at + 1:]) if e]
    captured = [e for e in found if e.source == "capture"][-1:]
    if captured:
        return captured[0].outcome, captured[0].source, captured[0].name, via
    halted = [l for i, l in apm if i > at and inputs.HALTED.match(l)]
    if halted:
        return "failed", "log", halted[-1], via
    offs = [e for e in found if e.outcome == "off"]
    if offs:
        return offs[0].outcome, offs[0].source, offs[0].name, via
    if found:
        return found[0].outcome, found[0].source, found[0].name, via
    if apm[-1][0] == at:
        return inputs.UNKNOWN, "", off, via
    return inputs.UNKNOWN, "", "the log goes on after %r without a halted line" % off, via


def boots_model(lines):
    runs, current = [], []
    for line in lines:
        if inputs.BANNER.match(line) and any(l.startswith("apmoff: ") for l in current):
            runs.append(current)
            current = []
        current.append(line)
    return runs + [current]


# --- the targets ---------------------------------------------------------------------------

class Fuzz(unittest.TestCase):
    @fuzz(PAYLOADS)
    def test_payloads(self, payload):
        """A payload is a report, a Page, or refused; a report the schema takes is one
        every reader can show."""
        try:
            result = inputs.decode_payload(payload, LIMITS, "fuzz")
        except inputs.BadInput:
            return
        if isinstance(result, inputs.Page):
            return
        try:
            inputs.check_survey(result, "fuzz", say=False)
        except inputs.BadInput:
            return
        derived.derived(result, None)
        derived.machine_identity(result)
        derived.machine_name(result)
        report.hardware(result)
        report.fields_table(result)

    @fuzz(JSONISH)
    def test_json_scanner(self, text):
        """The one-pass scan nests as the model does; a list json.loads reads is cut
        into exactly its items."""
        self.assertEqual(schema.nesting(text), nesting_model(text))
        self.assertEqual(schema.nesting(text.encode()), nesting_model(text))
        try:
            whole = json.loads(text)
        except ValueError:
            return
        shape = schema.scan(text.encode(), 10**6, 10**6)
        if isinstance(whole, list) and whole:
            self.assertTrue(shape.closed, text)
            self.assertEqual([json.loads(text.encode()[a:b]) for a, b in shape.items],
                             whole)

    @fuzz(st.one_of(st.binary(max_size=200), JSONISH.map(str.encode))
          if st else None)
    def test_json_files(self, raw):
        """A JSON file's reader answers or refuses, whatever the bytes."""
        try:
            inputs.read_json("fuzz.json", bytearray(raw), LIMITS)
        except inputs.BadInput:
            pass

    @fuzz(st.tuples(LOG_LINES, st.sampled_from(["\n", "\r\n"]),
                    st.sampled_from(["", "utf-8-sig", "utf-16", "utf-16-be", "utf-32"]))
          if st else None)
    def test_serial_logs(self, case):
        """A log's reader answers or refuses, in any of the encodings it reads; each
        boot's outcome is the model's."""
        lines, end, encoding = case
        log = end.join(lines) + end
        raw = bytearray(codecs.BOM_UTF16_BE + log.encode("utf-16-be", "surrogatepass")
                        if encoding == "utf-16-be" else
                        log.encode(encoding or "utf-8", "surrogatepass"))
        kept = list(inputs.kept_lines(inputs.as_utf8(raw), LIMITS, "fuzz"))
        try:
            found = inputs.read_log("fuzz.log", iter(kept), LIMITS)
        except inputs.BadInput:
            return
        model = [outcome_model(run) for run in boots_model([text for _, text in kept])
                 if any(l.startswith(("apmoff: survey {", "apmoff: check {")) for l in run)]
        self.assertEqual([(o.outcome, o.outcome_source, o.outcome_detail, o.via)
                          for o in found], model)
        for obs in found:
            try:
                obs.loaded()
            except inputs.BadInput:
                pass

    @fuzz(st.binary(max_size=300) if st else None)
    def test_any_bytes_as_a_file(self, raw):
        """Whatever a file holds, each reader answers or refuses."""
        inputs.is_picture(raw)
        data = inputs.as_utf8(bytearray(raw))
        try:
            inputs.read_log("fuzz.log", inputs.kept_lines(data, LIMITS, "fuzz"), LIMITS)
        except inputs.BadInput:
            pass
        for line in bytes(data).decode("utf-8", "replace").splitlines():
            evidence.of_line(line)
        for prefix in qrpages.PACKED:
            try:
                qrpages.unpack(prefix + raw.decode("latin-1"), LIMITS)
            except (qrpages.PageError, TooLarge):
                pass

    @fuzz(st.text() if st else None)
    def test_what_goes_out(self, value):
        """A CSV cell and a terminal line hold nothing a terminal acts on; a cell
        never starts a formula; a cell of JSON is still the same JSON."""
        cell = text.csv_cell(value)
        self.assertTrue(cell.isprintable(), repr(cell))
        self.assertFalse(cell.startswith(text.FORMULA_STARTS), repr(cell))
        shown = text.shown(value)
        self.assertTrue(shown.isprintable(), repr(shown))
        self.assertEqual(text.shown(shown), shown)
        as_json = json.dumps({"v": value}, ensure_ascii=False)
        self.assertEqual(json.loads(text.csv_cell(as_json)), {"v": value})


if __name__ == "__main__":
    main()
