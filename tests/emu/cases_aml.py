"""method=acpi runs the firmware's AML as an operating system does: \\_PTS(5) before S5.

QEMU's own tables have no \\_PTS, so these cases give QEMU one more SSDT
(tests/emu/acpi/pts.asl): its module-level code switches the chipset's PM I/O space
off when the table loads, and its \\_PTS(5) switches it back on, then writes "_PTS(5)"
to port 440h. The machine powers off only if \\_PTS ran, and the port shows that it
did; built with -D STOP, \\_PTS stops at an opcode apmoff does not execute, and the
machine stays on."""

from tests.emu.case import Case
from tests.emu.judges import PortLog, SurveyMatches
from tests.emu.qemu import AcpiTable, PaddedSsdt, UnclosedScopeSsdt

OFF_ACPI = r"^apmoff: powering off via acpi \(S5: PM1a_CNT 0604h, SLP_TYPa 0\)$"
MARK = r"^_PTS\(5\)$"                   # what \_PTS(5) writes to port 440h
PTS = AcpiTable("pts")
PTS_STOP = AcpiTable("pts", ["STOP"])
LOADTABLE = r"opcode 5B 1Fh \(LoadTable\) at table 1 offset [0-9A-F]+h in \\_PTS: not supported"


def pts_runs(chip_write_off, chip_write_on):
    """The serial lines of a run whose \\_PTS(5) runs to its end: the load's write,
    \\_PTS's own, each printed as it is made, and the count. A power-off loads the AML
    once, to run it: the survey's dry load ("\\_PTS: can be evaluated") is not made."""
    return [r"^apmoff: acpi: load: " + chip_write_off + "$",
            r"^apmoff: acpi: _PTS\(5\): " + chip_write_on + "$",
            r"^apmoff: acpi: _PTS\(5\): SystemIO 440h <- 5Fh$",
            r"^apmoff: acpi: _PTS\(5\) done: 9 writes, \d+ steps, \d+ ms$"]


CASES = [
    # PIIX4 (pc): PMIOSE, PCI_Config 00:01.3 byte 80h, off at load and on in \_PTS.
    Case("qemu-pc-acpi-pts", "qemu", "seabios", "pc", "kernel", "method=acpi", "poweroff",
         20, serial=pts_runs(r"PCI_Config 00:01\.3 80h <- 00h",
                             r"PCI_Config 00:01\.3 80h <- 01h"),
         serial_absent=[r"^apmoff: acpi: \\_PTS: can be evaluated"],
         last_line=OFF_ACPI, actions=[PTS], judges=[PortLog(0x440, [MARK])]),
    # ICH9 (q35): ACPI_EN, PCI_Config 00:1F.0 byte 44h bit 7.
    Case("qemu-q35-acpi-pts", "qemu", "seabios", "q35", "kernel", "method=acpi",
         "poweroff", 20, serial=pts_runs(r"PCI_Config 00:1F\.0 44h <- 00h",
                                         r"PCI_Config 00:1F\.0 44h <- 80h"),
         last_line=OFF_ACPI, actions=[PTS], judges=[PortLog(0x440, [MARK])]),
    # The ISO's GRUB path, the same table: nothing about how the kernel came matters.
    Case("qemu-pc-acpi-pts-iso", "qemu", "seabios", "pc", "iso", "method=acpi", "poweroff",
         30, serial=[r"^apmoff: acpi: _PTS\(5\) done: 9 writes"], last_line=OFF_ACPI,
         actions=[PTS], judges=[PortLog(0x440, [MARK])]),
    # \_PTS stops before it switches the PM I/O space on: S5 goes nowhere, the machine
    # stays on, and the failure names the stop.
    Case("qemu-pc-acpi-pts-stop", "qemu", "seabios", "pc", "kernel", "method=acpi", "halt",
         30, serial=[r"^apmoff: acpi: \\_PTS: cannot be evaluated: " + LOADTABLE + "$",
                     r"^apmoff: acpi: _PTS\(5\) stopped: " + LOADTABLE + "$",
                     r"^apmoff: acpi: going on with S5 without it, as Linux does$",
                     r"^apmoff: acpi: still on after 1500 ms: SLP_EN again"],
         last_line=r"^apmoff: halted: S5 written to PM1a_CNT 0604h but the machine is "
                   r"still on after 3 s; \\_PTS\(5\) stopped before its end \(see above\)$",
         actions=[PTS_STOP], judges=[PortLog(0x440, [], absent=[r"_PTS"])]),
    # pts=off: no firmware AML at all, so neither the load's write nor \_PTS: the PM
    # I/O space stays as the BIOS left it, on.
    Case("qemu-pc-acpi-pts-off", "qemu", "seabios", "pc", "kernel", "method=acpi pts=off",
         "poweroff", 20, serial=[r"^apmoff: acpi: pts=off: no AML runs \(\\_PTS skipped\)$"],
         serial_absent=[r"^apmoff: acpi: load: ", r"^apmoff: acpi: _PTS\(5\)"],
         last_line=OFF_ACPI, actions=[PTS], judges=[PortLog(0x440, [], absent=[r"_PTS"])]),
]

# --- action=check and the survey say whether \_PTS can run, and write nothing -----------
CASES += [
    Case("qemu-pc-check-pts", "qemu", "seabios", "pc", "kernel", "action=check", "halt", 20,
         serial=[r"^apmoff: check: acpi: S5 usable: .*; \\_PTS can be evaluated$",
                 r'^apmoff: check \{.*"acpi":\{[^}]*"pts":"ok"\}'],
         serial_absent=[r"^apmoff: acpi: load: ", r"^apmoff: acpi: _PTS\(5\)"],
         actions=[PTS], judges=[PortLog(0x440, [], absent=[r"."])]),
    Case("qemu-pc-check-pts-stop", "qemu", "seabios", "pc", "kernel", "action=check",
         "halt", 20,
         serial=[r"^apmoff: check: acpi: S5 usable: .*; \\_PTS cannot be evaluated: "
                 + LOADTABLE + "$",
                 r'^apmoff: check \{.*"acpi":\{[^}]*"pts":"opcode 5B 1Fh \(LoadTable\)'],
         actions=[PTS_STOP], judges=[PortLog(0x440, [], absent=[r"."])]),
    Case("qemu-pc-survey-pts", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, actions=[PTS],
         judges=[SurveyMatches({"acpi.aml.loaded": True, "acpi.aml.tables": 2,
                                "acpi.aml.pts": "ok"}),
                 PortLog(0x440, [], absent=[r"."])]),
    # Without the extra table: QEMU's DSDT has no \_PTS, and says so.
    Case("qemu-pc-survey-nopts", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, serial=[r"^apmoff: acpi: \\_PTS: none \(nothing to run before S5\)$"],
         judges=[SurveyMatches({"acpi.aml.loaded": True, "acpi.aml.tables": 1,
                                "acpi.aml.pts": "absent"})]),
]

# --- 4 MB: the interpreter's memory comes from the tables' size; too little, and the
# run says so and goes on without the AML, as a BIOS without \_PTS would -------------
CASES += [
    Case("qemu-pc-acpi-4mb", "qemu", "seabios", "pc", "kernel", "method=acpi", "poweroff",
         30, extra=["-m", "4"], actions=[PTS], judges=[PortLog(0x440, [MARK])],
         serial=[r"^apmoff: acpi: _PTS\(5\) done: 9 writes"], last_line=OFF_ACPI),
    Case("qemu-pc-acpi-4mb-toobig", "qemu", "seabios", "pc", "kernel", "method=acpi",
         "poweroff", 30, extra=["-m", "4"], actions=[PaddedSsdt(60, count=3)],
         serial=[r"^apmoff: acpi: the firmware's AML does not run here: the interpreter "
                 r"needs \d+ KiB for these tables, and the largest free block is \d+ KiB; "
                 r"S5 without \\_PTS$"],
         last_line=OFF_ACPI),
    # A table that cannot load (DOSBox-X's unclosed Scope) is named, table and all; the
    # DSDT's \_S5_ still powers off.
    Case("qemu-pc-acpi-ssdt-unclosed", "qemu", "seabios", "pc", "kernel", "method=acpi",
         "poweroff", 30, actions=[UnclosedScopeSsdt()],
         serial=[r"^apmoff: acpi: AML: DSDT and 1 SSDT loaded in .*; SSDT 1 stopped "
                 r"loading: opcode 10h \(Scope\) at table 1 offset 24h in \(table load\): "
                 r"malformed AML \(PkgLength\)$"],
         last_line=OFF_ACPI),
]

# --- 86Box: a real Award BIOS's \_PTS: ASUS P3V4X (VIA Apollo Pro 133A, VT82C596B),
# Award Medallion 6.0, "ASUS P3V4X ACPI BIOS Revision 1006 Beta 004". The kit lacks its
# ROM: tests/emu/p3v4x.sh makes the machine under build/86box/ from the 86Box ROM set,
# and the case is skipped, naming the script, until it has run. Its DSDT's \_PTS(5):
# SLST = Arg0 (CMOS index DFh, high nibble, an IndexField on ports 72h/73h: the index
# written for the read and again for the write), TRP0 = One (bit 14 of the word at the
# PM I/O base E400h + 2Ah: a byte access to E42Bh), PCS0 = One (ISA bridge 00:04.0
# byte 8Bh bit 0: the VT82C596B is not rev 12h or older), DBG1 = Arg0 | F0h (port 80h).
# Each field is Preserve: the bits around them come from the primed CMOS and 86Box's
# reset values (all clear). Its \_S5_ is SLP_TYP 7: 86Box's VT82C596B cuts the power
# only on SLP_TYP 2 and raises no SMI for the enable bit TRP0 sets, so the BIOS's SMM
# code, which SLST and TRP0 are for, never sees the S5 write and the machine stays on:
# the case proves \_PTS ran, in this order, before the S5 write, and the halt says so.
P3V4X_PTS = [r"SystemIO 72h <- DFh", r"SystemIO 72h <- DFh", r"SystemIO 73h <- 5[0-9A-F]h",
             r"SystemIO E42Bh <- 40h", r"PCI_Config 00:04\.0 8Bh <- 01h",
             r"SystemIO 80h <- F5h"]
P3V4X_S5 = r"apmoff: powering off via acpi \(S5: PM1a_CNT E404h, SLP_TYPa 7\)$"
CASES += [
    Case("86box-p3v4x-acpi", "86box", "award", "p3v4x", "floppy", "method=acpi", "halt", 150,
         serial=[r"^apmoff: acpi: \\_PTS: can be evaluated \(every opcode it reaches is "
                 r"supported\)$",
                 # the six writes, nothing between them, then the S5 write after them
                 "^" + "".join(r"apmoff: acpi: _PTS\(5\): %s\n" % w for w in P3V4X_PTS)
                 + r"apmoff: acpi: _PTS\(5\) done: 6 writes, \d+ steps, \d+ ms\n"
                 + r"(?:.*\n)*?" + P3V4X_S5],
         serial_absent=[r"^apmoff: rm: 5300h", r"^apmoff: acpi: _PTS\(5\) stopped"],
         last_line=r"^apmoff: halted: S5 written to PM1a_CNT E404h but the machine is still "
                   r"on after 3 s$"),
]
