"""The survey QR code reads back whatever it carries: survey lines of real shapes, made
into the screen the kernel draws (its own deflate, Base45, QR encoder and layout, through
tests/collect/mkqr.c), photographed the harness's seven ways (tests/emu/photo.py) and
read with zbar must give the line back byte for byte, every one.

The lines: real ones (tests/qr/lines/: QEMU 7.2 and 10, Bochs 2.7 and 3.0; the 86Box
boards of tests/sweep/fixtures/; apmoff-collect's fixtures), varied the ways a line
varies from run to run and machine to machine: the commit's hash (a clean or dirty
build), a label of the user's, the options, the PCI functions of another board. Seeded:
the same lines every run, so a failure is one a person can rerun.

Why: apmoff 0.3 drew every symbol with mask 0, and whether a symbol read from a photo
then hung on the payload, which carries the commit's hash (Bochs 3.0's line of 2240fcd
never read from the mild photo). test_the_photos_can_fail keeps that screen as a
fixture: a test that could not fail would prove nothing.

    python3 -m tests.qr.test_qr_property [-v] [--tap]
"""

import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import unittest

from tests.collect import harness
from tests.emu import photo
from tests.paths import ROOT
from tools.apmoff_collect import qrpages

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = 54               # lines drawn and photographed: fifty and more
SEED = 47
MASK_AUTO = -1              # the penalty rules' choice, as app/show/surveyscreen.c draws
MASK0_SCREEN = os.path.join(HERE, "fixtures", "bochs-3.0-2240fcd-mask0.png")
DRAWN = re.compile(r"^version (\d+), (\d+) characters, (\d+) px$")
LABEL_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.:/#()+,"


def real_lines():
    """{name: the JSON line} of every real survey line the tree holds."""
    lines = {}
    for path in sorted(glob.glob(os.path.join(HERE, "lines", "*.json"))):
        with open(path, encoding="latin-1") as f:
            lines[os.path.basename(path)[:-5]] = f.read().strip()
    logs = sorted(glob.glob(os.path.join(ROOT, "tests", "sweep", "fixtures", "runs", "*",
                                         "com1.log")) +
                  glob.glob(os.path.join(ROOT, "tests", "collect", "fixtures", "*.log")))
    for path in logs:
        with open(path, encoding="latin-1") as f:
            for line in f:
                if line.startswith("apmoff: survey {"):
                    name = os.path.basename(os.path.dirname(path)) if path.endswith(
                        "com1.log") else os.path.basename(path)[:-4]
                    lines[name] = line[len("apmoff: survey "):].strip()
    return lines


def with_key_after(report, after, key, value):
    """The report with `key` placed after `after`, where the kernel writes it."""
    out = {}
    for k, v in report.items():
        if k != key:
            out[k] = v
        if k == after:
            out[key] = value
    return out


def variants(lines, count, seed=SEED):
    """(name, line) pairs: each real line as it is, then varied ones up to `count`."""
    rnd = random.Random(seed)
    reports = {name: json.loads(line) for name, line in lines.items()}
    pci_lists = [r["pci"]["functions"] for r in reports.values()
                 if isinstance(r.get("pci"), dict) and r["pci"].get("functions")]
    out = [(name, line) for name, line in lines.items()]
    names = sorted(reports)
    while len(out) < count:
        name = rnd.choice(names)
        r = json.loads(lines[name])
        commit = "%012x" % rnd.getrandbits(48) + rnd.choice(["", "", "-dirty"])
        if "commit" in r:
            r["commit"] = commit
            r["version"] = rnd.choice(["0.4", "0.4", "0.3", "1.0"])
        label = "".join(rnd.choice(LABEL_CHARS) for _ in range(rnd.choice([0, 8, 24, 60])))
        options = rnd.choice(["action=survey", "action=survey wait=key",
                              "action=survey wait=30 onfail=exit", "action=check"])
        r["options"] = options + (" label=\"%s\"" % label if label else "")
        if label:
            r = with_key_after(r, "options", "label", label.strip() or "x")
        if pci_lists and isinstance(r.get("pci"), dict) and rnd.random() < 0.5:
            r["pci"]["functions"] = list(rnd.choice(pci_lists))
        out.append(("%s~%s" % (name, commit), json.dumps(r, separators=(",", ":"))))
    return out


def draw(line, picture, mask=MASK_AUTO, prefix=qrpages.PACKED_PREFIX):
    """The survey screen of a line, as the kernel draws it: (version, characters, px)."""
    proc = subprocess.run([harness.MKQR, "screen", picture, str(mask), prefix,
                           qrpages.PACKED[prefix]], input=line.encode("latin-1"),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    m = DRAWN.match(proc.stdout.decode().strip())
    return tuple(int(g) for g in m.groups())


def unreadable(picture, workdir, line):
    """The photo variants of a screen that do not give the line back."""
    failed = []
    for name, path in photo.degrade(picture, workdir).items():
        try:
            got = qrpages.survey_line(qrpages.zbar_symbols(path))
        except qrpages.PageError as e:
            got = "(%s)" % e
        if got != line:
            failed.append(name)
    return failed


class SurveyQrProperty(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        harness.build_mkqr()
        cls.work = tempfile.mkdtemp(prefix="apmoff-qr-")
        cls.lines = real_lines()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_line_reads_back_from_every_photo(self):
        cases = variants(self.lines, VARIANTS)
        self.assertGreaterEqual(len(cases), 50)

        def one(index_case):
            index, (name, line) = index_case
            workdir = os.path.join(self.work, "line-%02d" % index)
            os.makedirs(workdir)
            picture = os.path.join(workdir, "screen.pgm")
            version, chars, px = draw(line, picture)
            return name, version, chars, px, unreadable(picture, workdir, line)

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(one, enumerate(cases)))
        bad = ["%s (version %d, %d characters, %d px): %s" % (n, v, c, p, ", ".join(f))
               for n, v, c, p, f in results if f]
        self.assertEqual(bad, [], "%d of %d lines do not read back" % (len(bad), len(results)))

    def test_real_lines_get_five_pixel_modules(self):
        # Every emulator's and board's line the tree holds fits a symbol drawn with
        # 5-pixel modules on a VGA's 480 rows (version 17 at most).
        for name, line in sorted(self.lines.items()):
            version, chars, px = draw(line, os.path.join(self.work, "five.pgm"))
            self.assertGreaterEqual(px, 5, "%s: version %d, %d characters, %d px"
                                    % (name, version, chars, px))

    def test_the_photos_can_fail(self):
        # The screen Bochs 3.0 drew at 2240fcd (mask 0, version 22, 4 px): the mild photo
        # does not read; the same text drawn with the mask the penalty rules choose does.
        text = qrpages.zbar_symbols(MASK0_SCREEN)[0]
        self.assertTrue(text.startswith("APMOFF2:"))
        line = qrpages.survey_line([text])
        workdir = os.path.join(self.work, "mask0")
        os.makedirs(workdir)
        self.assertIn("all-mild", unreadable(MASK0_SCREEN, workdir, line))
        redrawn = os.path.join(workdir, "auto.pgm")
        subprocess.run([harness.MKQR, "screen-text", redrawn, str(MASK_AUTO)],
                       input=text.encode(), stdout=subprocess.DEVNULL, check=True)
        self.assertEqual(unreadable(redrawn, workdir, line), [])


if __name__ == "__main__":
    harness.main()
