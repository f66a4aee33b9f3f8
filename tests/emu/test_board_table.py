"""docs/real-bioses.md's table (tests/emu/board_table.py) from made-up runs: each
outcome cell from the serial lines and 86Box's verdict, and a run that prints no
survey (the CD's default entry only powers off) given the BIOS and CPU that another
run on the same board, ROM and CPU saw, never those of another board or CPU.

    python3 -m unittest tests.emu.test_board_table
"""

import json
import unittest

from tests.emu import board_table

SURVEY = "apmoff: survey " + json.dumps({
    "bios": {"date": "11/24/98"},
    "cpu": {"vendor": "GenuineIntel", "family": 5, "model": 2, "stepping": 2}})
OFF = ("apmoff: APM 1.2 BIOS, signature PM, flags 0003h\n"
       "apmoff: powering off via rm (APM 1.2)\n")


def run(machine, medium, serial, verdict="poweroff", bios="award"):
    return dict(name=machine + medium, machine=machine, medium=medium, bios=bios,
                verdict=verdict, serial=serial)


class Rows(unittest.TestCase):
    def test_off_and_failure_cells(self):
        failed = ("apmoff: APM 1.1 BIOS, signature PM\n"
                  "apmoff: powering off via pm32 (APM 1.1)\n"
                  "apmoff: power-off via pm32 failed: 5307h error 60h\n")
        rows = board_table.rows([run("tx97", "floppy", OFF),
                                 run("486sp3c-dx2s", "floppy", failed, verdict="halt")])
        self.assertEqual(rows[("tx97", "floppy")]["rm"], "**off**")
        self.assertEqual(rows[("tx97", "floppy")]["apm"], "1.2")
        self.assertEqual(rows[("486sp3c-dx2s", "floppy")]["pm32"], "5307h error 60h")

    def test_quiet_run_takes_its_board_and_roms_view(self):
        rows = board_table.rows([run("tx97", "floppy", SURVEY + "\n" + OFF),
                                 run("tx97-cd", "iso", OFF)])
        cd = rows[("tx97-cd", "iso")]
        self.assertEqual(cd["bios"], "Award, 11/24/98")
        self.assertEqual(cd["cpu"], "CPUID GenuineIntel 5.2.2")
        self.assertIn("| Award, 11/24/98 |", board_table.markdown(
            [run("tx97", "floppy", SURVEY + "\n" + OFF), run("tx97-cd", "iso", OFF)]))

    def test_another_board_lends_nothing(self):
        rows = board_table.rows([run("p55t2p4", "floppy", SURVEY + "\n" + OFF),
                                 run("tx97-cd", "iso", OFF)])
        self.assertEqual(rows[("tx97-cd", "iso")]["bios"], "")
        self.assertIn("| ? |", board_table.markdown([run("tx97-cd", "iso", OFF)]))

    def test_another_cpu_lends_nothing(self):
        # the PVI-486SP3 with a DX2 and with a DX2-S: one ROM, two CPUs
        rows = board_table.rows([run("486sp3c-dx2s", "floppy", SURVEY + "\n" + OFF),
                                 run("486sp3c-dx2", "floppy", OFF)])
        self.assertEqual(rows[("486sp3c-dx2", "floppy")]["cpu"], "")


if __name__ == "__main__":
    unittest.main()
