#!/usr/bin/python3
"""apmoff-collect against strangers' files, round two: what a file may cost. Parsing
in time that grows with the input, never with its square; every limit for every kind
of file; the memory docs/collect.md promises (the collector's own peak and its
children's, added) for any file within the limits; a picture of any size given to
zbarimg in a form it reads, and "could not be read" when it did not look; a file
refused leaves nothing behind, not even a page of a QR payload.

No test judges a run by the time it took: time is compared with the time of the same
work on a small input (a ratio), and a run's timeout only stops one that would never
end.

    python3 -m tests.collect.test_bounds [-v] [--tap] [-k PATTERN]
"""

import json
import os
import signal
import subprocess
import time

from tests.collect.harness import (PEAK_MB, WORK, Tmp, build_mkqr, main, qr_picture, run,
                                   survey_line, variant)
from tests.collect.test_collect import ROOT, read
from tools.apmoff_collect import inputs, qrpages, schema
from tools.apmoff_collect.limits import DEFAULT as LIMITS, Limits


# --- time: a ratio against the same work on 64 KiB ---------------------------------------

SMALL = 64 << 10
LARGE = (1 << 20, 16 << 20)
# A linear parser takes 16 and 256 times as long on 1 MiB and 16 MiB as on 64 KiB; a
# quadratic one 256 and 65536 times. Six times the linear ratio allows for a busy
# machine and still catches the square at the first large size.
SLACK = 6


class TooSlow(Exception):
    pass


def cpu_seconds(function, argument, budget=None, runs=2):
    """The CPU time of function(argument), the least of `runs` runs. A run that
    passes `budget` CPU seconds is stopped (TooSlow): a quadratic parser would take
    hours on 16 MiB, and the ratio is already lost."""
    def stop(*_):
        raise TooSlow()
    previous = signal.signal(signal.SIGPROF, stop)
    best = float("inf")
    try:
        for _ in range(runs):
            if budget:
                signal.setitimer(signal.ITIMER_PROF, budget)
            start = time.process_time()
            try:
                function(argument)
            except (inputs.BadInput, schema.Invalid, ValueError):
                pass                            # a refusal is an answer, in its time
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            best = min(best, time.process_time() - start)
    finally:
        signal.signal(signal.SIGPROF, previous)
    return best


def small_seconds(function, argument):
    """The CPU time of one run on the small input, from enough runs to fill 50 ms
    (a single run of a linear parser on 64 KiB is below the clock's grain)."""
    runs, start = 0, time.process_time()
    while True:
        cpu_seconds(function, argument, runs=1)
        runs += 1
        spent = time.process_time() - start
        if spent >= 0.05:
            return spent / runs


class LinearTime(Tmp):
    def assertLinear(self, function, make):
        """function(make(size)) takes at most SLACK times its linear share of the
        time it takes on SMALL, at each size of LARGE."""
        small = small_seconds(function, make(SMALL))
        for size in LARGE:
            ratio = size / SMALL * SLACK
            big = make(size)
            try:
                cpu_seconds(function, big, budget=small * ratio)
            except TooSlow:
                self.fail("%d KiB took more than %d times what 64 KiB took (%.5f s)"
                          % (size >> 10, ratio, small))

    def test_nesting_of_a_string_that_never_closes(self):
        # A string that never closes, full of escaped quotes: each quote was where
        # the old string pattern started, and failed at the end of the text, again.
        head = '{"schema":1,"label":"'
        self.assertLinear(schema.nesting,
                          lambda n: head + '\\"' * ((n - len(head)) // 2))

    def test_a_packed_payload_that_inflates_to_such_a_string(self):
        # The 1.2 KB photo: an APMOFF2 stream of that string, decoded as the
        # collector decodes a symbol (limits raised to let the large ones through).
        limits = Limits(inflated_bytes=32 << 20, json_bytes=32 << 20)

        def payload(n):
            head = b'{"schema":1,"label":"'
            return qrpages.pack(head + b'\\"' * ((n - len(head)) // 2))
        self.assertLinear(lambda text: inputs.decode_payload(text, limits), payload)

    def test_an_emulator_line_that_repeats_its_event(self):
        # A QMP line that names the SHUTDOWN event again and again and never a
        # reason, after the power-off call of a log that raised line_chars.
        limits = Limits(line_chars=32 << 20, file_bytes=64 << 20)
        log = "apmoff: version 0.2\napmoff: survey %s\napmoff: powering off via rm\n" % (
            survey_line())
        unit = '"event":"SHUTDOWN",'

        def capture(n):
            return (log + unit * (n // len(unit)) + "\n").encode()

        def read(raw):
            inputs.read_log("t.log", inputs.kept_lines(raw, limits, "t.log"), limits)
        self.assertLinear(read, capture)

    def test_the_photo_of_such_a_payload_in_a_batch(self):
        # The photo itself (the kernel's encoder, zbarimg): refused for what it is,
        # and the good file after it in the batch goes in.
        build_mkqr()
        head = b'{"schema":1,"label":"'
        text = qrpages.pack(head + b'\\"' * (((254 << 10) - len(head)) // 2))
        pic = qr_picture(self.path("string.pgm"), text)
        r = run(self.db, "add", pic, self.good(), timeout=600)
        self.assertRefused(r, "string.pgm", "the JSON does not parse")


# --- every limit for every kind of file --------------------------------------------------

def eagain_library():
    """tests/collect/eagain.c built: a regular file that answers EAGAIN forever."""
    so = os.path.join(WORK, "eagain.so")
    source = os.path.join(ROOT, "tests", "collect", "eagain.c")
    if not os.path.exists(so) or os.path.getmtime(so) < os.path.getmtime(source):
        os.makedirs(WORK, exist_ok=True)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror",
                        "-o", so, source, "-ldl"], check=True)
    return so


class EveryKindOfFile(Tmp):
    def test_a_regular_file_that_answers_eagain_forever(self):
        # What a link to /proc/kmsg does (only root may read that one): fstat() says
        # it is a regular file, and every read says "try again". The wait is bounded
        # by read_seconds, and it is a wait, not a spin: the collector's CPU time is a
        # small part of the time it waited.
        kmsg = self.file("kmsg.eagain", "")
        r = run(self.db, "add", "--limit", "read_seconds=3", kmsg, self.good(),
                env={"LD_PRELOAD": eagain_library()}, timeout=300)
        self.assertRefused(r, "kmsg.eagain", "read_seconds")
        self.assertLess(r.cpu, r.seconds / 2, r)

    def test_a_fifo_is_held_to_read_seconds_too(self):
        # A writer that writes a line every now and then, and never ends. (The test
        # holds the FIFO open too, so the program never finds it without a writer.)
        fifo = self.path("drip")
        os.mkfifo(fifo)
        holder = os.open(fifo, os.O_RDWR)
        writer = subprocess.Popen(["sh", "-c", 'while :; do echo x; sleep 0.2; done > "$1"',
                                   "sh", fifo])
        try:
            r = run(self.db, "add", "--limit", "read_seconds=2", fifo, self.good(),
                    timeout=300)
        finally:
            writer.kill()
            writer.wait()
            os.close(holder)
        self.assertRefused(r, "drip", "read_seconds")

    def test_a_picture_past_picture_pixels_and_raising_it(self):
        # A PNG is decoded whole: one of 64 megapixels is refused, naming the limit,
        # before it is decoded; raised, it is read.
        from PIL import Image
        build_mkqr()
        code = Image.open(qr_picture(self.path("qr.pgm"), kernel_line()))
        big = Image.new("L", (9248, 6936), 235)
        big.paste(code.resize((code.width * 8, code.height * 8)), (3000, 2000))
        big.save(self.path("big.png"))
        r = run(self.db, "add", self.path("big.png"), self.good())
        self.assertRefused(r, "big.png", "a picture of 9248x6936 pixels",
                           "picture_pixels limit of 12M")
        os.unlink(self.db)
        r = run(self.db, "add", "--limit", "picture_pixels=64M", self.path("big.png"))
        self.assertEqual(r.returncode, 0, r)


def kernel_line():
    """The APMOFF3 text of the fixture's survey line, as the kernel packs it."""
    return qrpages.pack(survey_line())


# --- memory ----------------------------------------------------------------------------

class Memory(Tmp):
    """The collector's peak and its largest child's, added, stay under PEAK_MB (what
    docs/collect.md promises) for files at the limits."""

    def assertBounded(self, r):
        self.assertLess(r.peak, PEAK_MB, r)

    def test_a_log_of_banner_lines_at_file_bytes(self):
        line = "apmoff: version 0\n"
        with open(self.path("banners.log"), "w") as f:
            f.write(line * (LIMITS.file_bytes // len(line)))
        r = run(self.db, "add", self.path("banners.log"), self.good(), timeout=600)
        self.assertRefused(r, "banners.log", "no 'apmoff: survey {...}'")
        self.assertBounded(r)

    def test_a_json_list_of_minimal_reports_at_json_file_bytes(self):
        item = '{"schema":1},'
        with open(self.path("minimal.json"), "w") as f:
            f.write("[" + item * ((LIMITS.json_file_bytes - 16) // len(item)) +
                    '{"schema":1}]')
        r = run(self.db, "add", self.path("minimal.json"), self.good(), timeout=600)
        self.assertRefused(r, "minimal.json", "over the reports limit of 10000")
        self.assertBounded(r)

    def test_a_json_list_of_as_many_reports_as_the_limit_allows(self):
        # 10000 surveys of the kernel's size: 13 MB of JSON, every one a machine.
        with open(self.path("many.json"), "w") as f:
            f.write("[" + ",".join(json.dumps(variant(label="m%d" % i))
                                   for i in range(LIMITS.reports)) + "]")
        self.assertLess(os.path.getsize(self.path("many.json")), LIMITS.json_file_bytes)
        r = run(self.db, "add", self.path("many.json"), timeout=900)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("%d added" % LIMITS.reports, r.stdout)
        self.assertBounded(r)

    def test_a_log_of_as_many_boots_as_the_limit_allows(self):
        # Each boot's survey with a label of 1.5 KB: 30 MB, near file_bytes.
        line = survey_line()
        with open(self.path("boots.log"), "w") as f:
            for i in range(LIMITS.reports):
                f.write("apmoff: version 0.2\napmoff: survey %s\n" % line.replace(
                    '"options":""', '"options":"","label":"%05d%s"' % (i, "x" * 1500)))
        self.assertLess(os.path.getsize(self.path("boots.log")), LIMITS.file_bytes)
        r = run(self.db, "add", self.path("boots.log"), timeout=900)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("%d added" % LIMITS.reports, r.stdout)
        self.assertBounded(r)
        r = run(self.db, "add", self.file("one-more.log", read(self.path("boots.log")) +
                                          "apmoff: version 0.2\napmoff: survey %s\n"
                                          % line))
        self.assertSkipped(r, "one-more.log", "more than 10000 reports: over the "
                           "reports limit of 10000")

    def test_a_noisy_png_of_picture_pixels_near_file_bytes(self):
        # The most a picture that is not a JPEG may cost: as many pixels as the limit
        # allows, in colour (4 bytes a pixel decoded), and so much noise that the
        # file is near file_bytes, which the collector holds while the scaler works.
        r = run(self.db, "add", "--no-prompt", noisy_png(), timeout=600)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("1 reports added", r.stdout, r)
        self.assertBounded(r)

    def test_phone_photos_of_64_and_200_megapixels(self):
        # JPEG photos with a readable code: decoded at 1/4 and 1/8 of their size, so
        # neither the collector nor zbarimg ever holds them whole.
        for name, size in (("photo64.jpg", (9248, 6936)), ("photo200.jpg", (16320, 12240))):
            r = run(self.db, "add", "--no-prompt", photo(name, size), timeout=600)
            self.assertEqual(r.returncode, 0, r)
            self.assertIn("1 reports added", r.stdout, r)
            self.assertBounded(r)
            os.unlink(self.db)


def photo(name, size):
    """A JPEG photo of the screen's code (the fixture's survey, as the kernel packs
    it) at `size`, the code a fifth of its width; made once, in build/."""
    path = os.path.join(WORK, name)
    if os.path.exists(path):
        return path
    from PIL import Image
    build_mkqr()
    code = Image.open(qr_picture(os.path.join(WORK, "photo-code.pgm"), kernel_line()))
    side = size[0] // 5
    picture = Image.new("L", size, 96)
    picture.paste(code.resize((side, side)), ((size[0] - side) // 2, (size[1] - side) // 2))
    picture.save(path + ".tmp", "JPEG", quality=75)
    os.replace(path + ".tmp", path)
    return path


def noisy_png():
    """An RGB PNG of exactly picture_pixels pixels, noise above the code, just under
    file_bytes; made once, in build/."""
    path = os.path.join(WORK, "noisy.png")
    if os.path.exists(path):
        return path
    from PIL import Image
    build_mkqr()
    width = 4096
    height = LIMITS.picture_pixels // width
    noisy = (height * 8) // 10                       # random bytes hardly compress
    picture = Image.new("RGB", (width, height), (200, 200, 200))
    picture.paste(Image.frombytes("RGB", (width, noisy), os.urandom(width * noisy * 3)))
    code = Image.open(qr_picture(os.path.join(WORK, "photo-code.pgm"), kernel_line()))
    picture.paste(code.convert("RGB").resize((500, 500)), (100, noisy + 40))
    picture.save(path + ".tmp", "PNG", compress_level=1)
    assert os.path.getsize(path + ".tmp") <= LIMITS.file_bytes
    os.replace(path + ".tmp", path)
    return path


# --- pictures ------------------------------------------------------------------------

# An ImageMagick resource policy stricter than Debian's (which allows 16K pixels a
# side): a distribution's or an administrator's, as the reviewer had.
STRICT_POLICY = """<policymap>
  <policy domain="resource" name="width" value="4KP"/>
  <policy domain="resource" name="height" value="4KP"/>
  <policy domain="resource" name="area" value="16MP"/>
</policymap>
"""

# zbarimg as it behaves when ImageMagick only warns: a bare warning, no image
# scanned, exit 0.
WARNING_ZBAR = """#!/bin/sh
echo "WARNING: " >&2
exit 0
"""


def side_by_side(path, *pictures):
    """One picture of several QR pictures next to each other."""
    from PIL import Image
    ims = [Image.open(p).convert("L") for p in pictures]
    out = Image.new("L", (sum(im.width for im in ims) + 40, max(im.height for im in ims)),
                    255)
    x = 0
    for im in ims:
        out.paste(im, (x, 0))
        x += im.width + 40
    out.save(path)
    return path


class Pictures(Tmp):
    @classmethod
    def setUpClass(cls):
        build_mkqr()

    def test_under_a_hard_address_space_limit_below_zbar_memory(self):
        # `ulimit -v` of 768 MiB, hard: the children may not be given more. Root
        # could raise it anyway, so the program runs without CAP_SYS_RESOURCE.
        prefix = ["setpriv", "--inh-caps=-sys_resource", "--bounding-set=-sys_resource"] \
            if os.geteuid() == 0 else []
        pic = qr_picture(self.path("qr.pgm"), kernel_line())
        r = run(self.db, "add", "--no-prompt", pic, self.good(), address_space=768 << 20,
                prefix=prefix)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("2 reports added", r.stdout, r)

    def test_a_photo_past_imagemagicks_policy_is_scaled_first(self):
        policy = self.path("policy")
        os.mkdir(policy)
        with open(os.path.join(policy, "policy.xml"), "w") as f:
            f.write(STRICT_POLICY)
        r = run(self.db, "add", "--no-prompt", photo("photo64.jpg", (9248, 6936)),
                env={"MAGICK_CONFIGURE_PATH": policy}, timeout=600)
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("1 reports added", r.stdout, r)
        self.assertLess(r.peak, PEAK_MB, r)

    def test_a_picture_the_decoder_did_not_look_at_could_not_be_read(self):
        pic = qr_picture(self.path("qr.pgm"), kernel_line())
        from PIL import Image
        Image.open(pic).save(self.path("whole.png"))
        with open(self.path("whole.png"), "rb") as f:
            self.file("cut.png", "")
            with open(self.path("cut.png"), "wb") as out:
                out.write(f.read()[:300])          # a PNG cut short
        r = run(self.db, "add", self.path("cut.png"), self.good())
        self.assertRefused(r, "cut.png", "could not be read")
        self.assertNotIn("no QR code", r.stderr)
        os.unlink(self.db)
        # zbarimg itself, under a policy that makes ImageMagick only warn.
        env = self.fake_zbar(WARNING_ZBAR)
        r = run(self.db, "add", self.path("whole.png"), self.good(), env=env)
        self.assertRefused(r, "whole.png", "zbarimg could not read the picture",
                           "no image scanned")
        self.assertNotIn("no QR code", r.stderr)

    def test_a_foreign_code_beside_apmoffs_is_named_and_ignored(self):
        # Page 1 of 2 of a survey line beside a sticker's code (read after the page),
        # page 2 alone: the report is made, and the sticker named.
        line = survey_line()
        page1, page2 = qrpages.pages_of(line, 2)
        both = side_by_side(self.path("sticker-and-screen.png"),
                            qr_picture(self.path("sticker.pgm"),
                                       "https://example.com/wifi?ssid=guest"),
                            qr_picture(self.path("p1.pgm"), page1))
        r = run(self.db, "add", "--no-prompt", both,
                qr_picture(self.path("p2.pgm"), page2))
        self.assertEqual(r.returncode, 0, r)
        self.assertIn("1 reports added", r.stdout, r)
        self.assertIn("note: ignored 1 QR code that is not apmoff's: "
                      "'https://example.com/wifi?ssid=guest'", r.stdout)
        r = run(self.db, "add", self.path("sticker.pgm"))
        self.assertSkipped(r, "sticker.pgm", "no apmoff QR code, only 1 QR code that is "
                           "not apmoff's")

    def test_a_refused_picture_leaves_no_page_behind(self):
        # Page 1 beside a broken APMOFF2 symbol: the picture is refused, and with it
        # its page; page 2 alone then makes no report. (zbarimg gives the symbols
        # right to left: the page is read before the broken one.)
        page1, page2 = qrpages.pages_of(survey_line(), 2)
        broken = side_by_side(self.path("broken-and-page.png"),
                              qr_picture(self.path("bad.pgm"), "APMOFF2:ZZZZ"),
                              qr_picture(self.path("p1.pgm"), page1))
        r = run(self.db, "add", "--no-prompt", broken,
                qr_picture(self.path("p2.pgm"), page2))
        self.assertEqual(r.returncode, 1, r)
        self.assertIn("broken-and-page.png", r.stderr)
        self.assertIn("page(s) 1 of 2 missing", r.stderr)
        self.assertIn("0 reports added", r.stdout, r)


if __name__ == "__main__":
    main()
