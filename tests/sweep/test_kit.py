"""A real sweep of the kit's machines (../shared/86box: its patched 86Box, its ROM
directory and its primed CMOS images), through tools/apmoff-sweep as a user runs it,
with 86Box's machine table read from 86Box's source at the kit's commit
(../shared/86box/SOURCE.md): $APMOFF_86BOX_SOURCE, or ../86box-src or ../86Box beside
the repository (a tree, or a git repository read at that commit); skipped without one.
apmoff keeps no copy of 86Box's source. Bounded: each boot by the tool's --timeout,
the whole run by RUN_SECS.

    python3 -m tests.sweep.test_kit [-v] [--tap] [-j N]

What it proves, machine by machine (the kit's README says the same of its boards):
the configs the sweep writes boot; the CPU each ran is read from 86Box's written-back
config and the kernel's survey (the family a board takes by 86Box's rule: ficva503p's
P55C, not its socket's older P54C); the CMOS drive A: decides the drive (the AMI 386's 1.2 MB, the
Award 386's 1.44 MB); soft-off is 86Box's (tx97, ficva503p), by APM and by their
south bridges alone (method=chipset, asked in a boot of its own), a board
without it stays on after 5307h (p55t2p4, 486sp3c); a machine whose ROM the directory
lacks is named (p3v4x); the outputs (results, logs imported by apmoff-collect, the
Markdown table); a second run skips every machine; and a fresh CMOS gets past Award's
"CMOS checksum error" prompt by the screen and F1.
"""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

from tests.collect.test_collect import tap_main
from tests.paths import BUILD, ROOT
from tools.apmoff_sweep import report, resultfile

KIT = os.path.join(os.path.dirname(ROOT), "shared", "86box")
TOOL = os.path.join(ROOT, "tools", "apmoff-sweep")
SOURCES = [os.environ.get("APMOFF_86BOX_SOURCE") or "",
           os.path.join(os.path.dirname(ROOT), "86box-src"),
           os.path.join(os.path.dirname(ROOT), "86Box")]
MACHINES = ["award495", "ecs386v", "486sp3c", "tx97", "p55t2p4", "ficva503p", "p3v4x"]
BOOT_SECS = 150
RUN_SECS = 1800         # the whole sweep of MACHINES, one at a time, with retries
JOBS = 2


def kit_commit():
    """The 86Box commit the kit's binary was built from (its SOURCE.md)."""
    try:
        with open(os.path.join(KIT, "SOURCE.md")) as f:
            m = re.search(r"\b[0-9a-f]{40}\b", f.read())
    except OSError:
        return None
    return m and m.group()


def source_args():
    """--source (and --source-rev for a git repository), or None without a source."""
    for path in SOURCES:
        if path and os.path.isfile(os.path.join(path, "src", "machine", "machine_table.c")):
            return ["--source", path]
        if path and kit_commit() and any(os.path.exists(os.path.join(path, git)) for git
                                         in (".git", "HEAD")):
            return ["--source", path, "--source-rev", kit_commit()]
    return None


def sweep(out, *args, cache=None, seed=True, timeout=RUN_SECS):
    cmd = [sys.executable, TOOL] + source_args() + ["--86box", os.path.join(KIT, "86Box"),
           "--roms", os.path.join(KIT, "roms"), "--out", out, "-j", str(JOBS),
           "--timeout", str(BOOT_SECS)] + (["--cache", cache] if cache else []) + \
        (["--seed", os.path.join(KIT, "machines")] if seed else []) + list(args)
    start = time.monotonic()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout, cwd=ROOT)
    return proc.returncode, proc.stdout.decode(errors="replace"), time.monotonic() - start


def results(out):
    found = {}
    for name in os.listdir(os.path.join(out, "results")):
        r = resultfile.read(os.path.join(out, "results", name))
        found[r.machine] = r
    return found


class KitSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(os.path.join(KIT, "86Box"), os.X_OK):
            raise unittest.SkipTest("no 86Box kit at %s" % KIT)
        if not source_args():
            raise unittest.SkipTest("no 86Box source (give APMOFF_86BOX_SOURCE: a tree or "
                                    "a git repository of 86Box, commit %s)" % kit_commit())
        for img in ("apmoff-auto.img", "apmoff-auto-1200.img", "apmoff-auto-360.img"):
            if not os.path.exists(os.path.join(BUILD, img)):
                raise unittest.SkipTest("no build/%s (run make)" % img)
        cls.dir = tempfile.mkdtemp(prefix="sweep-kit.")
        cls.out = os.path.join(cls.dir, "out")
        cls.status, cls.text, cls.secs = sweep(cls.out, *MACHINES)
        cls.r = results(cls.out) if os.path.isdir(os.path.join(cls.out, "results")) else {}

    @classmethod
    def tearDownClass(cls):
        if os.environ.get("APMOFF_KEEP"):
            print("kept %s" % cls.dir, file=sys.stderr)
        else:
            shutil.rmtree(cls.dir, ignore_errors=True)

    def result(self, machine):
        self.assertIn(machine, self.r, self.text[-3000:])
        return self.r[machine]

    def test_every_machine_has_a_verdict_or_a_reason(self):
        self.assertEqual(self.status, 0, self.text[-3000:])
        self.assertEqual(sorted(self.r), sorted(MACHINES))
        for m, r in self.r.items():
            v = r.verdict
            self.assertTrue(v.reached_kernel or (v.reason_kind and v.reason), (m, v))
            if v.reached_kernel:
                # The CPU from evidence: 86Box's written-back config and the survey.
                self.assertTrue(r.cpu.box86.name and r.cpu.apmoff, (m, r.cpu))

    def test_piix4_powers_off(self):
        r = self.result("tx97")
        self.assertEqual((r.verdict.emulator, r.verdict.outcome),
                         ("poweroff", "off via rm"), r.verdict)
        self.assertEqual(r.survey["chipset"]["soft_off"], "yes")
        self.assertEqual(r.survey["label"], "86box:tx97 ASUS TX97")
        self.assertEqual(r.disagreements, [])

    def test_vt82c586b_powers_off_with_acpi(self):
        r = self.result("ficva503p")
        self.assertEqual(r.verdict.emulator, "poweroff", r.verdict)
        self.assertTrue(r.survey["acpi"]["found"])
        # This Super Socket 7 board (2.0-3.2 V) refuses the P54C of its socket: the
        # first family with a model it takes is asked for, and ran, and the kernel saw it.
        self.assertEqual((r.config.cpu_family, r.cpu.box86.family),
                         ("pentium_p55c", "pentium_p55c"))
        self.assertEqual(r.cpu.box86.name, "Pentium MMX 166")
        self.assertTrue(r.cpu.apmoff.startswith("GenuineIntel Pentium MMX, "), r.cpu)
        self.assertIsNone(r.boots[-1].cpu_note)

    def test_no_soft_off_stays_on(self):
        r = self.result("p55t2p4")
        self.assertEqual((r.verdict.emulator, r.verdict.outcome),
                         ("on", "halted: power-off failed via rm, pm32 and pm16"))
        self.assertEqual(sorted(r.interfaces), ["pm16", "pm32", "rm"])
        r = self.result("486sp3c")
        # The SL-enhanced family asked for, taken by 86Box: SMM, and so APM.
        self.assertEqual((r.config.cpu_family, r.cpu.box86.family),
                         ("am486dx2_slenh", "am486dx2_slenh"))
        self.assertTrue(r.cpu.apmoff.startswith("AuthenticAMD "), r.cpu)
        self.assertEqual(r.survey["apm"]["version"], "1.1")
        self.assertTrue(all("error 60h" in x for x in r.interfaces.values()), r.interfaces)

    def test_methods_asked_alone(self):
        # After its own run, a machine is booted once more for each method its survey
        # says it may have: tx97's and ficva503p's south bridges (PIIX4, VT82C586B) turn
        # off by method=chipset; a board without soft-off is asked for nothing more.
        for m in ("tx97", "ficva503p"):
            asked = {t.method: report.sweep_method_text(t.verdict)
                     for t in self.result(m).methods}
            self.assertEqual(asked.get("chipset"), "off", (m, asked))
        self.assertEqual(self.result("p55t2p4").methods, [])
        with open(os.path.join(self.out, "sweep.md")) as f:
            self.assertRegex(f.read(), r"method=chipset on \d+, off [1-9]")
        log = self.result("tx97").methods[-1].com1_log
        self.assertTrue(log.startswith("logs-methods/"), log)
        with open(os.path.join(self.out, log)) as f:
            self.assertIn("method=chipset", f.read())

    def test_cmos_drive_decides_the_drive(self):
        # The kit primed the AMI 386's CMOS with its default 1.2 MB drive A:, the Award
        # 386's with a 1.44 MB one: each boots the image of its own drive.
        self.assertEqual(self.result("ecs386v").config.floppy, "525_2hd")
        self.assertEqual(self.result("award495").config.floppy, "35_2hd")
        for m in ("ecs386v", "award495"):
            r = self.result(m)
            self.assertEqual(r.verdict.outcome, "halted: no APM BIOS", r.verdict)
            self.assertEqual(r.survey["cpu"]["class"], "386")

    def test_machine_without_rom(self):
        v = self.result("p3v4x").verdict
        self.assertEqual(v.reason_kind, "no-rom")
        self.assertIn("86Box --missing lists it", v.reason)

    def test_outputs(self):
        with open(os.path.join(self.out, "sweep.md")) as f:
            md = f.read()
        rows = [l for l in md.splitlines() if l.startswith("| `")]
        self.assertEqual(len(rows), len(MACHINES), md)
        self.assertIn("reached the kernel", md)
        conn = sqlite3.connect(os.path.join(self.out, "apmoff.db"))
        names = {r[0] for r in conn.execute("SELECT name FROM machines")}
        conn.close()
        self.assertIn("86box:tx97 ASUS TX97", names)
        self.assertEqual(len(names), len(MACHINES) - 1)     # p3v4x has no report
        self.assertTrue(os.path.exists(os.path.join(self.out, "html", "index.html")))
        with open(os.path.join(self.out, "reports.csv")) as f:
            self.assertEqual(len(f.read().strip().splitlines()), len(MACHINES))
        with open(os.path.join(self.out, self.result("tx97").com1_log)) as f:
            self.assertRegex(f.read(), r"\n86BOX poweroff secs=\d+\n$")

    def test_second_run_boots_nothing(self):
        status, text, secs = sweep(self.out, *MACHINES, timeout=300)
        self.assertEqual(status, 0, text)
        self.assertIn("%d already judged" % len(MACHINES), text)
        self.assertNotIn("boot 1:", text)

    def test_fresh_cmos_prompt_answered(self):
        out = os.path.join(self.dir, "fresh")
        status, text, _ = sweep(out, "--no-collect", "tx97", seed=False, timeout=600)
        self.assertEqual(status, 0, text)
        r = results(out)["tx97"]
        first = r.boots[0]
        self.assertTrue(first.fresh_cmos)
        self.assertIn("F1 (f1-continue)", first.keys, first)
        self.assertEqual(r.verdict.emulator, "poweroff", r.verdict)


if __name__ == "__main__":
    if "-j" in sys.argv:
        i = sys.argv.index("-j")
        JOBS = int(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    tap_main()
