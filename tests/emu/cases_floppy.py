"""Every floppy a 386 or 486 boots from, each in a drive of its kind.

build/apmoff.img (1.44 MB), apmoff-1200.img, apmoff-720.img and apmoff-360.img
(iso/floppy.mk), each booted by apmoff's loader (loader/). A drive answers INT 13h
AH=08h with its own largest format; the loader reads with the disk's own geometry,
from its BPB, so a 9-sector disk in a drive of 15, 18 or 36 sectors a track (where
GRUB's floppies once looped, "GRUB GRUB ...") boots like any other. QEMU's drive kind
is -global floppy.drive-type=120 (5.25" 1.2 MB), 144 (3.5" 1.44 MB) or 288 (3.5"
2.88 MB); Bochs makes drive A: of the image's kind; the 86Box boards run their own
BIOSes with the CMOS drive type they were set up with.

Rows only; the columns are tests/emu/case.py's. The shipped images (their menu
counts down 5 s) on QEMU and 86Box, the automation twins on Bochs.
"""

from tests.emu import cases_86box
from tests.emu.case import Case
from tests.emu.judges import ScreenHasText, SurveyMatches, TextScreenShows

OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)$"
NO_APM = r"^apmoff: halted: no APM BIOS$"
# The panel's Next line, wrapped where the screen's width cuts it.
NEXT_386 = (r"^apmoff: summary:  Next    : .*on a 386, APM needs a\s+(?:apmoff: summary:\s+)?"
            r"386SL or a 386SX with SMM$")
T86 = 150


def drive(kind):
    return ["-global", "floppy.drive-type=%d" % kind]


CASES = [
    # QEMU (SeaBIOS): each image in a drive of its kind, and the 9-sector ones also in
    # the larger drives that read them. The 720 KB one in a 1.44 MB drive is the case
    # that looped with the 1.44 MB image's layout.
    Case("qemu-floppy-1440-in-144", "qemu", "seabios", "pc", "floppy", "", "poweroff", 40,
         extra=drive(144), last_line=OFF_RM),
    Case("qemu-floppy-1200-in-120", "qemu", "seabios", "pc", "floppy-1200", "", "poweroff",
         40, extra=drive(120), last_line=OFF_RM),
    Case("qemu-floppy-720-in-144", "qemu", "seabios", "pc", "floppy-720", "", "poweroff", 40,
         extra=drive(144), last_line=OFF_RM),
    Case("qemu-floppy-720-in-288", "qemu", "seabios", "pc", "floppy-720", "", "poweroff", 40,
         extra=drive(288), last_line=OFF_RM),
    Case("qemu-floppy-360-in-120", "qemu", "seabios", "pc", "floppy-360", "", "poweroff", 40,
         extra=drive(120), last_line=OFF_RM),
    # The loader takes the geometry from the disk: a 1.44 MB disk in a 2.88 MB drive
    # (18 sectors a track on the disk, 36 by AH=08h) boots too.
    Case("qemu-floppy-1440-in-288", "qemu", "seabios", "pc", "floppy", "", "poweroff", 40,
         extra=drive(288), last_line=OFF_RM),
    # QEMU's 486 with 4 MB: the 360 KB image in a 1.2 MB drive, on a small machine.
    Case("qemu-486-4m-floppy-360-in-120", "qemu", "seabios", "pc", "floppy-360", "",
         "poweroff", 40, extra=drive(120) + ["-cpu", "486", "-m", "4"], last_line=OFF_RM),
    # Bochs' own BIOS, the automation images: a drive of the image's own kind.
    Case("bochs-rombios-auto-floppy-1200", "bochs", "bochs", "-", "floppy-1200", "",
         "poweroff", 60, loader="auto", last_line=OFF_RM),
    Case("bochs-rombios-auto-floppy-720", "bochs", "bochs", "-", "floppy-720", "",
         "poweroff", 60, loader="auto", last_line=OFF_RM),
    Case("bochs-rombios-auto-floppy-360", "bochs", "bochs", "-", "floppy-360", "",
         "poweroff", 60, loader="auto", last_line=OFF_RM),
    # 86Box, real BIOSes, no key press. The AMI 386's drive A: is 5.25" 1.2 MB (its
    # setup defaults): the 1.2 MB image, and a 360 KB disk in that drive (15 sectors
    # a track by AH=08h, 9 on the disk). No SMM on an i386DX: no APM BIOS, and the
    # advice names the 386 parts that have one.
    Case("86box-ami386-525-floppy-1200", "86box", "ami", "ami386-525", "floppy-1200", "",
         "halt", T86, serial=[r"^apmoff: cpu: 386 class \(no CPUID\)$", NEXT_386],
         last_line=NO_APM,
         judges=[SurveyMatches({"cpu.class": "386", "bios.date": "08/08/93"}), ScreenHasText()]),
    Case("86box-ami386-525-floppy-360", "86box", "ami", "ami386-525", "floppy-360", "",
         "halt", T86, serial=[r"^apmoff: cpu: 386 class \(no CPUID\)$", NEXT_386],
         last_line=NO_APM,
         judges=[SurveyMatches({"cpu.class": "386", "bios.date": "08/08/93"}), ScreenHasText()]),
    # The Award 386 with a 3.5" 720 KB drive A: (tests/emu/box86.py DERIVED: the drive
    # in 86box.cfg, CMOS byte 10h = 30h, checksum fixed).
    Case("86box-386-award495-720-floppy-720", "86box", "award", "386-award495-720",
         "floppy-720", "", "halt", T86,
         serial=[r"^apmoff: cpu: 386 class \(no CPUID\)$", NEXT_386],
         last_line=NO_APM,
         judges=[SurveyMatches({"cpu.class": "386", "bios.date": "09/10/93"}), ScreenHasText()]),
]

# docs/real-bioses.md's table names these machines' hardware (tests/emu/board_table.py).
cases_86box.BOARDS.update({
    "ami386-525": ("ECS Panda 386V", "ALi M1429 (ISA)", "i386DX-33, no FPU"),
    "386-award495-720": ("U-Board 386, 720 KB drive", "OPTi 495SLC (ISA)",
                         "i386DX-33, no FPU"),
})

# --- the floppy loader (loader/) on its own --------------------------------------
# QEMU's 486 (no TSC) with 4 MB, every format and its automation image: on pc the
# default entry powers off; on isapc SeaBIOS takes the APM call and hangs (no ACPI
# hardware to act on), right after the kernel's last line.
from tests.emu.judges import TextScreenShows       # noqa: E402
from tests.emu.qemu import KeyAfter                 # noqa: E402

OLD_486 = ["-cpu", "486", "-m", "4"]
LOADER_START = r"^apmoff loader: version "
KERNEL_BOOTED = r'^apmoff: boot: multiboot 1, loader "apmoff loader '
for size, kind in (("", 144), ("-1200", 120), ("-720", 144), ("-360", 120)):
    fmt = size[1:] or "1440"
    CASES += [
        Case("qemu-486-floppy-%s" % fmt, "qemu", "seabios", "pc", "floppy" + size, "",
             "poweroff", 40, loader="auto", extra=drive(kind) + OLD_486,
             serial=[LOADER_START, KERNEL_BOOTED], last_line=OFF_RM),
        Case("qemu-isapc-486-floppy-%s" % fmt, "qemu", "seabios", "isapc", "floppy" + size,
             "", "hang", 40, loader="auto", extra=drive(kind) + OLD_486,
             serial=[LOADER_START, KERNEL_BOOTED], hang_after=OFF_RM),
    ]
CASES += [
    Case("bochs-rombios-auto-floppy-1440", "bochs", "bochs", "-", "floppy", "", "poweroff",
         60, loader="auto", serial=[LOADER_START, KERNEL_BOOTED], last_line=OFF_RM),
    # A disk cut short in the kernel file, and a kernel that is no multiboot kernel:
    # each named on the screen and on COM1, and the machine halts (no reset loop).
    Case("qemu-floppy-truncated", "qemu", "seabios", "pc", "floppy", "", "loader-halt", 30,
         image="truncated", extra=drive(144),
         last_line=r"^apmoff loader: halted: /boot/apmoff\.lz4 is not what lz4 wrote \(a "
                   r"damaged or cut-short file\)",
         judges=[TextScreenShows([r"halted: /boot/apmoff\.lz4 is not what lz4 wrote"])]),
    Case("qemu-floppy-not-multiboot", "qemu", "seabios", "pc", "floppy", "", "loader-halt",
         30, image="not-multiboot", extra=drive(144),
         last_line=r"^apmoff loader: halted: /boot/apmoff\.lz4: it is not a multiboot "
                   r"kernel: no multiboot header in its first 8 KiB$",
         judges=[TextScreenShows([r"halted: /boot/apmoff\.lz4: it is not a multiboot"])]),
    # An entry whose words, with the kernel's path, pass the kernel's 1023 bytes: the
    # loader says so instead of handing over a command line the kernel must refuse.
    Case("qemu-floppy-words-too-long", "qemu", "seabios", "pc", "floppy",
         "action=off label=" + "x" * 1000, "loader-halt", 30, extra=drive(144),
         last_line=r"^apmoff loader: halted: entry 1's words and the kernel's path make a "
                   r"1034-byte command line; the kernel takes at most 1023$"),
    # The shipped menu, as a person uses it: a key stops the countdown, Down three times
    # picks the conformance check, Enter boots it; the screen shows the menu.
    Case("qemu-floppy-menu-keys", "qemu", "seabios", "pc", "floppy", "", "halt", 40,
         extra=drive(144),
         actions=[KeyAfter(r"^apmoff loader: booting 1 in 5 s; any key stops the countdown",
                           0.5, keys=["down", "down", "down", "ret"])],
         serial=[r"^apmoff loader: countdown stopped$",
                 r"^apmoff loader: > 4 apmoff [\d.]+: APM conformance check",
                 r'^apmoff: boot: command line "/boot/apmoff\.lz4 action=check"$'],
         last_line=r"^apmoff: halted: check complete"),
    # e edits the entry's words before it boots: a label typed on the keyboard.
    Case("qemu-floppy-menu-edit", "qemu", "seabios", "pc", "floppy", "", "poweroff", 40,
         extra=drive(144),
         actions=[KeyAfter(r"^apmoff loader: booting 1 in 5 s", 0.5,
                           keys=["e", "spc", "l", "a", "b", "e", "l", "equal", "x", "ret"])],
         serial=[r"^apmoff loader: edit the words of 1 \(Enter boots, Esc cancels\):",
                 r'^apmoff: boot: command line "/boot/apmoff\.lz4 action=off label=x"$',
                 r"^apmoff: label: x$"],
         last_line=OFF_RM),
    # The menu as the screen shows it while the countdown runs (read from VGA memory).
    Case("qemu-floppy-menu-screen", "qemu", "seabios", "pc", "floppy", "", "hang", 40,
         extra=drive(144),
         actions=[KeyAfter(r"^apmoff loader: booting 1 in 5 s", 0.5, keys=["esc"])],
         hang_after=r"^apmoff loader: countdown stopped$",
         judges=[TextScreenShows([r"^ apmoff [\d.]+ loader",
                                  r"^ 1 apmoff [\d.]+: power off through APM",
                                  r"^15 apmoff [\d.]+: power off through UEFI ResetSystem",
                                  r"Enter boots it, e edits its words",
                                  r"The countdown is stopped\."])]),
]


# A line of the menu file the loader does not know (`titel oops`, a person's typo in
# DOS's EDIT): named on COM1 and on the menu's own screen, which holds without a
# countdown until a person picks (0.3 named it on COM1 only, and the menu cleared the
# screen).
CASES += [
    Case("qemu-pc-floppy-bad-menu", "qemu", "seabios", "pc", "floppy", "", "hang", 20,
         image="bad-menu",
         hang_after=r"^apmoff loader: +\d+ ",
         serial=[r"^apmoff loader: /boot/menu\.cfg, line \d+: not a statement \(timeout "
                 r"default kernel title words\); the line is left out"],
         serial_absent=[r"booting \d+ in \d+ s"],
         judges=[TextScreenShows([r"MENU\.CFG line \d+ left out: not a statement \(timeout "
                                  r"default kernel title words\)"])]),
]
