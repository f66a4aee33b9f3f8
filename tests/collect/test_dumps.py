"""apmoff-collect's reader of action=dump blocks (tools/apmoff_collect/dumps.py):
whole blocks are taken, and every way a serial line can break one is named."""

import hashlib
import unittest
import zlib

from tools.apmoff_collect import dumps


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


if __name__ == "__main__":
    from tests.collect.harness import main
    main()
