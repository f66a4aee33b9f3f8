"""Every test result of one `tests.run_all` run, counted once: the summary line's
numbers and the JUnit XML (--junit) come from the same records, so they agree.

A record is one test: a unit test of a cmocka binary, a static check, a fuzz target,
a test of apmoff-collect, an emulator case, the board table, a recipe."""

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass

PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass
class Record:
    suite: str                      # JUnit testsuite: "unit.test_apm", "emu.qemu", ...
    name: str
    status: str                     # PASS, FAIL or SKIP
    seconds: float = 0.0
    message: str = ""               # why it failed or was skipped
    output: str = ""                # what it printed (failures)


class Tally:
    def __init__(self):
        self.records = []
        self.started = time.time()

    def add(self, suite, name, ok, seconds=0.0, message="", output="", skipped=""):
        status = SKIP if skipped else (PASS if ok else FAIL)
        self.records.append(Record(suite, name, status, seconds, skipped or message,
                                   output))
        return ok

    def count(self, status):
        return sum(1 for r in self.records if r.status == status)

    def summary(self):
        """The last line of every run: `N passed, N failed`, and the emulator cases
        and recipes that could not run here, if any (a unit test that skips says so on
        its own SKIP line, as it always has)."""
        skipped = sum(1 for r in self.records if r.status == SKIP
                      and (r.suite.startswith("emu.") or r.suite == "recipes"))
        return "%d passed, %d failed" % (self.count(PASS), self.count(FAIL)) + (
            ", %d skipped" % skipped if skipped else "")

    def junit(self):
        """The records as JUnit XML (bytes): one testsuite a suite, in first-seen order."""
        root = ET.Element("testsuites", name="apmoff", tests=str(len(self.records)),
                          failures=str(self.count(FAIL)), skipped=str(self.count(SKIP)),
                          time="%.3f" % (time.time() - self.started))
        suites = {}
        for r in self.records:
            suite = suites.get(r.suite)
            if suite is None:
                suite = suites[r.suite] = ET.SubElement(root, "testsuite", name=r.suite)
            case = ET.SubElement(suite, "testcase", classname=r.suite, name=r.name,
                                 time="%.3f" % r.seconds)
            if r.status == FAIL:
                ET.SubElement(case, "failure", message=clean(r.message)).text = \
                    clean(r.output or r.message)
            elif r.status == SKIP:
                ET.SubElement(case, "skipped", message=clean(r.message))
        for suite in suites.values():
            cases = list(suite)
            suite.set("tests", str(len(cases)))
            suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
            suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
            suite.set("time", "%.3f" % sum(float(c.get("time")) for c in cases))
        ET.indent(root)
        return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"

    def write_junit(self, path):
        with open(path, "wb") as f:
            f.write(self.junit())


def clean(text):
    """Text XML 1.0 can carry: serial logs hold control bytes (ANSI, NUL)."""
    return "".join(c if c in "\t\n\r" or 0x20 <= ord(c) < 0xD800 or 0xE000 <= ord(c) < 0xFFFE
                   else "\ufffd" for c in text)
