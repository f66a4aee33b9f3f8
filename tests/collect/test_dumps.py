"""apmoff-collect's reader of action=dump blocks (tools/apmoff_collect/dumps.py):
whole blocks are taken, and every way a serial line can break one is named."""

import codecs
import contextlib
import hashlib
import io
import os
import shutil
import tempfile
import unittest
import zlib

from tools.apmoff_collect import cli, dumppub, dumps, limits, romfile


def wire(number, kind, addr, data, what="test"):
    """The lines the kernel writes for one block (docs/dump.md)."""
    lines = ["apmoff: dump: block %d: %s at %08Xh, %d bytes: %s" % (number, kind, addr,
                                                                   len(data), what)]
    for at in range(0, len(data), 32):
        piece = data[at:at + 32]
        lines.append("apmoff: dump %08x %s %08x" % (addr + at, piece.hex(),
                                                   dumps.line_check(addr + at, piece)))
    lines.append("apmoff: dump: block %d: end, crc32 %08x, sha256 %s" % (
        number, zlib.crc32(data), hashlib.sha256(data).hexdigest()))
    return lines


ROM = bytes(range(256)) * 4 + b"\x55\xaa"


class Reader(unittest.TestCase):
    def test_whole_block(self):
        got = dumps.blocks(["noise"] + wire(1, "rom", 0xF0000, ROM) + ["apmoff: halted: x"])
        self.assertEqual(len(got), 1)
        self.assertTrue(got[0].good, got[0].problems)
        self.assertEqual(bytes(got[0].data), ROM)
        self.assertEqual((got[0].kind, got[0].addr), ("rom", 0xF0000))

    def test_lost_line(self):
        lines = wire(1, "rom", 0xF0000, ROM)
        del lines[5]
        got = dumps.blocks(lines)[0]
        self.assertFalse(got.good)
        self.assertIn("is at 000F00A0h, 000F0080h was next", got.problems[0])

    def test_damaged_line(self):
        lines = wire(1, "rom", 0xF0000, ROM)
        lines[3] = lines[3][:30] + ("0" if lines[3][30] != "0" else "1") + lines[3][31:]
        got = dumps.blocks(lines)[0]
        self.assertFalse(got.good)
        self.assertIn("line 4 fails its check", got.problems)

    def test_line_moved_to_another_address_fails(self):
        lines = wire(1, "rom", 0xF0000, ROM)
        lines[2] = "apmoff: dump 000f0000" + lines[2][len("apmoff: dump 000f0020"):]
        self.assertIn("line 3 fails its check", dumps.blocks(lines)[0].problems)

    def test_cut_off_and_several_runs(self):
        first = wire(1, "rom", 0xF0000, ROM)[:10]
        second = wire(1, "rom", 0xF0000, ROM) + wire(2, "acpi", 0x7FE0000, b"DSDT" * 40)
        got = dumps.blocks(first + second)
        self.assertEqual([b.good for b in got], [False, True, True])
        self.assertIn("no end line before line 11", got[0].problems)

    def test_end_sum_must_agree(self):
        lines = wire(1, "rom", 0xF0000, ROM)
        lines[-1] = lines[-1][:-64] + hashlib.sha256(b"other").hexdigest()
        self.assertIn("its bytes' SHA-256 is not the end line's", dumps.blocks(lines)[0].problems)

    def test_too_large_a_block_is_refused(self):
        got = dumps.blocks(["apmoff: dump: block 1: rom at FF000000h, 999999999 bytes: x"])
        self.assertFalse(got[0].good)
        self.assertIn("999999999 bytes is past", got[0].problems[0])


class Files(unittest.TestCase):
    def test_written_by_address_and_named_when_refused(self):
        import os
        import tempfile
        good = wire(1, "rom", 0xF0000, ROM) + wire(2, "optionrom", 0xC0000, ROM[:512])
        broken = wire(3, "smbios", 0xF5A40, ROM[:64])
        del broken[1]
        again = wire(1, "rom", 0xF0000, ROM)                 # a second run, same bytes
        with tempfile.TemporaryDirectory() as d:
            written, refused = dumps.write(dumps.blocks(good + broken + again), d)
            self.assertEqual((written, refused), (2, 1))
            self.assertEqual(sorted(os.listdir(d)),
                             ["MANIFEST.txt", "optionrom-C0000.bin", "rom-F0000.bin"])
            with open(os.path.join(d, "rom-F0000.bin"), "rb") as f:
                self.assertEqual(f.read(), ROM)
            with open(os.path.join(d, "MANIFEST.txt")) as f:
                manifest = f.read()
            self.assertIn(hashlib.sha256(ROM).hexdigest() + "  ", manifest)
            self.assertIn("NOT WRITTEN smbios at 000F5A40h", manifest)


class Acpidump(unittest.TestCase):
    """What apmoff-collect writes is what ACPICA's acpixtract reads back, byte for
    byte (skipped where acpica-tools is not installed)."""

    def test_acpixtract_reads_it(self):
        import os
        import shutil
        import subprocess
        import tempfile
        if not shutil.which("acpixtract"):
            self.skipTest("no acpixtract (acpica-tools)")
        body = bytes(range(7, 7 + 60))
        dsdt = bytearray(b"DSDT" + (36 + len(body)).to_bytes(4, "little") + b"\x02\x00" +
                         b"APMOFF" + b"TESTTABL" + (1).to_bytes(4, "little") + b"INTL" +
                         (0x20200925).to_bytes(4, "little") + body)
        dsdt[9] = (-sum(dsdt)) & 0xFF
        facp = bytearray(b"FACP" + (116).to_bytes(4, "little") + bytes(108))
        facp[9] = (-sum(facp)) & 0xFF
        lines = wire(1, "acpi", 0x7FE0040, bytes(dsdt)) + wire(2, "acpi", 0x7FE1000,
                                                                 bytes(facp))
        got = dumps.blocks(lines)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "acpidump.txt"), "w") as f:
                f.write(dumps.acpidump_text(got))
            subprocess.run(["acpixtract", "-a", "acpidump.txt"], cwd=d, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(os.path.join(d, "dsdt.dat"), "rb") as f:
                self.assertEqual(f.read(), bytes(dsdt))
            with open(os.path.join(d, "facp.dat"), "rb") as f:
                self.assertEqual(f.read(), bytes(facp))


class Judge(unittest.TestCase):
    """tests/emu/dumpjudge.py, the emulator cases' judge, on made-up logs: it must be
    able to fail on each thing it checks."""

    def run_of(self, lines):
        import tempfile
        run = type("Run", (), {})()
        run.serial = "\n".join(lines) + "\n"
        work = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, work)
        run.path = lambda name: work + "/" + name
        return run

    def image(self, data):
        import tempfile
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(data)
        self.addCleanup(__import__("os").unlink, f.name)
        return f.name

    def test_flash_equal_or_named(self):
        from tests.emu.dumpjudge import DumpAgrees
        flash = bytes(range(256)) * 512                     # 128 KiB
        lines = wire(1, "rom", 0xFFFE0000, flash) + wire(2, "rom", 0xF0000, flash[-65536:])
        lines.append("apmoff: dump: F0000h-FFFFFh equals the flash's last 64 KiB")
        run = self.run_of(lines)
        self.assertEqual(DumpAgrees(flash=self.image(flash), acpi=False).problems(run), [])
        other = bytearray(flash)
        other[5] ^= 1
        got = DumpAgrees(flash=self.image(bytes(other)), acpi=False).problems(run)
        self.assertIn("differs from the image: 1 bytes, the first at offset 5h", got[0])
        got = DumpAgrees(flash=self.image(flash * 2), acpi=False).problems(run)
        self.assertIn("no flash block at FFFC0000h", got[0])

    def test_fseg_count_must_be_the_kernels(self):
        from tests.emu.dumpjudge import DumpAgrees
        flash = bytes(range(256)) * 512
        fseg = bytearray(flash[-65536:])
        fseg[100] ^= 0xFF
        lines = wire(1, "rom", 0xFFFE0000, flash) + wire(2, "rom", 0xF0000, bytes(fseg))
        lines.append("apmoff: dump: F0000h-FFFFFh differs from the flash's last 64 KiB in "
                     "2 bytes: shadow RAM the BIOS wrote to")
        got = DumpAgrees(acpi=False).problems(self.run_of(lines))
        self.assertEqual(got, ["the kernel says F0000h-FFFFFh differs from the flash's last "
                               "64 KiB in 2 bytes, the blocks in 1"])

    def test_broken_block_and_no_acpi(self):
        from tests.emu.dumpjudge import DumpAgrees
        lines = wire(1, "rom", 0xF0000, ROM)
        del lines[2]
        got = DumpAgrees().problems(self.run_of(lines))
        self.assertIn("block 1 (rom at 000F0000h)", got[0])
        self.assertIn("no block was read back", got[-1])
        got = DumpAgrees().problems(self.run_of(wire(1, "rom", 0xF0000, ROM)))
        self.assertEqual(got, ["no ACPI table was dumped"])


class RomFile(unittest.TestCase):
    """romfile: a dump against the ROM file an emulator was given, as it maps it."""
    FILE = bytes((i * 7 + (i >> 8)) & 0xFF for i in range(0x20000))

    def test_flash_equal(self):
        a = romfile.agree({0xF0000: b"x" * 0x10000, 0xFFFE0000: self.FILE}, self.FILE,
                          "bios.bin")
        self.assertTrue(a.equal)
        self.assertEqual(a.text(), "the flash at FFFE0000h equals bios.bin (128 KiB)")

    def test_parameter_blocks_named(self):
        flash = bytearray(self.FILE)
        flash[0x1C010] ^= 1
        flash[0x1D200:0x1D204] = b"ESCD"
        a = romfile.agree({0xFFFE0000: bytes(flash)}, self.FILE)
        self.assertFalse(a.equal)
        self.assertEqual(a.ranges(), [(0x1C000, 0x1DFFF)])
        self.assertTrue(a.only_in(0x1C000, 0x2000))
        self.assertFalse(a.only_in(0x1C000, 0x1000))
        self.assertIn("in 5 of 131072 bytes, in 1C000h-1DFFFh", a.text())

    def test_mirrored_small_file(self):
        # 86Box mirrors a 64 KiB file through a 128 KiB window: the file is the top.
        small = self.FILE[:0x10000]
        a = romfile.agree({0xFFFE0000: small + small}, small)
        self.assertTrue(a.equal)
        self.assertEqual(a.where, "the flash at FFFF0000h")

    def test_no_flash_compares_the_segments(self):
        a = romfile.agree({0xF0000: self.FILE[0x10000:], 0xE0000: self.FILE[:0x10000]},
                          self.FILE)
        self.assertTrue(a.equal)
        self.assertEqual((a.where, a.compared), ("E0000h-FFFFFh", 0x20000))
        shadow = bytearray(self.FILE[0x10000:])
        shadow[0xE955:0xE975] = bytes(b ^ 0xFF for b in shadow[0xE955:0xE975])
        a = romfile.agree({0xF0000: bytes(shadow)}, self.FILE[0x10000:])
        self.assertEqual((a.differing, a.ranges()), (32, [(0xE000, 0xEFFF)]))

    def test_interleaved_halves(self):
        even, odd = self.FILE[0::2], self.FILE[1::2]
        a = romfile.best({0xFFFE0000: self.FILE}, {"even.bin": even, "odd.bin": odd})
        self.assertTrue(a.equal)
        self.assertEqual(a.file_name, "even.bin and odd.bin")

    def test_nothing_to_compare(self):
        a = romfile.agree({0xC0000: b"\x55\xaa"}, self.FILE)
        self.assertFalse(a.equal)
        self.assertEqual(a.text(), "no block where the file is mapped")
        self.assertIsNone(romfile.best({0xF0000: self.FILE[-0x10000:]}, {}))


class Command(unittest.TestCase):
    """apmoff-collect dump held to add's bounds and refusals: sizes, encodings, links."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="apmoff-dump-cmd-")
        self.out = os.path.join(self.dir, "out")
        self.addCleanup(shutil.rmtree, self.dir)

    def log(self, name, lines, encoding="utf-8", bom=b""):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(bom + ("\r\n".join(lines) + "\r\n").encode(encoding))
        return path

    def dump(self, *argv):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = cli.main(["dump", "-o", self.out] + list(argv))
        return status, err.getvalue()

    def test_a_powershell_capture_in_utf16(self):
        path = self.log("ps.log", wire(1, "rom", 0xF0000, ROM), "utf-16-le",
                        codecs.BOM_UTF16_LE)
        self.assertEqual(self.dump(path)[0], 0)
        with open(os.path.join(self.out, "rom-F0000.bin"), "rb") as f:
            self.assertEqual(f.read(), ROM)

    def test_a_log_past_file_bytes_is_named_and_the_others_go_in(self):
        big = self.log("big.log", ["x" * 100] * 100)
        good = self.log("good.log", wire(1, "rom", 0xF0000, ROM))
        status, err = self.dump("--limit", "file_bytes=5K", big, good)
        self.assertEqual(status, 1)
        self.assertIn("big.log: 10200 bytes: over the file_bytes limit", err)
        self.assertNotIn("good.log", err)
        self.assertIn("file_bytes", err)
        self.assertTrue(os.path.exists(os.path.join(self.out, "rom-F0000.bin")))

    def test_an_apmoff_line_past_line_chars_refuses_its_log(self):
        lines = wire(1, "rom", 0xF0000, ROM)
        lines.insert(2, "apmoff: dump " + "ab" * 40000)
        status, err = self.dump(self.log("long.log", lines))
        self.assertEqual(status, 1)
        self.assertIn("line_chars", err)
        self.assertFalse(os.path.exists(os.path.join(self.out, "rom-F0000.bin")))

    def test_a_planted_link_is_replaced_not_written_through(self):
        os.makedirs(self.out)
        victim = os.path.join(self.dir, "victim")
        with open(victim, "w") as f:
            f.write("keep me")
        for name in ("rom-F0000.bin", "MANIFEST.txt"):
            os.symlink(victim, os.path.join(self.out, name))
        self.assertEqual(self.dump(self.log("a.log", wire(1, "rom", 0xF0000, ROM)))[0], 0)
        with open(victim) as f:
            self.assertEqual(f.read(), "keep me")
        self.assertFalse(os.path.islink(os.path.join(self.out, "rom-F0000.bin")))

    def test_entry_points_close_the_manifest(self):
        lines = wire(1, "rom", 0xF0000, ROM) + [
            "apmoff: dump: entry: APM pm32: entry F000h:D198h (FD198h)",
            "apmoff: dump: entry: APM pm32: entry F000h:D198h (FD198h)"]
        self.assertEqual(self.dump(self.log("e.log", lines))[0], 0)
        with open(os.path.join(self.out, "MANIFEST.txt")) as f:
            manifest = f.read().splitlines()
        self.assertEqual(manifest[-1], "entry: APM pm32: entry F000h:D198h (FD198h)")
        self.assertEqual(sum(1 for l in manifest if l.startswith("entry: ")), 1)

    def test_a_directory_or_missing_log(self):
        status, err = self.dump(self.dir, os.path.join(self.dir, "nothing.log"))
        self.assertEqual(status, 1)
        self.assertIn("a directory", err)
        self.assertIn("nothing.log", err)

    def test_a_bad_limit_is_a_usage_error(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            cli.main(["dump", "-o", self.out, "--limit", "nonsense=1", "x"])


def structure(kind, formatted, *strings):
    """One SMBIOS structure: type, length, handle 0, the formatted bytes after the
    header, its strings."""
    body = bytes([kind, 4 + len(formatted), 0, 0]) + formatted
    tail = b"".join(x + b"\0" for x in strings) + b"\0" if strings else b"\0\0"
    return body + tail


UUID = bytes.fromhex("78563412bc9af0de1122334455667788")
TABLE = (structure(1, bytes([1, 2, 3, 4]) + UUID + bytes([6, 0, 0]), b"Maker", b"PC-1",
                   b"1.0", b"SYS-SERIAL-4711") +
         structure(2, bytes([1, 2, 3, 4, 5]), b"Maker", b"Board", b"v1", b"BOARD-SN-0815",
                   b"Asset 42") +
         structure(3, bytes([1, 3, 2, 3, 4]), b"Maker", b"1.0", b"00000000",
                   b"CHASSIS-TAG-7") +
         structure(127, b""))


class Publishing(unittest.TestCase):
    """dumppub: what `report --with-dumps` reads of a dump directory and publishes."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="apmoff-dumppub-")
        self.addCleanup(shutil.rmtree, self.dir)

    def folder(self, files):
        for name, data in files.items():
            with open(os.path.join(self.dir, name), "wb") as f:
                f.write(data)
        return self.dir

    def test_private_values(self):
        found = {(what, value) for what, value, _ in dumppub.private_values(TABLE)}
        self.assertEqual(found, {("system serial number", b"SYS-SERIAL-4711"),
                                 ("system UUID", UUID),
                                 ("board serial number", b"BOARD-SN-0815"),
                                 ("board asset tag", b"Asset 42"),
                                 ("chassis serial number", b"00000000"),
                                 ("chassis asset tag", b"CHASSIS-TAG-7")})

    def test_scrubbed_everywhere_they_occur(self):
        rom = b"\xff" * 100 + b"SYS-SERIAL-4711" + UUID + b"00000000" + b"\xff" * 100
        acpi = dumps.acpidump_text([dumps.Block(1, "acpi", 0x7FE0000, 48, "", bytearray(
            b"OEMB" + (48).to_bytes(4, "little") + b"BOARD-SN-0815" + bytes(27)), [],
            True)])
        d = dumppub.read(self.folder({
            "MANIFEST.txt": b"# x\n", "survey.json": b'{"schema": 1}',
            "smbios-F5980.bin": TABLE, "rom-F0000.bin": rom,
            "acpidump.txt": acpi.encode(), "notes.txt": b"SYS-SERIAL-4711"}),
            limits.DEFAULT)
        self.assertNotIn("notes.txt", d.files)      # only the dump command's names
        for name, data in d.files.items():
            for value in (b"SYS-SERIAL-4711", UUID, b"BOARD-SN-0815", b"CHASSIS-TAG-7"):
                self.assertNotIn(value, data, name)
        self.assertNotIn("BOARD-SN-0815".encode().hex().upper(),
                         d.files["acpidump.txt"].decode().replace(" ", ""))
        # "00000000" is a placeholder: gone from the table, left in the ROM.
        self.assertIn(b"00000000", d.files["rom-F0000.bin"])
        self.assertEqual(d.removed["rom-F0000.bin"], ["system serial number",
                                                      "system UUID"])
        self.assertEqual(len(d.files["smbios-F5980.bin"]), len(TABLE))

    def test_refusals(self):
        os.symlink("/etc/passwd", os.path.join(self.dir, "rom-F0000.bin"))
        self.folder({"MANIFEST.txt": b"", "survey.json": b"{}"})
        with self.assertRaisesRegex(dumppub.DumpDirError, "not a regular file"):
            dumppub.read(self.dir, limits.DEFAULT)
        os.unlink(os.path.join(self.dir, "rom-F0000.bin"))
        self.folder({"rom-%X.bin" % a: b"x" for a in range(0xC0000, 0xC0005)})
        with self.assertRaisesRegex(dumppub.DumpDirError, "dump_files limit of 4"):
            dumppub.read(self.dir, limits.DEFAULT.raised("dump_files=4"))
        os.unlink(os.path.join(self.dir, "survey.json"))
        with self.assertRaisesRegex(dumppub.DumpDirError, "no survey.json"):
            dumppub.read(self.dir, limits.DEFAULT)
        os.unlink(os.path.join(self.dir, "MANIFEST.txt"))
        with self.assertRaisesRegex(dumppub.DumpDirError, "no MANIFEST.txt"):
            dumppub.read(self.dir, limits.DEFAULT)


if __name__ == "__main__":
    from tests.collect.harness import main
    main()
