"""The emulator test cases: one row each, in one file a topic. Later features add
rows (and, for a new kind of check, a judge class in judges.py), not harnesses.

Columns (tests/emu/case.py): name, emulator, BIOS, machine, medium, kernel options
("" = the shipped ISO's default menu entry), expected verdict, timeout in seconds,
then what the serial log must show, and the judges for anything more.

Each case is in the group of its topic below, and in the groups its columns imply
(emulator, medium, uefi, biosrom, survey, check, v86, ...):
`python3 -m tests.run_all -l` lists them, `-g GROUP` runs one. The cases of `make
check`, the fast tier, are in the group "quick" as well (QUICK below).
"""

from tests.emu import (cases_86box, cases_aml, cases_biosrom, cases_check, cases_dosboxx,
                       cases_dump,
                       cases_errors, cases_floppy, cases_media, cases_methods,
                       cases_poweroff, cases_reset, cases_screen, cases_survey, cases_uefi,
                       cases_v86, cases_windows)

TOPICS = [
    ("poweroff", cases_poweroff),   # the walking skeleton, forced interfaces, fallbacks
    ("methods", cases_methods),     # method=: ACPI S5 beside APM, chains
    ("reset", cases_reset),         # action=reboot, reset=, the record; wake=
    ("aml", cases_aml),             # method=acpi runs the firmware's AML: \\_PTS(5)
    ("errors", cases_errors),       # bad command lines, CPU exceptions
    ("v86", cases_v86),             # the v86 monitor against the CPU itself
    ("check", cases_check),         # action=check against tests/emu/expect/
    ("survey", cases_survey),       # the JSON line, its QR pages, SMBIOS bytes
    ("dump", cases_dump),           # action=dump against the emulators' own images
    ("media", cases_media),         # floppy, 486 with little memory, automation images
    ("floppy", cases_floppy),       # every PC floppy format, in a drive of its kind
    ("uefi", cases_uefi),           # the hybrid ISO under OVMF
    ("86box", cases_86box),         # real boards and BIOS ROMs (skipped without 86Box)
    ("dosbox-x", cases_dosboxx),    # DOSBox-X's own APM BIOS (skipped without dosbox-x)
    ("screen", cases_screen),       # what a person sees, whichever loader
    ("biosrom", cases_biosrom),     # emulated 1990s APM BIOSes as option ROMs
    ("biosrom", cases_windows),     # ... and the behaviours only real boards show
]

# make check's cases: QEMU's -kernel cases and Bochs' (every method, action and
# interface, the v86 monitor, the emulated BIOSes), and the shipped ISO once through
# GRUB on SeaBIOS and once on UEFI; not the floppies, the media, nor 86Box (the whole
# suite has them). Left out as well, each with its reason, the cases that wait on
# purpose: they take a third of the emulator time of all the rest.
WHOLE_SUITE_ONLY = {
    "qemu-pc-realbios-hang-v86": "waits out the v86 monitor's watchdog on a hung BIOS",
    "qemu-pc-realbios-slowoff-v86": "a BIOS that takes 8 s to power off",
    "qemu-pc-realbios-resume-v86": "a suspend that ends at a key pressed after 8 s",
    "qemu-pc-realbios-resume-rm": "a standby that ends at a key pressed after 8 s",
    "qemu-pc-clock": "times 3 and 17 RTC seconds",
    "qemu-486-clock": "times 3 and 17 RTC seconds",
    "bochs-rombios-clock": "times 3 and 17 RTC seconds",
}
QUICK_ISO = ("qemu-pc-iso", "qemu64-ovmf-exit")


def quick(case):
    if case.name in WHOLE_SUITE_ONLY:
        return False
    return (case.emulator == "qemu" and case.medium == "kernel" or
            case.emulator == "bochs" and case.medium == "iso" or case.name in QUICK_ISO)


CASES = []
for topic, module in TOPICS:
    for case in module.CASES:
        case.groups.append(topic)
        if quick(case):
            case.groups.append("quick")
        CASES.append(case)

_names = [c.name for c in CASES]
assert len(set(_names)) == len(_names), "two cases share a name"
assert set(WHOLE_SUITE_ONLY) | set(QUICK_ISO) <= set(_names), "a tier names no case"
