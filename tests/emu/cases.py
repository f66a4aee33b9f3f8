"""The emulator test cases: one row each, in one file a topic. Later features add
rows (and, for a new kind of check, a judge class in judges.py), not harnesses.

Columns (tests/emu/case.py): name, emulator, BIOS, machine, medium, kernel options
("" = the shipped ISO's default menu entry), expected verdict, timeout in seconds,
then what the serial log must show, and the judges for anything more.

Each case is in the group of its topic below, and in the groups its columns imply
(emulator, medium, uefi, biosrom, survey, check, v86, ...):
`python3 -m tests.run_all -l` lists them, `-g GROUP` runs one.
"""

from tests.emu import (cases_86box, cases_aml, cases_biosrom, cases_check, cases_errors,
                       cases_floppy, cases_media, cases_methods, cases_poweroff, cases_reset,
                       cases_screen, cases_survey, cases_uefi, cases_v86, cases_windows)

TOPICS = [
    ("poweroff", cases_poweroff),   # the walking skeleton, forced interfaces, fallbacks
    ("methods", cases_methods),     # method=: ACPI S5 beside APM, chains
    ("reset", cases_reset),         # action=reboot, reset=, the record; wake=
    ("aml", cases_aml),             # method=acpi runs the firmware's AML: \\_PTS(5)
    ("errors", cases_errors),       # bad command lines, CPU exceptions
    ("v86", cases_v86),             # the v86 monitor against the CPU itself
    ("check", cases_check),         # action=check against tests/emu/expect/
    ("survey", cases_survey),       # the JSON line, its QR pages, SMBIOS bytes
    ("media", cases_media),         # floppy, 486 with little memory, automation images
    ("floppy", cases_floppy),       # every PC floppy format, in a drive of its kind
    ("uefi", cases_uefi),           # the hybrid ISO under OVMF
    ("86box", cases_86box),         # real boards and BIOS ROMs (skipped without 86Box)
    ("screen", cases_screen),       # what a person sees, whichever loader
    ("biosrom", cases_biosrom),     # emulated 1990s APM BIOSes as option ROMs
    ("biosrom", cases_windows),     # ... and the behaviours only real boards show
]

CASES = []
for topic, module in TOPICS:
    for case in module.CASES:
        case.groups.append(topic)
        CASES.append(case)

_names = [c.name for c in CASES]
assert len(set(_names)) == len(_names), "two cases share a name"
