"""What the tests of apmoff-collect against strangers' files share (test_hostile.py,
test_bounds.py, test_output.py): the program run as a user runs it with its peak
memory measured, QR pictures drawn by the kernel's own encoder, payloads too large
for a real symbol shown to the program by a stand-in zbarimg, and a TAP runner.
"""

import json
import os
import subprocess
import sys
import shutil
import tempfile
import time
import unittest
import zlib

from tests.collect.test_collect import FIXTURES, ROOT, TOOL, TapResult, read, write
from tools.apmoff_collect import qrpages
from tools.apmoff_collect.limits import MEMORY_MIB

WORK = os.path.join(ROOT, "build", "collect-hostile")
MKQR = os.path.join(WORK, "mkqr")
# The most any case may take, in MiB of resident memory: the collector's own peak
# and that of the largest program it ran (the picture's scaler, zbarimg; they run one
# at a time), added (Python and SQLite alone take about 20).
PEAK_MB = MEMORY_MIB

# Runs the program in this process (argv: the address-space cap in bytes, then the
# program and its arguments), and prints its own peak resident size and its
# children's, in KiB, and the CPU time of all of them, in ms, as the last line of
# stderr. Its own peak is VmHWM, the peak of this program's memory since exec():
# getrusage()'s would count the test process it was forked from, which may hold a
# 200-megapixel picture it drew. A child's peak counts the collector's size when it
# forked it, which only errs on the safe side. The address space is capped so a
# regression fails the test instead of taking the machine's memory.
PEAK_WRAPPER = """
import atexit, resource, runpy, sys
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
def peak():
    with open("/proc/self/status") as f:
        hwm = [int(l.split()[1]) for l in f if l.startswith("VmHWM:")][0]
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(r.ru_utime + r.ru_stime for r in (own, children))
    sys.stderr.write("\\npeak-kb %d %d %d\\n" % (hwm, children.ru_maxrss, cpu * 1000))
atexit.register(peak)
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
ADDRESS_SPACE = 3 << 30

def survey_line(name="off.log"):
    return [l for l in read(os.path.join(FIXTURES, name)).splitlines()
            if l.startswith("apmoff: survey {")][0][len("apmoff: survey "):]


SURVEY = json.loads(survey_line())


def variant(**changes):
    """The fixture's survey with dotted-path fields (a__b) replaced (None deletes)."""
    s = json.loads(json.dumps(SURVEY))
    for path, value in changes.items():
        node = s
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        if value is None:
            node.pop(keys[-1], None)
        else:
            node[keys[-1]] = value
    return s


class Run:
    """A finished run of the program: returncode, stdout, stderr (without the peak
    line), peak (MiB: its own and its largest child's, added), cpu (its and its
    children's CPU seconds), seconds."""

    def __init__(self, proc, seconds):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        err, _, peak = proc.stderr.rpartition("\npeak-kb ")
        self.stderr = err
        own, children, cpu = (int(x) for x in (peak.split() or ["0", "0", "0"]))
        self.own_peak, self.children_peak = own / 1024, children / 1024
        self.peak = self.own_peak + self.children_peak
        self.cpu = cpu / 1000
        self.seconds = seconds

    def __repr__(self):
        return ("exit %d, %.0f MiB (own %.0f, children %.0f), %.1f s CPU in %.1f s, "
                "stdout %r, stderr %r" % (self.returncode, self.peak, self.own_peak,
                                          self.children_peak, self.cpu, self.seconds,
                                          self.stdout[-300:], self.stderr[-600:]))


def run(db, *args, env=None, timeout=120, tool=TOOL, address_space=ADDRESS_SPACE,
        prefix=(), cwd=None):
    """The program run as a user runs it (prefix: a command it runs under, such as
    setpriv), its peak memory measured. The timeout only stops a run that would
    never end; no test judges a run by its time."""
    start = time.monotonic()
    proc = subprocess.run(list(prefix) + [sys.executable, "-c", PEAK_WRAPPER,
                                          str(address_space), tool]
                          + (["--db", db] if db else []) + list(args),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          errors="replace", timeout=timeout, cwd=cwd,
                          env=dict(os.environ, **(env or {})))
    return Run(proc, time.monotonic() - start)


MKQR_SOURCES = ["tests/collect/mkqr.c", "survey/qr.c", "survey/qrpages.c", "survey/qrscreen.c",
                "survey/deflate.c", "survey/base45.c", "lib/crc32.c", "lib/format.c"]


def build_mkqr():
    """tests/collect/mkqr.c with the kernel's encoders, again whenever any of them is
    newer than the binary (a changed deflate must be what the tests feed on)."""
    newest = max(os.path.getmtime(os.path.join(ROOT, p)) for p in MKQR_SOURCES +
                 [h.replace(".c", ".h") for h in MKQR_SOURCES[1:]])
    if not os.path.exists(MKQR) or os.path.getmtime(MKQR) < newest:
        os.makedirs(WORK, exist_ok=True)
        subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-o", MKQR] + MKQR_SOURCES,
                       cwd=ROOT, check=True)


def qr_picture(path, text):
    """A PGM picture of one QR symbol of `text`, drawn by the kernel's encoder."""
    subprocess.run([MKQR, "qr", path], input=text.encode("latin-1"), check=True)
    return path


def kernel_packed(line, prefix=qrpages.PACKED_PREFIX):
    """The one-symbol text the kernel makes of a line (survey/deflate.c, base45.c):
    APMOFF3 as it draws now, or 0.3's APMOFF2."""
    r = subprocess.run([MKQR, "packed", prefix, qrpages.PACKED[prefix]],
                       input=line.encode("latin-1"),
                       stdout=subprocess.PIPE, check=True)
    return r.stdout.decode().strip()


def bomb(inflated, filler=b" "):
    """An APMOFF2 text that inflates to `inflated` bytes: a survey's opening and then
    filler, streamed through zlib with the survey dictionary, then Base45."""
    packer = zlib.compressobj(9, zdict=qrpages.zdict())
    parts = [packer.compress(b'{"schema":1,"label":"')]
    chunk = filler * (1 << 20)
    for _ in range(inflated >> 20):
        parts.append(packer.compress(chunk))
    parts.append(packer.compress(b'"}') + packer.flush())
    return qrpages.PACKED_PREFIX + qrpages.base45_encode(b"".join(parts))


# The stand-in zbarimg of Tmp.fake_zbar (a Python script; %(python)s and %(dir)s are
# filled in).
FAKE_ZBAR = """#!%(python)s -I
import shutil, sys
with open(sys.argv[-1], "rb") as png:
    number = int.from_bytes(png.read(24)[16:20], "big")       # IHDR: the width
with open("%(dir)s/symbols-%%d" %% number, "rb") as f:
    shutil.copyfileobj(f, sys.stdout.buffer)
sys.stderr.write("scanned 1 barcode symbols from 1 images in 0 seconds\\n")
"""


def paged(text, count):
    """APMOFF1 page texts of `text` (its CRC-32 over the whole)."""
    return qrpages.pages_of(text, count)


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="apmoff-hostile-")
        self.db = os.path.join(self.dir, "t.db")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def file(self, name, text):
        return write(self.path(name), text)

    def good(self):
        """A good log, to show the rest of a batch still goes in."""
        return os.path.join(FIXTURES, "failed.log")

    def assertRefused(self, r, name, *words):
        """The file named was skipped for the reason given; the good one went in; no
        traceback; the peak stayed bounded."""
        self.assertEqual(r.returncode, 1, r)
        self.assertNotIn("Traceback", r.stderr, r)
        line = [l for l in r.stderr.splitlines() if l.startswith("skipped ") and name in l]
        self.assertTrue(line, r)
        for word in words:
            self.assertIn(word, line[0], r)
        self.assertIn("1 reports added", r.stdout, r)
        self.assertLess(r.peak, PEAK_MB, r)

    def assertSkipped(self, r, name, words):
        """The file named was skipped for the reason given, and nothing went in."""
        self.assertEqual(r.returncode, 1, r)
        line = [l for l in r.stderr.splitlines() if l.startswith("skipped ") and name in l]
        self.assertTrue(line and words in line[0], r)
        self.assertIn("0 reports added", r.stdout, r)

    def fake_zbar(self, script=FAKE_ZBAR):
        """A zbarimg for payloads larger than a real symbol holds: it prints the
        symbols of the picture whose number is the picture's width (fake_picture),
        one a line, as zbarimg --raw does, and its summary on stderr. The collector
        gives zbarimg its own scaled copy of a picture, which keeps the size of a
        picture that small. Returns the environment to use."""
        bindir = self.path("bin")
        os.makedirs(bindir, exist_ok=True)
        write(os.path.join(bindir, "zbarimg"), script % {"python": sys.executable,
                                                        "dir": bindir})
        os.chmod(os.path.join(bindir, "zbarimg"), 0o755)
        return {"PATH": bindir + os.pathsep + os.environ["PATH"]}

    def fake_picture(self, name, symbols):
        """A real PNG whose width is its number, and the symbols the fake zbarimg
        prints for it."""
        from PIL import Image
        self.pictures = number = getattr(self, "pictures", 0) + 1
        path = self.path(name)
        Image.new("L", (number, 1), 255).save(path)
        with open(os.path.join(self.path("bin"), "symbols-%d" % number), "w",
                  encoding="latin-1") as f:
            f.write("".join(s + "\n" for s in symbols))
        return path


def main():
    """unittest's main, with one TAP line a test under --tap (tests.run_all reads
    them)."""
    argv = [a for a in sys.argv if a != "--tap"]
    if "--tap" in sys.argv:
        runner = unittest.TextTestRunner(resultclass=TapResult, stream=sys.stderr,
                                         verbosity=0)
        unittest.main(module="__main__", argv=argv, testRunner=runner)
    else:
        unittest.main(module="__main__", argv=argv)
