"""DOSBox-X (Debian 13's dosbox-x): the floppy on its own BIOS and the APM BIOS
Windows 9x uses there, judged from DOSBox-X's log and exit (tests/emu/dosboxx.py).
Skipped, with the reason, where no dosbox-x is installed (Debian 12 has none).

Its APM BIOS powers off on 5307h from any interface, has two deviations apmoff's
action=check finds (its list: tests/emu/expect/check-dosbox-x.txt; both in
docs/emulator-bugs.md), resets through the 8042 and keeps RAM across it (the record
is read on the next boot), and enters standby until a key it cannot be sent here."""

from tests.emu.case import Case
from tests.emu.judges import ChecksEqual, DosboxLogShows, SurveyMatches

T = 90          # DOSBox-X boots the floppy in about 10 s on one core

# The calls of a real-mode connection and its off call, as DOSBox-X logs them.
RM_OFF = [r"APM BIOS call AX=5301 ", r"Connected to real-mode interface",
          r"APM BIOS call AX=5307 BX=0x0001 CX=0x0003"]


def dosboxx(name, options, expect, loader="", **kw):
    kw.setdefault("timeout", T)
    return Case("dosboxx-" + name, "dosbox-x", "dosbox-x", "-", "floppy", options, expect,
                loader=loader, **kw)


CASES = [
    # The automation floppy as it ships: off through the real-mode interface, APM 1.2.
    dosboxx("auto", "", "poweroff", loader="auto",
            serial=[r"^apmoff: APM 1\.2 BIOS, signature PM, flags 0003h",
                    r"^apmoff: powering off via rm \(APM 1\.2\)$"],
            judges=[DosboxLogShows(RM_OFF)]),
    # The shipped floppy: its loader's menu counts down to the first entry.
    dosboxx("menu", "", "poweroff",
            serial=[r"^apmoff: powering off via rm \(APM 1\.2\)$"]),
    # Its own APM BIOS's verdicts, as listed; the two FAILs said to be DOSBox-X's.
    dosboxx("check", "action=check", "halt",
            judges=[ChecksEqual("check-dosbox-x")],
            serial=[r"^apmoff: check: known FAIL enable-pm \(DOSBox-X's\): 5308h's success "
                    r"leaves CF", r"^apmoff: check: known FAIL power-state \(DOSBox-X's\): "
                    r"no 530Ch"],
            last_line=r"^apmoff: halted: check complete: 28 passed, 2 failed, 1 skipped; "
                      r"matches the expected list for DOSBox-X$"),
    # The survey of a machine with no SMBIOS and no ACPI, then off.
    dosboxx("survey", "action=survey,off wait=0", "poweroff",
            judges=[SurveyMatches({"firmware": "bios", "apm.version": "1.2"})],
            serial=[r'^apmoff: bios: "DOSBox-X BIOS v1\.0"$', r"^apmoff: smbios: not found$",
                    r"^apmoff: acpi: no RSDP found$"]),
    # The 8042's reset; DOSBox-X boots the floppy again, and RAM kept the record.
    dosboxx("reset", "action=reboot wait=0", "reset",
            serial=[r"^apmoff: resetting via kbd \(8042 command FEh\)$",
                    r"^apmoff: record: the previous run asked for a reset via kbd; the machine "
                    r"came back through a warm boot"]),
    # Standby is entered; DOSBox-X leaves it only on a key or its mapper's power button.
    dosboxx("standby", "action=standby", "standby",
            serial=[r"^apmoff: requesting standby via rm"],
            judges=[DosboxLogShows([r"APM BIOS call AX=5307 BX=0x0001 CX=0x0001",
                                    r"Guest attempted to set power state to standby"])]),
    # The 32-bit protected-mode interface alone reaches the same off.
    dosboxx("pm32", "interface=pm32 wait=0", "poweroff",
            serial=[r"^apmoff: powering off via pm32 \(APM 1\.2\)$"],
            judges=[DosboxLogShows([r"APM BIOS call AX=5303 ",
                                    r"APM BIOS call AX=5307 BX=0x0001 CX=0x0003"])]),
    # An APM 1.0 BIOS (apmbios version=1.0): no 530Eh, off on a 1.0 connection.
    dosboxx("apm10", "wait=0", "poweroff", extra=["cpu.apmbios version=1.0"],
            serial=[r"^apmoff: APM 1\.0 BIOS, signature PM",
                    r"^apmoff: powering off via rm \(APM 1\.0\)$"]),
    # Its ACPI (acpi=1.0) cannot power off: the DSDT's Scope (\_SB) keeps its PkgLength
    # placeholder, so the table does not load, and there is no \_S5_ (and DOSBox-X
    # ignores SLP_EN): named, and halted.
    dosboxx("acpi", "method=acpi wait=0", "halt", extra=["dosbox.acpi=1.0"],
            serial=[r"^apmoff: acpi: AML: the DSDT stopped loading: opcode 10h \(Scope\) at "
                    r"table 0 offset 47h in \(table load\): malformed AML \(PkgLength\)$"],
            last_line=r"^apmoff: halted: no ACPI S5: no \\_S5_ found"),
    # No APM BIOS (apmbios=false): the halt says so.
    dosboxx("noapm", "wait=0", "halt", extra=["cpu.apmbios=false"],
            last_line=r"^apmoff: halted: no APM BIOS"),
]
