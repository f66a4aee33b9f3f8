"""apmoff-sweep's own tests, without the ROM set or the 86Box source: the table reader
on a made-up table in 86Box's shape (tests/sweep/fixtures/table/, tests/sweep/README.md),
the config writer, the CMOS and image helpers, the screen reader and the prompt table on
recorded BIOS screens, the judge on recorded runs (COM1 logs and 86Box's stderr), and
the tables.

    python3 -m tests.sweep.test_sweep [-v] [--tap] [-k PATTERN]

The screen tests read the kit's video BIOSes (../shared/86box/roms) for their fonts,
and are skipped where the kit is not.
"""

import contextlib
import csv
import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tests.collect.test_collect import tap_main
from tests.paths import ROOT
from tools.apmoff_sweep import (chipsets, cmos, config, csource, emulator, flagspatch, image,
                                judge, prompts, report, resultfile, screen, shards, source,
                                sweep, table)
from tools.apmoff_sweep import cli
from tools.apmoff_sweep.resultfile import (ApmSeen, BootRecord, CpuSeen, MethodTry, RanCpu,
                                           Result, RunConfig, Verdict)

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
TABLE = os.path.join(FIXTURES, "table")
KIT = os.path.join(os.path.dirname(ROOT), "shared", "86box")
KIT_ROMS = os.path.join(KIT, "roms")

_table = None


def made_up():
    """The Table of fixtures/table/, read once."""
    global _table
    if _table is None:
        _table = table.read(source.Source(TABLE))
    return _table


def fixture(*parts):
    return os.path.join(FIXTURES, *parts)


def read(path):
    with open(path, encoding="latin-1") as f:
        return f.read()


class TableReader(unittest.TestCase):
    def test_every_field_of_a_machine(self):
        m = made_up().get("ns486pci")
        self.assertEqual((m.name, m.board, m.type, m.type_label, m.chipset, m.init),
                         ("[Fictive FC48] Nonesuch 486 PCI", "Nonesuch 486 PCI",
                          "MACHINE_TYPE_SOCKET3_PCI", "486 boards (PCI)", "Fictive FC48",
                          "machine_ns486pci_init"))
        self.assertEqual((m.package, m.packages), (1 << 4, ["CPU_PKG_SOCKET3"]))
        self.assertEqual(m.buses, ["ISA", "ISA16", "VLB", "PCI", "PS/2"])
        self.assertEqual(m.flag_names, ["APM"])
        self.assertEqual((m.ram_min, m.ram_max, m.ram_step), (1024, 131072, 1024))
        self.assertEqual(m.nvrmask, 255)
        self.assertEqual(made_up().get("ns286").nvrmask, 127)    # none given: a CMOS
        self.assertEqual((m.device, m.vid_device, m.builtin_video), (None, None, False))
        self.assertEqual(m.aliases, ["ns486"])
        self.assertEqual(m.roms, ["roms/machines/ns486pci/ns486.bin"])
        # Every "roms/" string of the init, in order; its other strings are not ROMs.
        self.assertEqual(made_up().get("ns286").roms, ["roms/machines/ns286/even.bin",
                                                       "roms/machines/ns286/odd.bin"])
        self.assertEqual(made_up().get("nsslot1").roms, ["roms/machines/nsslot1/slot1.bin"])

    def test_the_table_ends_at_its_marker(self):
        self.assertEqual([m.internal for m in made_up().machines],
                         ["ns286", "nsvista", "nstower", "nstwin", "ns486pci", "nsseven",
                          "nsslot1"])
        self.assertEqual([f.internal for f in made_up().families][-1], "pentium2_klamath")

    def test_flags_apm_and_acpi(self):
        t = made_up()
        self.assertEqual(t.get("nsslot1").flag_names, ["APM", "ACPI", "USB"])
        self.assertEqual(t.get("nsseven").flag_names, ["APM", "ACPI", "USB"])
        self.assertEqual(t.get("nstower").flag_names, [])
        self.assertEqual(t.get("nsslot1").packages, ["CPU_PKG_SLOT1"])
        self.assertEqual(t.get("nsslot1").buses, ["ISA", "ISA16", "PCI", "AGP", "PS/2"])
        self.assertEqual(t.get("nstwin").packages, ["CPU_PKG_386DX", "CPU_PKG_SOCKET1"])

    def test_cpu_families(self):
        # Each family's package, names and models (name, speed, multiplier), in the
        # table's order; the models' other fields are not read.
        t = made_up()
        self.assertEqual([f.internal for f in t.families],
                         ["i386sx", "i386dx", "i486dx2", "i486dx2_slenh", "am486dx4",
                          "am486dx2_slenh", "pentium_p54c", "pentium_p55c", "pentiumpro",
                          "pentium2_klamath"])
        f = t.family("i486dx2_slenh")
        self.assertEqual((f.name, f.manufacturer, f.package),
                         ("T486DX2-SL", "Testchip", t.symbols.values["CPU_PKG_SOCKET1"]))
        self.assertEqual([(c.name, c.rspeed, c.multi) for c in f.cpus],
                         [("40", 40000000, 2), ("50", 50000000, 2)])
        self.assertEqual(t.family("pentium_p54c").cpus[0].multi, 1.5)
        self.assertIsNone(t.family("nonesuch"))

    def test_machine_with_builtin_video(self):
        m = made_up().get("nsvista")
        self.assertEqual((m.vid_device, m.builtin_video, m.type_label),
                         ("fictive_vga_onboard_device", True, "386SX boards"))
        self.assertEqual(config.choose_video(m), "internal")

    def test_bios_choices_of_a_device(self):
        m = made_up().get("nstwin")
        self.assertEqual((m.device, m.bios_default), ("nstwin_device", "nstwin_v2"))
        self.assertEqual([v[1] for v in m.bios_variants], ["Twin BIOS 1.0", "Twin BIOS 2.0"])
        # The ROM is the default variant's, not the first one's.
        self.assertEqual(m.roms, ["roms/machines/nstwin/v2.bin"])

    def test_machine_without_rom_in_a_set(self):
        roms = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, roms)
        os.makedirs(os.path.join(roms, "machines", "nsseven"))
        open(os.path.join(roms, "machines", "nsseven", "seven.bin"), "wb").close()
        settings = type("S", (), {"roms": roms})()
        have, _ = cli.rom_missing(settings, made_up().get("nsseven"), None)
        lack, _ = cli.rom_missing(settings, made_up().get("nsslot1"), None)
        self.assertEqual(have, [])
        self.assertEqual(lack, ["roms/machines/nsslot1/slot1.bin"])
        # 86Box's own list decides when there is one.
        self.assertEqual(cli.rom_missing(settings, made_up().get("nsslot1"),
                                         {"[Fictive FC128] Nonesuch Slot One"})[1], True)

    def test_sweep_range_is_the_386_and_later(self):
        names = [m.internal for m in cli.sweep_range(made_up())]
        self.assertNotIn("ns286", names)
        self.assertEqual(names[0], "nsvista")
        self.assertEqual(len(names), len(made_up().machines) - 1)

    def test_unknown_constant_in_a_field_not_read(self):
        # A field the sweep does not read may use a constant of a header it does not
        # read (the fixture's kbc_params): it must not stop the table; reading such a
        # field names the file and line.
        symbols = csource.Symbols()
        [item] = csource.parse_array("const x t[] = { { .a = 1, .b = KBC_X | 3 } };", "t",
                                     symbols, "t.c")
        self.assertEqual(item.get("a"), 1)
        with self.assertRaisesRegex(csource.CError, r"t\.c:1: cannot compute"):
            item.get("b")

    def test_expressions(self):
        s = csource.Symbols()
        s.read_header("#define A (1 << 3)\n#define B (A | 0x10)\nenum { X = 2, Y, Z = B };\n",
                      "h")
        ev = lambda text: s.evaluate(csource.tokens(text), "e")
        self.assertEqual(ev("B & ~A"), 0x10)
        self.assertEqual((s.values["Y"], s.values["Z"]), (3, 0x18))
        self.assertEqual(ev("(uint32_t) 7"), 7)
        self.assertAlmostEqual(ev("8.0 / 3.0"), 8.0 / 3.0)
        self.assertEqual(ev('"ab" "cd"'), "abcd")
        self.assertEqual(ev("&dev"), "dev")
        self.assertEqual(ev("CPU_BLOCK(X, Y)"), [2, 3])
        self.assertEqual(ev("1ULL << 32"), 1 << 32)


class ConfigWriter(unittest.TestCase):
    def test_family_of_the_socket(self):
        # A family whose package shares a bit with the board's: SL-enhanced first,
        # else the table's first (the oldest); the model is left to 86Box.
        t = made_up()
        asked = {m.internal: getattr(config.choose_family(t, m), "internal", None)
                 for m in t.machines}
        self.assertEqual(asked, {
            "ns286": None,                      # no family of its socket: 86Box's default
            "nsvista": "i386sx",
            "nstower": "i386dx",
            "nstwin": "i486dx2_slenh",          # its 486 socket's SL part, not the 386DX
            "ns486pci": "am486dx2_slenh",       # after am486dx4 in the table
            "nsseven": "pentium_p55c",          # 2.0-3.2 V: not the 3.52 V P54C
            "nsslot1": "pentium2_klamath"})

    def test_a_family_the_board_takes(self):
        # 86Box's cpu_is_eligible: a 5 V Socket 3 board refuses the 3.3 V SL part of
        # its socket, and takes the SL part of Socket 1's 486s, which cpu.c adds.
        t = made_up()
        board = dataclasses.replace(t.get("ns486pci"), cpu_limits=dict(
            t.get("ns486pci").cpu_limits, min_voltage=5000, max_voltage=5000))
        self.assertFalse(config.eligible(t, board, t.family("am486dx2_slenh")))
        self.assertEqual(config.choose_family(t, board).internal, "i486dx2_slenh")
        # Its 40 MHz model runs a 20 MHz bus, below the board's 25: the 50 is taken.
        slow, fast = t.family("i486dx2_slenh").cpus
        self.assertEqual((config.takes(board, slow), config.takes(board, fast)),
                         (False, True))
        # A Socket 5/7 family's multipliers are 86Box's to map: not checked.
        seven = t.get("nsseven")
        self.assertTrue(config.eligible(t, seven, t.family("pentium_p55c")))

    def test_choice_per_era(self):
        t = made_up()
        # ISA before the PCI era: a 5.25" drive.
        self.assertEqual(config.choose(t, t.get("nstower")).describe(),
                         'family T386DX, 16 MB, cl_gd5428_isa, 5.25" 1.2 MB')
        self.assertEqual(config.choose(t, t.get("ns486pci")).describe(),
                         'family O486DX2 (SL), 16 MB, cl_gd5446_migrated_pci, 3.5" 1.44 MB')
        # A SPEED_FLOOR family: the speed 86Box starts looking from.
        c = config.choose(t, t.get("nsslot1"))
        self.assertEqual((c.family, c.speed), ("pentium2_klamath", 233333333))
        self.assertEqual(c.cpu_text(), "family T686-II, 233 MHz or more")
        self.assertEqual(config.choose(t, t.get("ns286")).cpu_text(), "86Box's default CPU")

    def test_ram_in_range_and_on_step(self):
        m = type("M", (), dict(ram_min=1024, ram_max=8192, ram_step=1024))()
        self.assertEqual(config.choose_ram(m), 8192)
        m = type("M", (), dict(ram_min=8192, ram_max=786432, ram_step=8192))()
        self.assertEqual(config.choose_ram(m), 16384)
        m = type("M", (), dict(ram_min=640, ram_max=65536, ram_step=2048))()
        self.assertEqual(config.choose_ram(m), 640 + 7 * 2048)
        m = type("M", (), dict(ram_min=32768, ram_max=262144, ram_step=8192))()
        self.assertEqual(config.choose_ram(m), 32768)

    def test_the_eras_floppy(self):
        t = type("T", (), dict(symbols=type("S", (), dict(
            values={config.FIRST_35_TYPE: 10}))()))()

        def machine(rank, *buses):
            return type("M", (), dict(type_rank=rank, has_bus=lambda self, b: b in buses))()
        self.assertEqual(config.era_floppy(t, machine(5, "ISA", "ISA16")), config.FLOPPY_525)
        self.assertEqual(config.era_floppy(t, machine(10, "ISA", "ISA16")), config.FLOPPY_35)
        self.assertEqual(config.era_floppy(t, machine(5, "ISA", "ISA16", "PCI")),
                         config.FLOPPY_35)
        # An XT with a 386 on a card: 8-bit ISA alone, a 360 KB drive in any era.
        self.assertEqual(config.era_floppy(t, machine(5, "ISA")), config.FLOPPY_360)
        self.assertEqual(config.era_floppy(t, machine(10, "ISA")), config.FLOPPY_360)
        # A PS/2 of 1987 had 3.5" drives alone.
        self.assertEqual(config.era_floppy(t, machine(5, "MCA")), config.FLOPPY_35)

    def test_rendered_config(self):
        t = made_up()
        m = t.get("ns486pci")
        c = config.choose(t, m)
        back = config.read_back(config.render(m, c, "/x/a.img", "/x/com1.log"))
        for key, value in ((("Machine", "machine"), "ns486pci"),
                           (("Machine", "cpu_family"), "am486dx2_slenh"),
                           (("Machine", "cpu_speed"), "0"),
                           (("Machine", "mem_size"), "16384"),
                           (("Input devices", "mouse_type"), "none"),
                           (("Video", "gfxcard"), "cl_gd5446_migrated_pci"),
                           (("Floppy and CD-ROM drives", "fdd_01_type"), "35_2hd"),
                           (("Floppy and CD-ROM drives", "fdd_01_fn"), "wp:///x/a.img"),
                           (("Floppy and CD-ROM drives", "fdd_01_turbo"), "1"),
                           (("Ports (COM & LPT)", "serial1_device"), "file"),
                           (("File (COM) #1", "path"), "/x/com1.log")):
            self.assertEqual(back.get(key), value, key)
        # The model, its multiplier and its FPU are 86Box's to choose.
        for key in ("cpu_multi", "fpu_type"):
            self.assertNotIn(("Machine", key), back)
        self.assertNotIn(("Floppy and CD-ROM drives", "fdd_01_fn"),
                         config.read_back(config.render(m, c, "", "/x/c")))
        # No family of its socket: no CPU at all, 86Box's default.
        m = t.get("ns286")
        back = config.read_back(config.render(m, config.choose(t, m), "", "/x/c"))
        self.assertEqual([k for k in back if k[1].startswith("cpu_family")], [])

    def test_cpu_86box_ran(self):
        # As 86Box writes its config back: the family, speed and multiplier it chose.
        t = made_up()
        back = config.read_back("[Machine]\nmachine = ns486pci\ncpu_family = i486dx2_slenh\n"
                                "cpu_speed = 50000000\ncpu_multi = 2\n"
                                "cpu_use_dynarec = 1\nfpu_type = internal\n")
        self.assertEqual(config.ran_cpu(t, back), RanCpu(family="i486dx2_slenh",
                                                         speed=50000000, multi=2.0,
                                                         name="T486DX2-SL 50"))
        # A model the table does not list: its speed; a family it does not: its name.
        back[("Machine", "cpu_speed")] = "66666666"
        self.assertEqual(config.ran_cpu(t, back).name, "T486DX2-SL 66.7 MHz")
        back[("Machine", "cpu_family")] = "k6_2"
        self.assertEqual(config.ran_cpu(t, back).name, "k6_2 66.7 MHz")
        self.assertIsNone(config.ran_cpu(t, {}))

    def test_only_a_rewritten_config_is_evidence(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        t = made_up()
        m = t.get("ns486pci")
        written = config.render(m, config.choose(t, m), "", "/x/c")
        with open(os.path.join(d, "86box.cfg"), "w") as f:
            f.write(written)
        self.assertEqual(sweep.written_back(d, written), {})    # as the sweep wrote it
        with open(os.path.join(d, "86box.cfg"), "w") as f:
            f.write("[Machine]\ncpu_family = am486dx2_slenh\ncpu_multi = 2\n"
                    "cpu_speed = 66666666\nmachine = ns486pci\n")
        self.assertEqual(config.ran_cpu(t, sweep.written_back(d, written)).name,
                         "O486DX2 (SL) 66")
        self.assertEqual(sweep.written_back(os.path.join(d, "none"), written), {})

    def test_another_cpu_is_no_refusal(self):
        m = made_up().get("ns486pci")
        on = emulator.Boot(verdict="on", powered_on=True)
        self.assertEqual(sweep.refused_by(m, on, {("Machine", "machine"): "ns486pci",
                                                  ("Machine", "cpu_family"): "i486sx"}), "")
        self.assertIn("86Box ran machine nsseven instead",
                      sweep.refused_by(m, on, {("Machine", "machine"): "nsseven"}))
        off = emulator.Boot(verdict="exit:1", exit_status=1, stderr_head="fatal: x\n")
        self.assertEqual(sweep.refused_by(m, off, {}), "86Box exited (status 1) before "
                         "powering the machine on: fatal: x")


class Cmos(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def cmos_file(self, drive_a=2):
        data = bytearray(128)
        data[0x10] = drive_a << 4
        data[0x14] = 0x41
        total = sum(data[0x10:0x2E])
        data[0x2E], data[0x2F] = total >> 8, total & 0xFF
        path = os.path.join(self.dir, "m.nvr")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_set_drive_a_fixes_the_checksum(self):
        path = self.cmos_file(2)
        self.assertEqual(cmos.drive_a(cmos.read(path)), 2)
        self.assertEqual(cmos.set_drive_a(path, 4), 2)
        data = cmos.read(path)
        self.assertEqual((cmos.drive_a(data), data[0x10] & 0x0F, cmos.checksum_ok(data)),
                         (4, 0, True))

    def test_bad_checksum_is_no_cmos(self):
        path = self.cmos_file(4)
        with open(path, "r+b") as f:
            f.seek(0x2F)
            f.write(b"\x00")
        self.assertIsNone(cmos.drive_a(cmos.read(path)))
        self.assertIsNone(cmos.set_drive_a(path, 2))
        self.assertIsNone(cmos.read(os.path.join(self.dir, "none.nvr")))

    def test_the_next_drive_follows_the_bios(self):
        at = type("M", (), dict(internal="m", nvrmask=127))()
        self.cmos_file(1)           # the BIOS's defaults: a 360 KB drive A:
        self.assertEqual(sweep.next_drive(self.dir, at, config.FLOPPY_525, answered=False,
                                          ext_kb=15360)[0], config.FLOPPY_360)
        self.cmos_file(2)
        self.assertIsNone(sweep.next_drive(self.dir, at, config.FLOPPY_525, answered=False,
                                           ext_kb=15360))
        self.assertIn("primed", sweep.next_drive(self.dir, at, config.FLOPPY_525,
                                                 answered=True, ext_kb=15360)[1])
        # A PC/XT keeps no CMOS: a key it took is no reason for another boot.
        xt = type("M", (), dict(internal="m", nvrmask=0))()
        self.assertIsNone(sweep.next_drive(self.dir, xt, config.FLOPPY_360, answered=True,
                                           ext_kb=4096))

    def test_a_drive_that_boots_nothing_gives_way_to_the_other(self):
        # DEC Venturis 4xx: "Operating system not found" from the 1.2 MB drive its CMOS
        # names; the 3.5" one is tried next, once.
        nothing = emulator.Boot(stop_rule="no-boot-disk")
        again = (config.FLOPPY_525, "another boot with the CMOS the BIOS just primed")
        self.assertEqual(sweep.other_drive(nothing, config.FLOPPY_525, again,
                                           {config.FLOPPY_525})[0], config.FLOPPY_35)
        self.assertEqual(sweep.other_drive(nothing, config.FLOPPY_525, None,
                                           {config.FLOPPY_525})[0], config.FLOPPY_35)
        self.assertIsNone(sweep.other_drive(nothing, config.FLOPPY_35, again,
                                            {config.FLOPPY_525, config.FLOPPY_35}))
        # The CMOS's own change comes first; a prompt is no reason; an XT has no other.
        standard = (config.FLOPPY_525, sweep.STANDARD + " (checksum wrong): ...")
        self.assertIsNone(sweep.other_drive(nothing, config.FLOPPY_525, standard, set()))
        self.assertIsNone(sweep.other_drive(emulator.Boot(), config.FLOPPY_525, again, set()))
        self.assertIsNone(sweep.other_drive(nothing, config.FLOPPY_360, None, set()))

    def test_kit_cmos(self):
        # The kit's primed CMOS images: A: 1.44 MB on the Award boards, 1.2 MB on the AMI.
        path = os.path.join(KIT, "machines", "ami386-525", "nvr", "ecs386v.nvr")
        if not os.path.exists(path):
            self.skipTest("no kit at %s" % KIT)
        self.assertEqual(cmos.drive_a(cmos.read(path)), 2)
        self.assertEqual(cmos.drive_a(cmos.read(os.path.join(
            KIT, "machines", "tx97", "nvr", "tx97.nvr"))), 4)


class Images(unittest.TestCase):
    def test_label(self):
        self.assertEqual(image.label_for("486sp3c", "ASUS PVI-486SP3"),
                         "86box:486sp3c ASUS PVI-486SP3")
        long = image.label_for("prosignias31x_bx", "ECS P6BXT-A+ \"Compaq\" Prosignia 31x")
        self.assertLessEqual(len(long), image.LABEL_MAX)
        self.assertNotIn('"', long)

    def test_options_go_into_the_first_entry(self):
        menu = "set timeout=0\nmenuentry a {\n\tapmoff action=off\n}\nmenuentry b {\n" \
               "\tapmoff action=off interface=rm\n}\n"
        new = image.with_options(menu, 'action=survey,off wait=0 label="x y"')
        self.assertIn('\tapmoff action=survey,off wait=0 label="x y"\n', new)
        self.assertIn("\tapmoff action=off interface=rm\n", new)
        with self.assertRaisesRegex(image.ImageError, "countdown"):
            image.with_options(menu.replace("timeout=0", "timeout=5"), "action=off")
        with self.assertRaisesRegex(image.ImageError, "first entry"):
            image.with_options("set timeout=0\n", "action=off")

    def test_options_go_into_the_loaders_first_entry(self):
        # apmoff's floppies boot through their own loader: /boot/menu.cfg
        menu = ("timeout 0\ndefault 1\nkernel /boot/apmoff.lz4\ntitle a\nwords action=off\n"
                "title b\nwords action=off interface=rm\n")
        new = image.with_options(menu, 'action=survey,off wait=0 label="x y"')
        self.assertIn('\nwords action=survey,off wait=0 label="x y"\n', new)
        self.assertIn("\nwords action=off interface=rm\n", new)
        with self.assertRaisesRegex(image.ImageError, "countdown.*timeout 0"):
            image.with_options(menu.replace("timeout 0", "timeout 5"), "action=off")
        with self.assertRaisesRegex(image.ImageError, "first entry `words action=off`"):
            image.with_options("timeout 0\nwords action=check\n", "action=off")

    def test_the_built_floppy_takes_the_options(self):
        # the image make builds, read and written back by mtools as a sweep does
        base = os.path.join(ROOT, "build", "apmoff-auto.img")
        if not os.path.exists(base) or not shutil.which("mtype"):
            self.skipTest("no build/apmoff-auto.img or no mtools (make builds it)")
        tmp = tempfile.mkdtemp()
        try:
            out = image.make(base, os.path.join(tmp, "x.img"), "action=survey,off wait=0",
                             "86box:tx97 ASUS TX97")
            where, menu = image.menu_of(out)
            self.assertEqual(where, image.LOADER_MENU)
            self.assertIn('words action=survey,off wait=0 label="86box:tx97 ASUS TX97"', menu)
        finally:
            shutil.rmtree(tmp)


class Screens(unittest.TestCase):
    """The screen reader and the prompt table on screenshots 86Box took."""

    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(KIT_ROMS):
            raise unittest.SkipTest("no kit at %s (its video BIOSes give the fonts)" % KIT)
        cls.fonts = screen.Fonts(KIT_ROMS)

    def lines(self, name):
        return screen.read_text(fixture("screens", name), self.fonts)

    def test_award_451_in_14_line_cells(self):
        lines = self.lines("award451-cmos-640x350.png")
        self.assertIn("CMOS checksum error - Defaults loaded", lines)
        self.assertIn("Press F1 to continue, DEL to enter SETUP", lines)
        self.assertTrue(lines[0].strip().startswith(
            "Award Modular BIOS v4.51PG, An Energy Star Ally"))
        self.assertEqual(prompts.match(lines)[0].name, "f1-continue")

    def test_award_450_in_9_dot_cells(self):
        # 720x400: M, T, W are the VGA BIOS's 9-dot glyphs.
        text = "\n".join(self.lines("award450-cmos-720x400.png"))
        self.assertIn("CMOS CHECKSUM ERROR - DEFAULTS LOADED", text)
        self.assertIn("PRESS F1 TO CONTINUE OR CTRL-ALT-ESC OR DEL TO ENTER SETUP", text)
        rule, said = prompts.match(text.split("\n"))
        self.assertEqual((rule.name, rule.keys), ("f1-continue", ("F1",)))

    def test_ibm_ps1_draws_its_prompt(self):
        # The PS/1's error codes and an arrow over F1 in a row of function keys.
        lines = self.lines("ibm-ps1-f1-icons.png")
        self.assertEqual([l.strip() for l in lines[1:3]], ["162", "163"])
        rule, _ = prompts.match(lines)
        self.assertEqual((rule.name, rule.keys), ("ibm-f1-picture", ("F1",)))

    def test_a_kernel_without_a_serial_port_is_read_on_the_screen(self):
        # Philips P3345: no serial port answered, the summary and the halt on screen.
        lines = self.lines("kernel-halted-no-serial.png")
        self.assertTrue(any(emulator.SCREEN_HALTED.search(l) for l in lines))
        self.assertIsNone(prompts.match(lines))
        v = judge.judge("on", "", screen_lines=lines)
        self.assertEqual((v.reached_kernel, v.kernel_last), (True, "halted: no APM BIOS"))
        self.assertEqual(v.outcome, "halted: no APM BIOS (read on the screen: no serial "
                         "port answered)")

    def test_apm_read_from_the_kernels_words_on_the_screen(self):
        # Without a survey, the kernel's summary or its 5300h line tells the APM: the
        # P3345's "APM : none", and the HP Vectra 5/xxx's "APM 1.1 BI0S" (its 0 for O),
        # which then hung in 5307h.
        none = self.lines("kernel-halted-no-serial.png")
        self.assertEqual(judge.apm_seen("", none), ApmSeen(present=False))
        vectra = self.lines("kernel-apm-hung-no-serial.png")
        self.assertEqual(judge.apm_seen("", vectra), ApmSeen(present=True, version="1.1"))
        v = judge.judge("on", "", screen_lines=vectra)
        self.assertEqual(v.outcome, "hung after powering off via rm (read on the screen: "
                         "no serial port answered)")
        r = judge.refresh(Result(flags=["APM"], verdict=v), "", vectra)
        self.assertEqual((r.apm_seen.version, r.disagreements), ("1.1", []))
        r = judge.refresh(Result(flags=["APM"],
                                 verdict=judge.judge("on", "", screen_lines=none)), "", none)
        self.assertEqual(r.disagreements, ["86Box flags MACHINE_APM; 5300h found no APM "
                                              "BIOS (with the BIOS's setup defaults)"])

    def test_a_loader_without_a_serial_port_is_read_on_the_screen(self):
        # Intel Classic R (Phoenix, 1992): COM1 off, the boot sector's halt on screen.
        lines = self.lines("loader-halted-no-serial.png")
        self.assertIn("apmoff loader: disk read error 01h; halted", [l.strip() for l in lines])
        self.assertTrue(any(emulator.LOADER_HALTED.search(l.strip()) for l in lines))
        self.assertIsNone(prompts.match(lines))
        v = judge.judge("on", "", screen_lines=lines, stalled=True,
                        stopped_at="the loader halted, its words on the screen")
        self.assertEqual((v.reached_kernel, v.reason_kind), (False, "loader-hang"))
        self.assertIn("disk read error 01h", v.reason)
        # A BIOS's own "error:" is no loader.
        v = judge.judge("timeout", "", screen_lines=["Keyboard error: press F1"])
        self.assertEqual(v.reason_kind, "no-loader")
        # A BIOS that cuts the power in POST: said so, not "none on COM1".
        v = judge.judge("poweroff", "", screen_lines=["AMIBIOS (C)1997"])
        self.assertEqual(v.reason_kind, "no-loader")
        self.assertIn("BIOS powered the machine off", v.reason)

    def test_an_ami_xcmos_menu_opens_the_cmos_setup(self):
        rule, _ = prompts.match(self.lines("ami-xcmos-menu.png"))
        self.assertEqual((rule.name, rule.keys), ("ami-xcmos-menu", ("DOWN", "ENTER")))
        self.assertEqual(prompts.scan_codes(rule.keys), [0x150, 0x1C])   # the grey arrow
        self.assertEqual(rule.again, ("ENTER",))      # back from setup: boot
        rule, _ = prompts.match(["EXIT FOR BOOT", "RUN STND-SETUP", "RUN EXTD-SETUP"])
        self.assertEqual(rule.name, "ami-xcmos-menu")
        setup = self.lines("ami-cmos-setup-1990.png")
        self.assertIn("ESC = Exit", "\n".join(setup))
        rule, _ = prompts.match(setup)
        self.assertEqual((rule.name, rule.keys), ("setup-esc-only", ("ESC",)))

    def test_surepath_boxes_are_answered_by_enter(self):
        # The Alaris Cobalt LPX's IBM SurePath BIOS: its menus' first lines go on.
        for name in ("surepath-cmos-corrupt.png", "surepath-config-error.png"):
            lines = self.lines(name)
            self.assertIn("SurePath BIOS Setup", lines[0])
            rule, _ = prompts.match(lines)
            self.assertEqual((rule.name, rule.keys), ("surepath-continue", ("ENTER",)), name)
        rule, _ = prompts.match(self.lines("surepath-main-menu.png"))
        self.assertEqual((rule.name, rule.keys), ("surepath-menu", ("ESC",)))
        rule, _ = prompts.match(self.lines("surepath-exit-save.png"))
        self.assertEqual((rule.name, rule.keys), ("surepath-save", ("ENTER",)))
        # Its "Exit Setup." line is no answer.
        self.assertIsNone(prompts.match(["Select one of the following:", "", "Exit Setup."]))

    def test_control_bytes_never_reach_a_table(self):
        # The Intel Classic R's COM1 began with a NUL as the boot sector set the UART.
        com1 = "\x00apmoff loader: disk read error 01h; halted\r\n"
        self.assertEqual(judge.clean(com1), "apmoff loader: disk read error 01h; halted\n")
        self.assertEqual(report.cell("a\x00b\x1b|c\n"), "ab\\|c")

    def test_a_setup_backdrop_is_no_unread_text(self):
        # The IBM PC 330's SurePath setup (1994): B1h shades fill the screen around the
        # box, and its f is a glyph of its own.
        lines = self.lines("surepath-1994-post-error.png")
        self.assertIn("162 Con iguration Change Has Occurred", [l.strip() for l in lines])
        rule, _ = prompts.match(lines)
        self.assertEqual((rule.name, rule.keys), ("surepath-continue", ("ENTER",)))
        # Its next box: the first line reconfigures and goes on.
        rule, said = prompts.match(self.lines("surepath-1994-invalid-settings.png"))
        self.assertEqual(rule.name, "surepath-continue")
        self.assertIn("system and continue.", said)

    def test_f2_where_setup_is_the_only_way_on(self):
        # HP's Vectra 52 (Phoenix): "Press <F2> to enter SETUP" and nothing else.
        rule, _ = prompts.match(self.lines("phoenix-f2-only.png"))
        self.assertEqual((rule.name, rule.keys), ("f2-setup-only", ("F2",)))
        # With a way on beside it, or as a passing hint, it is not pressed.
        rule, _ = prompts.match(["System CMOS checksum bad - run SETUP",
                                 "Press <F1> to resume, <F2> to Setup"])
        self.assertEqual(rule.name, "f1-resume")
        self.assertIsNone(prompts.match(["0000640K System RAM Passed",
                                         "Press <F2> to enter SETUP"]))

    def test_ami_easy_setup_saves_with_enter(self):
        # The Tyan Trinity 371 (AMIBIOS Easy Setup 1.17): F10 asks in a box over the
        # menu, whose key line would otherwise ask for F10 again.
        rule, said = prompts.match(self.lines("ami-easy-setup-save.png"))
        self.assertEqual((rule.name, rule.keys), ("ami-easy-save", ("ENTER",)))
        self.assertIn("Press [Enter] to Continue", said)
        # The menu alone is left with F10.
        rule, _ = prompts.match(["AMIBIOS EASY SETUP UTILITIES Ver. 1.17",
                                 " Esc:Exit   Enter:Select   F10:Save & Exit"])
        self.assertEqual(rule.name, "setup-screen")

    def test_a_password_is_not_answered(self):
        # The Packard Bell PB600: its F1 prompt waits behind a power-on password.
        lines = self.lines("phoenix-password.png")
        self.assertIn("Press <F1> to resume,  <F2> to Setup", lines)
        rule, said = prompts.match(lines)
        self.assertEqual((rule.name, rule.kind, rule.keys), ("password", "prompt", ()))
        self.assertEqual(said, "Enter password:")

    def test_ibm_setup_of_1995_is_left(self):
        # The IBM PC 330 (65x6): its POST's Enter opens this menu; Esc, then Enter on
        # "Yes, exit the Setup Utility.".
        rule, _ = prompts.match(self.lines("ibm-setup-1995-menu.png"))
        self.assertEqual((rule.name, rule.keys), ("ibm-setup-menu", ("ESC",)))
        rule, _ = prompts.match(self.lines("ibm-setup-1995-exit.png"))
        self.assertEqual((rule.name, rule.keys), ("ibm-setup-exit", ("ENTER",)))
        # The PC 330 (6573)'s of 1994, whose f and v read as blanks, asks to save.
        rule, _ = prompts.match(self.lines("surepath-1994-menu.png"))
        self.assertEqual((rule.name, rule.keys), ("ibm-setup-menu", ("ESC",)))
        rule, _ = prompts.match(self.lines("surepath-1994-exit-save.png"))
        self.assertEqual((rule.name, rule.keys), ("surepath-save", ("ENTER",)))

    def test_no_boot_device_below_an_answered_prompt(self):
        # The Micronics M5Pi's Phoenix BIOS went on from F1 to "No boot device
        # available"; the prompt stays on the screen above it.
        lines = self.lines("phoenix-no-boot-device-below-f1.png")
        self.assertEqual(prompts.match(lines)[0].name, "no-boot-disk")
        # A prompt below a BIOS's words about a disk is still answered.
        rule, _ = prompts.match(["Diskette boot failure", "Press <F1> to resume"])
        self.assertEqual(rule.name, "f1-resume")

    def test_f2_goes_on_where_f1_opens_setup(self):
        # The TriGem 486G's AMI BIOS: F1 opens a menu whose save does not stop the
        # question at the next boot.
        lines = self.lines("trigem-ami-f2-continue.png")
        self.assertIn("Press <F1> to run SETUP or <F2> to CONTINUE...", lines)
        rule, _ = prompts.match(lines)
        self.assertEqual((rule.name, rule.keys), ("f2-continue", ("F2",)))

    def test_a_rombios_that_cannot_load_says_no_disk(self):
        # The ADD-X Xenon (ROMBIOS 7.71): its "F1 ==> Boot" comes back to this.
        lines = self.lines("xenon-disk-impossible.png")
        self.assertIn("Loading System from Disk Impossible", lines)
        self.assertEqual(prompts.match(lines)[0].name, "no-boot-disk")

    def test_a_font_without_an_o_still_says_no_disk(self):
        # DEC Venturis 4xx (Phoenix 1995): its O and 0 are one glyph.
        lines = self.lines("phoenix-os-not-found-1995.png")
        self.assertIn("0perating system not found", lines)
        self.assertEqual(prompts.match(lines)[0].name, "no-boot-disk")

    def test_an_ami_memory_test_is_skipped(self):
        # The ECS 386/32's AMI BIOS (1989): 140 s for 16 MB unless ESC.
        rule, _ = prompts.match(["90 Quadtel Corp. All Rights Reserved.", "07104 KB OK",
                                 "Press <ESC> to bypass MEMORY test",
                                 "(C) American Megatrends Inc.,"])
        self.assertEqual((rule.name, rule.keys), ("ami-skip-memory-test", ("ESC",)))

    def test_micronics_setup_is_left_by_enter(self):
        lines = self.lines("micronics-setup.png")
        self.assertIn("Set Diskette Unit 0= Diskette Drive (3.5\")", "\n".join(lines))
        rule, _ = prompts.match(lines)
        self.assertEqual((rule.name, rule.keys), ("setup-enter-confirm", ("ENTER",)))

    def test_winbios_cycle(self):
        self.assertEqual(prompts.match(self.lines("winbios-resume.png"))[0].name, "f1-resume")
        setup = self.lines("winbios-setup.png")
        self.assertIn("AMIBIOS Setup", " ".join(setup))
        self.assertEqual(prompts.match(setup)[0].keys, ("ESC",))
        rule, _ = prompts.match(self.lines("winbios-exit.png"))
        self.assertEqual((rule.name, rule.keys), ("winbios-exit", ("ENTER",)))

    def test_winbios_1996_whose_s_is_unread(self):
        # AAEON SBC-490: the same cycle, read without its capital S.
        setup = self.lines("winbios-1996-setup.png")
        self.assertIn("AMIBIO   etup", "\n".join(setup))
        self.assertEqual(prompts.match(setup)[0].name, "winbios-setup")
        self.assertEqual(prompts.match(self.lines("winbios-1996-exit.png"))[0].name,
                         "winbios-exit")

    def test_old_ami_setup_saves(self):
        # Its ESC asks to quit without saving: the one (Y/N) that must be answered N.
        setup = self.lines("ami-setup-1993.png")
        self.assertIn("WRITE TO CMOS AND EXIT", "\n".join(setup))
        self.assertEqual(prompts.match(setup)[0].keys, ("F10",))
        quit_ = prompts.match(self.lines("ami-setup-quit.png"))[0]
        self.assertEqual((quit_.name, quit_.keys[0]), ("setup-no-discard", "N"))

    def test_mr_bios_opens_its_setup(self):
        lines = self.lines("mrbios-setup.png")
        self.assertIn("MR BIOS (tm)", lines[0])
        self.assertEqual(prompts.match(lines)[0].name, "mrbios-setup")

    def test_lines_of_a_19_line_font_in_640x480(self):
        # Phoenix 4.0 release 6 (Intel AN430TX, a Packard Bell logo): 8x16 glyphs drawn
        # 19 lines high, 19 pixels apart; no text grid fits.
        lines = self.lines("phoenix40-logo-640x480.png")
        self.assertIn("0640K System RAM Passed", lines)
        rule, said = prompts.match(lines)
        self.assertEqual((rule.name, rule.keys, said),
                         ("phoenix-esc", ("ESC",), "Press <ESC> to resume"))

    def test_a_font_of_its_own_reads_as_no_prompt(self):
        # Intel's TC430HX (AMI) writes "Press <F1> for Setup, <ESC> to Boot" in a font
        # of its own, narrower than IBM's: no rule matches, so a screen like it that
        # stands still gets the blind keys (ESC first, which boots here).
        self.assertIsNone(prompts.match(self.lines("intel-ami-640x480.png")))
        self.assertEqual(prompts.BLIND_KEYS[0], "ESC")

    def test_not_a_png(self):
        with self.assertRaises(screen.ScreenError):
            screen.read_png(os.path.join(HERE, "README.md"))


class Prompts(unittest.TestCase):
    def test_each_vendor(self):
        for text, name, keys in (
                ("Press <F1> to resume, <F2> to Setup", "f1-resume", ("F1",)),
                ("Press <ESC> to resume, <F2> to Setup", "phoenix-esc", ("ESC",)),
                ("Press F1 to RUN SETUP", "f1-run-setup", ("F1",)),
                ("Strike the F1 key to continue, F2 to run the setup utility",
                 "f1-continue", ("F1",)),
                ("Write data into CMOS and exit (Y/N)? N", "setup-confirm-yn",
                 ("Y", "ENTER")),
                ("AMIBIOS SETUP PROGRAM - BIOS SETUP UTILITIES\n  Want to Quit Without "
                 "Saving (Y/N) ? N", "setup-no-discard", ("N", "ENTER", "F10")),
                ("AMIBIOS SETUP PROGRAM - BIOS SETUP UTILITIES\nWRITE TO CMOS AND EXIT\n"
                 "ESC:Exit  F10:Save & Exit", "setup-screen", ("F10",)),
                ("DISK BOOT FAILURE, INSERT SYSTEM DISK AND PRESS ENTER", "no-boot-disk", ()),
                ("Operating system not found", "no-boot-disk", ()),
                ("ROM PCI/ISA BIOS\nCMOS SETUP UTILITY\nAWARD SOFTWARE, INC.\n"
                 "ESC : Quit", "setup-screen", ("F10",)),
                ("Invalid configuration information - please run SETUP program\n"
                 "Strike the F1 key to continue, F2 to run the setup utility",
                 "f1-continue", ("F1",))):
            rule, said = prompts.match(text.split("\n"))
            self.assertEqual((rule.name, rule.keys), (name, keys), text)
        self.assertIsNone(prompts.match(["Memory Test :   32768K OK", "GRUB loading."]))
        rule, _ = prompts.match(["The IBM Personal Computer Basic",
                                 "Version C1.10 Copyright IBM Corp 1981", "62940 Bytes free"])
        self.assertEqual(rule.kind, "stop")
        rule, _ = prompts.match(["Memory size does not match CMOS - Run SETUP",
                                 "Press Enter to boot or Esc to run Setup"])
        self.assertEqual((rule.name, rule.keys), ("enter-to-boot", ("ENTER",)))
        rule, _ = prompts.match(["Entering System SETUP due to invalid config information",
                                 'Press "Enter" to continue -'])
        self.assertEqual((rule.name, rule.keys), ("enter-to-continue", ("ENTER",)))
        # A POST line that names setup is no setup screen.
        self.assertIsNone(prompts.match(["Invalid configuration information - please "
                                         "run SETUP program"]))
        self.assertEqual(prompts.scan_codes(("F1", "ESC", "ENTER")), [0x3B, 0x01, 0x1C])

    def test_a_soft_off_on_leaving_setup_boots_again(self):
        # The Tyan Trinity 371 powers off once its setup has saved: no verdict yet.
        def answered(*rules):
            return [emulator.Screen(at=i, path="", lines=[], rule=rule, keys=("F1",))
                    for i, rule in enumerate(rules)]

        saved = answered("f1-run-setup", "setup-screen", "ami-easy-save")
        self.assertEqual(prompts.kind("ami-easy-save"), "setup")
        self.assertFalse(sweep.ended(emulator.Boot(verdict="poweroff", screens=saved),
                                     BootRecord()))
        # Off after POST keys alone, or with no key, is the machine's verdict; so is
        # a setup screen seen but not answered.
        post = answered("f1-run-setup")
        seen = [emulator.Screen(at=0, path="", lines=[], rule="setup-screen")]
        for screens in (post, [], seen):
            self.assertTrue(sweep.ended(emulator.Boot(verdict="poweroff", screens=screens),
                                        BootRecord()))
        self.assertTrue(sweep.ended(emulator.Boot(verdict="poweroff", first_kernel=9.0,
                                                  screens=saved), BootRecord()))
        self.assertTrue(sweep.ended(emulator.Boot(verdict="triple-fault", screens=saved),
                                    BootRecord()))
        self.assertTrue(sweep.ended(emulator.Boot(verdict="timeout"), BootRecord(refused="no")))
        self.assertFalse(sweep.ended(emulator.Boot(verdict="timeout"), BootRecord()))


def run_fixture(name):
    """(COM1 text, stderr text) of a recorded boot in fixtures/runs/NAME/ (stderr ""
    where only the log the sweep writes was kept)."""
    d = fixture("runs", name)
    err = os.path.join(d, "stderr.txt")
    return read(os.path.join(d, "com1.log")), read(err) if os.path.exists(err) else ""


def replay(stderr_text, com1_after):
    """Markers fed as 86Box wrote them, COM1 starting after line `com1_after`."""
    marks = emulator.Markers()
    lines = stderr_text.splitlines(True)
    marks.feed("".join(lines[:com1_after]))
    marks.com1_started()
    marks.feed("".join(lines[com1_after:]))
    return marks


class Judge(unittest.TestCase):
    def test_exit_status_without_the_patch(self):
        # An 86Box without the kit's patch prints no marker: its exit says it all.
        self.assertEqual(emulator.exit_verdict([], 0), "poweroff")
        self.assertEqual(emulator.exit_verdict([], 5), "exit:5")     # no APM BIOS
        self.assertEqual(emulator.exit_verdict([], 3), "exit:3")     # still on
        # The patched one's soft-off is its marker; its status 0 alone is not one.
        self.assertEqual(emulator.exit_verdict(["hard reset", "soft-off"], 0), "poweroff")
        self.assertEqual(emulator.exit_verdict(["hard reset"], 0), "exit:0")
        self.assertEqual(emulator.exit_verdict(["hard reset"], 5), "exit:5")
        # The judge reads an odd status after the kernel's halt as that halt.
        v = judge.judge("exit:5", "apmoff: halted: no APM BIOS\n")
        self.assertEqual(v.outcome, "halted: no APM BIOS")

    def test_poweroff(self):
        com1, err = run_fixture("tx97-poweroff")
        marks = replay(err, len(err.splitlines()))
        self.assertEqual(marks.event(), "poweroff")
        v = judge.judge("poweroff", com1)
        self.assertEqual((v.reached_kernel, v.outcome), (True, "off via rm"))
        self.assertEqual(judge.interfaces(com1, "poweroff"), {"rm": "off"})
        s = judge.survey_of(com1)
        self.assertEqual((s["apm"]["version"], s["chipset"]["soft_off"], s["label"]),
                         ("1.2", "yes", "86box:tx97 ASUS TX97"))
        self.assertEqual(judge.disagreements(["APM", "USB"], s, "poweroff", {"rm": "off"}), [])

    def test_cpu_as_the_kernel_saw_it(self):
        self.assertEqual(judge.cpu_seen(judge.survey_of(run_fixture("tx97-poweroff")[0])),
                         "GenuineIntel Pentium, 75 MHz")
        self.assertEqual(judge.cpu_seen(judge.survey_of(run_fixture("win471-no-apm")[0])),
                         "GenuineIntel 486DX2, 40 MHz")
        # A 386 has no CPUID: no vendor.
        self.assertEqual(judge.cpu_seen({"cpu": {"class": "386", "name": "386",
                                                 "clock_khz": 33178}}), "386, 33 MHz")
        self.assertIsNone(judge.cpu_seen(None))
        self.assertIsNone(judge.cpu_seen({"cpu": {}}))

    def test_halted_without_apm_disagrees_with_the_flag(self):
        com1, err = run_fixture("win471-no-apm")
        self.assertIsNone(replay(err, 0).event())     # key presses and shots: no event
        v = judge.judge("on", com1)
        self.assertEqual(v.outcome, "halted: no APM BIOS")
        s = judge.survey_of(com1)
        self.assertEqual(judge.disagreements(["APM"], s, "on", {}),
                         ["86Box flags MACHINE_APM; 5300h found no APM BIOS (with the "
                          "BIOS's setup defaults)"])
        self.assertEqual(judge.disagreements([], s, "on", {}), [])

    def test_power_off_failed_on_every_interface(self):
        com1, _ = run_fixture("p55t2p4-still-on")
        results = judge.interfaces(com1, "on")
        self.assertEqual(sorted(results), ["pm16", "pm32", "rm"])
        self.assertTrue(all("still on" in r for r in results.values()), results)
        self.assertEqual(judge.judge("on", com1).outcome,
                         "halted: power-off failed via rm, pm32 and pm16")

    def test_resets_in_post_do_not_count(self):
        # The FIC VA-503+ resets once in POST; a reset after COM1 had text does count.
        marks = replay("BENCH86: hard reset\nBENCH86: hard reset\nBENCH86: soft reset\n", 3)
        self.assertIsNone(marks.event())
        marks.feed("BENCH86: soft reset\n")
        self.assertEqual(marks.event(), "reset")

    def test_a_slow_post_does_not_cut_off_the_run(self):
        # The PS/2 model 80's loader speaks at 146 s of a 150 s deadline.
        self.assertFalse(emulator.past_deadline(149, 150, None))
        self.assertTrue(emulator.past_deadline(150, 150, None))
        self.assertFalse(emulator.past_deadline(150.1, 150, 146.7))
        self.assertFalse(emulator.past_deadline(236, 150, 146.7))
        self.assertTrue(emulator.past_deadline(146.7 + emulator.LOADER_SECS, 150, 146.7))
        self.assertTrue(emulator.past_deadline(150, 150, 20))
        # The ECS 386's prompt comes at 142 s: its setup-save cycle and the boot after
        # it have ANSWER_SECS from the last key.
        self.assertFalse(emulator.past_deadline(151, 150, None, 150.4))
        self.assertTrue(emulator.past_deadline(150.4 + emulator.ANSWER_SECS, 150, None,
                                               150.4))
        self.assertTrue(emulator.past_deadline(150, 150, None, 20))

    def test_a_loader_that_halts_is_named_and_not_waited_out(self):
        # 86Box's Flytech A36 (apmoff 0.3's first loader): its E820h map had nothing
        # at 1 MiB. The loader's halt ends the boot as the kernel's does.
        com1, _ = run_fixture("flytech386-loader-halt")
        self.assertTrue(emulator.LOADER_HALTED.search(com1))
        self.assertFalse(emulator.LOADER_HALTED.search(run_fixture("tx97-poweroff")[0]))
        v = judge.judge("on", com1)
        self.assertEqual(v.reason_kind, "loader-hang")
        self.assertIn("a segment lies outside the memory", v.reason)

    def test_triple_faults_in_post_do_not_count(self):
        # A Quadtel 386SX BIOS leaves protected mode by a triple fault in POST; a
        # triple fault after COM1 had text counts, and so does a loop before it.
        marks = replay("BENCH86: hard reset\nBENCH86: triple fault\nBENCH86: soft reset\n", 3)
        self.assertIsNone(marks.event())
        marks.feed("BENCH86: triple fault\n")
        self.assertEqual(marks.event(), "triple-fault")
        loop = emulator.Markers()
        loop.feed("BENCH86: hard reset\n" + "BENCH86: triple fault\nBENCH86: soft reset\n"
                  * (emulator.LOOPING_TRIPLES - 1))
        self.assertIsNone(loop.event())
        loop.feed("BENCH86: triple fault\n")
        self.assertEqual(loop.event(), "triple-fault")

    def test_the_trace_ends_at_the_latest_triple_fault(self):
        t = emulator.FaultTrace()
        t.feed("BENCH86: fault 13 at 0018:000085D8 (cr0 0000FFF1, cpl 0)\n"
               "BENCH86: triple fault\nBENCH86: #UD at F000:0000E05B (cr0 00000010)\n")
        self.assertEqual(t.lines()[0], "BENCH86: fault 13 at 0018:000085D8 (cr0 0000FFF1, "
                         "cpl 0)")
        t.feed("BENCH86: #UD at 0000:00007C0A (cr0 00000010)\nBENCH86: triple fault\n")
        self.assertEqual(t.lines(), ["BENCH86: #UD at F000:0000E05B (cr0 00000010)",
                                     "BENCH86: #UD at 0000:00007C0A (cr0 00000010)",
                                     "BENCH86: triple fault"])

    def test_triple_fault_names_the_faults(self):
        com1, err = run_fixture("triple-fault")
        marks = replay(err, 0)
        self.assertEqual(marks.event(), "triple-fault")
        t = emulator.FaultTrace()
        t.feed(err)
        self.assertIsNotNone(t.ended)       # a triple fault ended the trace
        faults = t.lines()
        self.assertEqual(faults[-1], "BENCH86: triple fault (real mode)")
        v = judge.judge("triple-fault", com1, faults=faults)
        self.assertEqual((v.reached_kernel, v.reason_kind), (False, "fault"))
        # The boot sector's UD2 with an empty IDT, not the BIOS's #UDs after the reset.
        self.assertEqual(v.reason, "triple fault before the loader: #UD at "
                         "0000:00007C0A (cr0 00000010)")

    def test_reasons_for_not_reaching_the_kernel(self):
        v = judge.judge("on", "", stopped_at="DISK BOOT FAILURE, INSERT SYSTEM DISK AND "
                        "PRESS ENTER")
        self.assertEqual(v.reason_kind, "no-loader")
        v = judge.judge("timeout", "", screen_lines=["Press F1 to continue"],
                        prompt_rule="f1-continue", prompt_text="Press F1 to continue",
                        screenshot="screens/x.png")
        self.assertEqual((v.reason_kind, v.screenshot), ("prompt", "screens/x.png"))
        v = judge.judge("timeout", "\r\n  Booting `apmoff 0.2: power off through APM'\r\n")
        self.assertEqual(v.reason_kind, "loader-hang")
        v = judge.judge("timeout", "", screen_lines=["Memory Test : 16384K OK"])
        self.assertEqual(v.reason_kind, "no-loader")
        v = judge.judge("exit:-10", "")
        self.assertEqual((v.reason_kind, v.reason), ("exit", "86Box exited (signal 10) "
                         "after powering the machine on, before the kernel"))
        # apmoff's own loader, on COM1 or on the screen, and no kernel line
        v = judge.judge("timeout", "apmoff loader: version 0.3\r\napmoff loader: booting 1\r\n")
        self.assertEqual(v.reason_kind, "loader-hang")
        v = judge.judge("reset", "", screen_lines=["apmoff loader 0.3: boot menu"])
        self.assertEqual(v.reason_kind, "reset")
        # Off after GRUB's Booting line with no kernel line: the AN430TX's COM1.
        v = judge.judge("poweroff", "  Booting `apmoff 0.2: power off through APM'\n\n")
        self.assertEqual((v.reached_kernel, v.reason_kind), (False, "silent-kernel"))
        v = judge.judge("on", "x", refused="86Box ran machine ecs386v instead")
        self.assertEqual(v.reason_kind, "refused")


class Tables(unittest.TestCase):
    def test_markdown_row_and_block(self):
        com1, _ = run_fixture("tx97-poweroff")
        r = Result(machine="tx97", board="ASUS TX97 | x", chipset86="Intel 430TX",
                   survey=judge.survey_of(com1), interfaces={"rm": "off"},
                   verdict=judge.judge("poweroff", com1), seconds=31, boots=[BootRecord()],
                   type_rank=19)
        r2 = Result(machine="award495", board="U-Board", chipset86="OPTi 495SLC",
                    seconds=150, boots=[BootRecord()],
                    cpu=CpuSeen(box86=RanCpu(family="i386dx", name="i386DX 33")),
                    verdict=judge.judge("on", "", stopped_at="DISK BOOT FAILURE"),
                    type_rank=7)
        text = report.table([r, r2])
        rows = text.split("\n")
        self.assertEqual(len(rows), 4)
        self.assertTrue(rows[2].startswith("| `award495` "), rows[2])   # era order
        self.assertIn("ASUS TX97 \\| x", rows[3])
        self.assertEqual(rows[3].count(" | ") + 2, len(report.COLUMNS) + 1)
        self.assertIn("| GenuineIntel Pentium, 75 MHz | Intel 430TX (PIIX4) | Award 11/24/98 "
                      "| 1.2 (0x0003) | rm pm16 pm32 | rm: off | no ACPI | yes | poweroff "
                      "| off via rm |", rows[3])
        # No kernel, no survey: the CPU 86Box wrote back, in parentheses.
        self.assertIn("| U-Board | (i386DX 33) | (OPTi 495SLC) |", rows[2])
        page = "a\n%s\nold\n%s\nb\n" % (report.BEGIN, report.END)
        block = report.block([r, r2], "Header.", set())
        new = report.replace_block(page, block)
        self.assertTrue(new.startswith("a\n" + report.BEGIN))
        self.assertTrue(new.endswith(report.END + "\nb\n"))
        self.assertIn("2 machines: 1 reached the kernel (not reached: no-loader 1); APM present "
                      "on 1, 86Box powered off 1 once apmoff ran, ACPI", new)
        # A BIOS that cuts the power in POST (the Tyan S1857 once its setup has saved) is
        # 86Box's soft-off, but not a power-off of apmoff's: counted apart.
        r3 = dataclasses.replace(r2, machine="s1857", verdict=judge.judge("poweroff", ""))
        self.assertEqual(r3.verdict.reason_kind, "no-loader")
        self.assertEqual((report.counts([r, r2, r3])["off"],
                          report.counts([r, r2, r3])["off_in_post"]), (1, 1))
        self.assertIn("86Box powered off 1 once apmoff ran (and 1 more by the BIOS before "
                      "the kernel), ACPI", report.block([r, r2, r3], "Header.", set()))
        with self.assertRaises(ValueError):
            report.replace_block("no block", block)
        # `--docs` with one machine named, or an OUT of a few: the page's table of a
        # whole sweep is not replaced by a smaller one (0.3 wrote a 1-row table over 382).
        whole = report.replace_block(page, report.block([r, r2, r3], "Header.", set()))
        with self.assertRaisesRegex(ValueError, "counts 3 machines and this sweep's results 2"):
            report.replace_block(whole, block)
        self.assertIn("3 machines: ", report.replace_block(
            whole, report.block([r, r2, r3], "Again.", set())))
        # The whole table's time is told from PROJECTION_MIN machines, not from one.
        one = [Result(seconds=60, boots=[BootRecord()])]
        self.assertEqual(report.timing(one, 382), (60, None))
        many = one * report.PROJECTION_MIN
        self.assertAlmostEqual(report.timing(many, 382)[1], 60 * 382 / 2 / 3600)

    def test_methods_asked_alone(self):
        # The survey says which methods the machine may have: \_S5_ asks method=acpi, a
        # soft-off south bridge (tx97's PIIX4) method=chipset; options that name a
        # method already ask for nothing more.
        com1, _ = run_fixture("tx97-poweroff")
        survey = judge.survey_of(com1)
        self.assertEqual(sweep.methods_to_ask(survey, ""), [("chipset", "soft-off yes")])
        acpi = dict(survey, acpi={"found": True, "s5": {"slp_typa": 5, "slp_typb": 5}})
        self.assertEqual([m for m, _ in sweep.methods_to_ask(acpi, "")], ["acpi", "chipset"])
        self.assertEqual(sweep.methods_to_ask(acpi, "method=apm,acpi"), [])
        self.assertEqual(sweep.methods_to_ask(None, ""), [])
        # Each method's boot is a column, and the counts say how many each turned off.
        off = Verdict(emulator="poweroff", reached_kernel=True, outcome="off via chipset")
        on = Verdict(emulator="on", reached_kernel=True,
                     outcome="halted: S5 was written and the machine is still on")
        r = Result(machine="tx97", survey=acpi, boots=[BootRecord()], type_rank=19,
                   verdict=judge.judge("on", "apmoff: halted: power-off failed\n"),
                   methods=[MethodTry(method="acpi", why="x", verdict=on),
                            MethodTry(method="chipset", why="y", verdict=off)])
        cells = report.row(r)
        at = report.COLUMNS.index("method=acpi")
        self.assertEqual(cells[at:at + 2], ["on: halted: S5 was written and the machine is "
                                            "still on", "off"])
        c = report.counts([r])
        self.assertEqual((c["asked"], c["off_by"], c["off_any"]),
                         ({"acpi": 1, "chipset": 1}, {"acpi": 0, "chipset": 1}, 1))
        self.assertIn("Asked alone in a boot of their own: method=acpi on 1, off 0, "
                      "method=chipset on 1, off 1; off by some method: 1.",
                      report.block([r], "H.", set()))
        # Stored and read back; a result that lacks a method its survey asks is run again.
        d = tempfile.mkdtemp()
        try:
            resultfile.write(d, r)
            back = resultfile.read(resultfile.path_of(d, "tx97"))
        finally:
            shutil.rmtree(d)
        self.assertEqual(back.methods, r.methods)
        settings = sweep.Settings.__new__(sweep.Settings)
        settings.options, settings.image_hashes, settings.binary_hash = "", {}, ""
        settings.dumps = False
        r.key, r.config = settings.key(""), RunConfig()
        self.assertTrue(sweep.is_current(settings, r))
        self.assertFalse(sweep.is_current(settings, dataclasses.replace(r, methods=r.methods[:1])))
        # --dumps: a machine that reached the kernel without a dump boot is run again.
        settings.dumps = True
        self.assertFalse(sweep.is_current(settings, r))
        self.assertTrue(sweep.is_current(settings, dataclasses.replace(
            r, dump=resultfile.DumpTry(emulator="exit:43"))))

    def test_read_dump(self):
        from tests.collect.test_dumps import wire
        rom = bytes((i * 13) & 0xFF for i in range(0x20000))
        flash = bytearray(rom)
        flash[0x1C100:0x1C104] = b"ESCD"
        lines = (["apmoff: dump: 2 blocks"] + wire(1, "rom", 0xF0000, rom[-0x10000:]) +
                 wire(2, "rom", 0xFFFE0000, bytes(flash)) +
                 ["apmoff: dump: entry: APM pm32: entry F000h:8000h (F8000h)"])
        del lines[-40]          # a line of block 2 lost on the wire
        d = tempfile.mkdtemp()
        try:
            files = os.path.join(d, "dumps", "tx97")
            r = sweep.read_dump("\n".join(lines), "exit:43", {"0112.001": rom}, files)
            self.assertEqual((r.blocks, r.bad), (1, ["rom at FFFE0000h"]))
            # Without the flash the F-segment is compared: the file's last 64 KiB.
            self.assertEqual(r.rom, "F0000h-FFFFFh equals 0112.001 (64 KiB)")
            self.assertTrue(r.rom_equal)
            with open(os.path.join(files, "MANIFEST.txt")) as f:
                manifest = f.read()
            self.assertIn("NOT WRITTEN rom at FFFE0000h", manifest)
            self.assertIn("entry: APM pm32: entry F000h:8000h (F8000h)", manifest)
            lines = (wire(1, "rom", 0xF0000, rom[-0x10000:]) +
                     wire(2, "rom", 0xFFFE0000, bytes(flash)))
            r = sweep.read_dump("\n".join(lines), "exit:43", {"0112.001": rom}, files)
            self.assertEqual((r.rom_equal, r.rom_differing, r.rom_ranges),
                             (False, 4, ["1C000h-1CFFFh"]))
            self.assertEqual(report.dump_text(resultfile.Result(dump=r)),
                             "= file but 1C000h-1CFFFh (flash)")
            r = sweep.read_dump("apmoff: halted: no APM BIOS", "on", {"x": rom}, files)
            self.assertEqual((r.blocks, r.files, r.rom), (0, None, "no rom block read back"))
        finally:
            shutil.rmtree(d)

    def test_rom_dump_column(self):
        r = resultfile.Result(machine="tx97", verdict=resultfile.Verdict(reached_kernel=True))
        self.assertEqual(report.dump_text(r), "")
        r.dump = resultfile.DumpTry(emulator="exit:43", rom="the flash at FFFE0000h equals "
                                    "0112.001 (128 KiB)", rom_equal=True,
                                    rom_compared=131072)
        self.assertEqual(report.dump_text(r), "= file (flash)")
        r.dump = dataclasses.replace(r.dump, rom="the flash at FFFE0000h differs ...",
                                     rom_equal=False, rom_differing=1966,
                                     rom_ranges=["1C000h-1DFFFh"], bad=["acpi at 000F6000h"])
        self.assertEqual(report.dump_text(r), "= file but 1C000h-1DFFFh (flash); spoilt: "
                         "acpi at 000F6000h")
        r.dump = dataclasses.replace(r.dump, rom="F0000h-FFFFFh differs ...", bad=[],
                                     rom_differing=64380, rom_compared=65536)
        self.assertEqual(report.dump_text(r), "differs in 64380 of 65536 bytes (F-segment)")
        r.dump = resultfile.DumpTry(emulator="timeout", rom="no rom block read back")
        self.assertEqual(report.dump_text(r), "no rom block read back (86Box: timeout)")
        # Stored and read back whole; a result without one stores no "dump" key.
        d = tempfile.mkdtemp()
        try:
            resultfile.write(d, r)
            self.assertEqual(resultfile.read(resultfile.path_of(d, "tx97")).dump, r.dump)
            r.dump = None
            self.assertNotIn("dump", r.to_json())
        finally:
            shutil.rmtree(d)

    def test_apm_without_a_survey(self):
        # A kernel that never printed its survey (the LG IBM x61 stays in 5310h) still
        # said what 5300h found; the table shows it, says so, and counts it.
        com1 = ("apmoff: rm: 5300h installation check (BX=0000h)\r\n"
                "apmoff: APM 1.2 BIOS, signature PM, flags 0003h: 16-bit PM interface\r\n"
                "apmoff: rm: 5310h get capabilities (BX=0000h)\r\n")
        self.assertEqual(judge.apm_seen(com1), ApmSeen(present=True, version="1.2"))
        self.assertIsNone(judge.apm_seen("apmoff: survey screen: skipped (wait=0)\n"))
        r = Result(machine="lgibmx61", board="LG IBM Multinet x61", boots=[BootRecord()],
                   seconds=150, verdict=judge.judge("timeout", com1), type_rank=20)
        judge.refresh(r, com1, ())
        self.assertEqual(r.disagreements,
                         ["BIOS has APM 1.2; 86Box's table has no MACHINE_APM"])
        self.assertIn("| 1.2 (no survey) |", report.table([r]))
        self.assertEqual(report.counts([r])["apm"], 1)
        # With a survey, its APM object decides and the kernel's lines are not read.
        com1_tx97, _ = run_fixture("tx97-poweroff")
        t = judge.refresh(Result(flags=["APM"], survey=judge.survey_of(com1_tx97),
                                 verdict=judge.judge("poweroff", com1_tx97),
                                 interfaces={"rm": "off"}), com1_tx97, ())
        self.assertIsNone(t.apm_seen)
        self.assertEqual(t.disagreements, [])

    def test_unknown_chipsets(self):
        with open(os.path.join(ROOT, "survey", "chipset.c")) as f:
            known = chipsets.read_table(f.read())
        self.assertIn((0x8086, 0x7110), known)          # PIIX4, an INTEL_SB() row
        self.assertIn((0x8086, 0x04A3), known)          # 430LX/NX, a ROW() row
        self.assertIn((0x1106, 0x0586), known)          # VT82C586B, a VIA_SB() row
        self.assertIn((0x1039, 0x0496), known)          # SiS 496, a row written out
        self.assertIn((0x1060, 0x888A), known)          # UMC: a vendor of its own
        self.assertNotIn((0x1060, 0xE881), known)
        survey = {"pci": {"functions": ["00:00.0 1060:E881 060000 01",
                                        "00:02.0 1060:E88A 060100 00",
                                        "00:03.0 8086:7110 060100 00",
                                        "00:04.0 1060:888A 060100 00",
                                        "00:0C.0 1013:00B8 030000 00 1/11"]}}
        found = chipsets.unknown([Result(machine="umc", survey=survey,
                                         chipset86="UMC UM8881")], known)
        self.assertEqual(sorted(found), [(0x1060, 0xE881), (0x1060, 0xE88A)])
        self.assertEqual(found[(0x1060, 0xE88A)]["role"], "ISA bridge")

    def test_coverage_says_which_machines(self):
        table = [dataclasses.make_dataclass("M", ["internal"])(n) for n in "abcd"]
        results = [Result(machine=n) for n in "ab"]
        self.assertTrue(report.coverage(results, table).startswith("the first 2 of the 4 "))
        self.assertEqual(report.coverage(results[1:], table),
                         "1 of the 4 machines of the 386 and later")
        self.assertEqual(report.coverage([Result(machine=n) for n in "dcba"], table),
                         "the whole table")

    def test_a_resumed_sweep_names_each_kernel(self):
        def surveyed(commit):
            return Result(survey={"version": "0.3", "commit": commit})
        results = [surveyed("new"), surveyed("new"), surveyed("old"), Result()]
        self.assertEqual(report.kernel_versions(results),
                         [("0.3", "new", 2), ("0.3", "old", 1)])
        self.assertEqual(report.kernels_text(report.kernel_versions(results)),
                         "apmoff 0.3 (`new`) on 2 and 0.3 (`old`) on 1 "
                         "of the surveys")
        self.assertEqual(report.kernels_text(report.kernel_versions(results[:2])),
                         "apmoff 0.3 (`new`)")



class FlagsPatch(unittest.TestCase):
    """--flags-patch: what the BIOSes showed as patches of machine_table.c."""

    def result(self, machine, apm=None, acpi=None, reached=True):
        survey = {}
        if apm is not None:
            survey["apm"] = {"present": apm, "version": "1.2", "flags": "0x0003"}
        if acpi is not None:
            survey["acpi"] = {"found": acpi, "revision": 0, "oem": "AWARD",
                              "s5": {"slp_typa": 5, "slp_typb": 5}}
        return Result(machine=machine, survey=survey, verdict=Verdict(
            reached_kernel=reached, outcome="off via rm" if reached else "not reached"))

    def test_only_what_the_evidence_shows(self):
        t = made_up()
        m = t.get("nsslot1")
        has = set(m.flag_names)
        r = self.result("nsslot1", apm=True, acpi=True)
        changes, kept = flagspatch.decide(r, m)
        self.assertEqual(sorted(c.flag for c in changes),
                         sorted(f for f in ("APM", "ACPI") if f not in has))
        # 86h with the setup's defaults: not evidence against a flag 86Box sets.
        changes, kept = flagspatch.decide(self.result("nsslot1", apm=False, acpi=False), m)
        self.assertEqual(changes, [])
        self.assertEqual({f for f, why in kept if "not known" in why},
                         {f for f in ("APM", "ACPI") if f in has})
        changes, _ = flagspatch.decide(self.result("nsslot1", reached=False), m)
        self.assertEqual(changes, [])

    def test_patched_line(self):
        line = "        .flags     = MACHINE_IDE_DUAL | MACHINE_USB,"
        self.assertEqual(flagspatch.patched_line(line, ["MACHINE_APM"], []),
                         "        .flags     = MACHINE_IDE_DUAL | MACHINE_USB | MACHINE_APM,")
        self.assertEqual(flagspatch.patched_line(
            "        .flags     = MACHINE_APM,", [], ["MACHINE_APM"]),
            "        .flags     = 0,")
        self.assertIsNone(flagspatch.patched_line("        .ram = {", ["MACHINE_APM"], []))

    def test_patches_apply_to_the_table_read(self):
        t = made_up()
        with open(os.path.join(TABLE, flagspatch.TABLE_FILE)) as f:
            text = f.read()
        results = [self.result(m.internal, apm=True, acpi=True)
                   for m in cli.sweep_range(t)]
        d = tempfile.mkdtemp()
        try:
            written = flagspatch.write(results, t, text, d, "0123456789ab")
            self.assertTrue(written)
            tree = os.path.join(d, "tree")
            shutil.copytree(TABLE, tree)
            for path, machines in written:
                with open(path) as f:
                    patch = f.read()
                self.assertIn("Subject: [PATCH] Machine table: ", patch)
                for name in machines:
                    self.assertIn("%s (" % name, patch)
                proc = subprocess.run(["git", "apply", "--check", path], cwd=tree,
                                      capture_output=True, text=True)
                self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(d, "flags.csv")) as f:
                rows = list(csv.reader(f))
            self.assertEqual(rows[0], ["machine", "board", "socket", "flag", "change",
                                       "evidence"])
            self.assertEqual({r[4] for r in rows[1:]} - {"add", "agrees"}, set())
        finally:
            shutil.rmtree(d)


class Shards(unittest.TestCase):
    """--shard K/N and --merge: a sweep shared out among hosts, its table the same as
    one sweep's."""

    def test_shares_are_fixed_and_cover_every_machine(self):
        names = ["m%03d" % i for i in range(382)]
        machines = [table.Machine.__new__(table.Machine) for _ in names]
        for m, name in zip(machines, names):
            m.internal = name
        shares = [shards.select(machines, k, 3) for k in (1, 2, 3)]
        self.assertEqual(sorted(m.internal for s in shares for m in s), names)
        for share in shares:
            self.assertLess(abs(len(share) - 382 / 3), 382 / 3 * 0.2)
        # By the name alone: the same share in any order, and with more machines.
        self.assertEqual(shards.select(machines[::-1], 2, 3), shares[1][::-1])
        self.assertEqual(shards.shard_of("tx97", 3), shards.shard_of("tx97", 3))

    def test_parse(self):
        self.assertEqual(shards.parse("2/3"), (2, 3))
        for bad in ("0/3", "4/3", "3", "a/b"):
            with self.assertRaises(shards.ShardError):
                shards.parse(bad)

    def test_merged_table_is_the_single_sweeps(self):
        machines = cli.sweep_range(made_up())
        with open(resultfile.path_of(FIXTURES, "nsslot1")) as f:
            template = json.load(f)
        d = tempfile.mkdtemp()
        try:
            single = os.path.join(d, "single")
            for i, m in enumerate(machines):
                raw = dict(template, machine=m.internal, seconds=30 + i,
                           com1_log="logs/%s.log" % m.internal)
                os.makedirs(os.path.join(single, "results"), exist_ok=True)
                with open(resultfile.path_of(single, m.internal), "w") as f:
                    json.dump(raw, f)
                os.makedirs(os.path.join(single, "logs"), exist_ok=True)
                with open(os.path.join(single, "logs", m.internal + ".log"), "w") as f:
                    f.write("apmoff: halted: no APM BIOS\n86BOX on secs=%d\n" % (30 + i))
            parts = []
            for k in (1, 2, 3):
                part = os.path.join(d, "shard%d" % k)
                for m in shards.select(machines, k, 3):
                    shards.copy_machine(single, part, m.internal)
                    os.makedirs(os.path.join(part, "results"), exist_ok=True)
                    shutil.copy(resultfile.path_of(single, m.internal),
                                resultfile.path_of(part, m.internal))
                if os.path.isdir(part):
                    parts.append(part)
            merged = os.path.join(d, "merged")
            quiet = io.StringIO()
            with contextlib.redirect_stdout(quiet):
                self.assertEqual(cli.main(["--source", TABLE, "--report-only", "--no-collect",
                                           "--out", single]), 0)
                self.assertEqual(cli.main(["--source", TABLE, "--merge"] + parts +
                                          ["--no-collect", "--out", merged]), 0)
            with open(os.path.join(single, "sweep.md")) as a, \
                    open(os.path.join(merged, "sweep.md")) as b:
                self.assertEqual(b.read(), a.read())
            self.assertTrue(os.path.exists(os.path.join(merged, "logs", "nsslot1.log")))
            # One machine in two shards with different results: refused, named.
            other = os.path.join(d, "other")
            shards.copy_machine(single, other, "nsslot1")
            raw = dict(template, machine="nsslot1", seconds=1)
            os.makedirs(os.path.join(other, "results"))
            with open(resultfile.path_of(other, "nsslot1"), "w") as f:
                json.dump(raw, f)
            with self.assertRaisesRegex(shards.ShardError, "nsslot1 is in .* with different"):
                shards.merge(parts + [other], os.path.join(d, "m2"), say=lambda t: None)
        finally:
            shutil.rmtree(d)

class StoredResults(unittest.TestCase):
    """fixtures/results/: files the sweep wrote before its results were typed (a kit
    sweep's tg486gp; nsslot1, a no-ROM result): read as they were, written the same."""

    def test_an_earlier_sweeps_results_read_and_are_written_to_the_byte(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        for name in ("tg486gp", "nsslot1"):
            r = resultfile.read(resultfile.path_of(FIXTURES, name))
            self.assertEqual((r.machine, r.version), (name, resultfile.RESULT_VERSION))
            resultfile.write(d, r)
            self.assertEqual(read(resultfile.path_of(d, name)),
                             read(resultfile.path_of(FIXTURES, name)))
        r = resultfile.read(resultfile.path_of(FIXTURES, "tg486gp"))
        self.assertEqual((r.verdict.outcome, r.cpu.box86.name, r.boots[0].screens[0].rule,
                          r.boots[0].then, r.config.ram_kb, r.apm_seen),
                         ("halted: power-off failed via rm, pm32 and pm16",
                          "Am486DX2 (Enhanced) 66", "f1-resume", None, 16384, None))
        # A machine never booted has no evidence keys, not even null, and a config of
        # its floppy alone.
        r = resultfile.read(resultfile.path_of(FIXTURES, "nsslot1"))
        self.assertEqual((r.verdict.reason_kind, r.boots, r.com1_log, r.config.cpu_family),
                         ("no-rom", [], None, None))
        self.assertNotIn("apm_seen", r.to_json())

    def test_a_file_lacking_keys_reads_with_defaults(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        path = os.path.join(d, "old.json")
        with open(path, "w") as f:
            f.write('{"machine": "old", "board": null, "cpu": null, "later": 1, '
                    '"verdict": {"reached_kernel": true, "outcome": "off via rm"}, '
                    '"boots": [{"n": 1, "screens": [{"at": 1.5}, 5]}, "x"]}')
        r = resultfile.read(path)
        self.assertEqual((r.version, r.board, r.cpu, r.interfaces, r.verdict.emulator),
                         (None, "", None, {}, ""))
        self.assertEqual([(b.n, [(s.at, s.picture) for s in b.screens]) for b in r.boots],
                         [(1, [(1.5, None)])])
        self.assertIn("| `old` |   |   | () |", report.table([r]))
        for text in ("{", "[1, 2]"):
            with open(path, "w") as f:
                f.write(text)
            self.assertIsNone(resultfile.read(path))


if __name__ == "__main__":
    tap_main()
