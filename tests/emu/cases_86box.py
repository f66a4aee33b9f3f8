"""The 86Box cases: real boards with their original BIOS ROMs (tests/emu/box86.py).

They run when 86Box and its ROMs are found (../shared/86box/ or APMOFF_86BOX*) and
are skipped, with the reason, when not. Each board's CMOS is primed: no key presses.
The unmodified images (options "") boot through the shipped menu; the others through
a copy of it whose first entry carries the options and has no countdown.

BOARDS describes the emulated hardware for docs/real-bioses.md's real-BIOS table;
the outcomes in that table come from these cases' runs (tests/emu/board_table.py).
"""

from tests.emu.box86 import NextBoot
from tests.emu.case import Case
from tests.emu.judges import QrOnFinalScreen, ScreenHasText, SurveyMatches

BOARDS = {
    # kit machine: (board, chipset, CPU as 86Box models it)
    "386-award495": ("U-Board 386", "OPTi 495SLC (ISA)", "i386DX-33, no FPU"),
    "486sp3c-dx2": ("ASUS PVI-486SP3", "SiS 496/497 (PCI)", "i486DX2-66 (no CPUID, no CR4)"),
    "486sp3c-dx2s": ("ASUS PVI-486SP3", "SiS 496/497 (PCI)", "i486DX2-S 66 (SL: SMM, CPUID)"),
    "tx97": ("ASUS TX97", "Intel 430TX / PIIX4", "Pentium 75"),
    "tx97-cd": ("ASUS TX97", "Intel 430TX / PIIX4", "Pentium 75"),
    "p55t2p4": ("ASUS P/I-P55T2P4", "Intel 430HX / PIIX3", "Pentium 75"),
    "ficva503p": ("FIC VA-503+", "VIA MVP3 / VT82C586B", "Pentium MMX 166"),
    "386-award495-ega": ("U-Board 386, IBM EGA", "OPTi 495SLC (ISA)", "i386DX-33, no FPU"),
    "386-award495-mda": ("U-Board 386, IBM MDA", "OPTi 495SLC (ISA)", "i386DX-33, no FPU"),
}

NO_APM = r"^apmoff: halted: no APM BIOS$"
# The kernel's time from entry to the off call, said before the call (its budget,
# a second on the 386, is make bench's to judge, not a test's).
OFF_TIMING = r"^apmoff: timing: entry to power-off call \d+ us$"
ALL_FAILED = r"^apmoff: halted: power-off failed via rm, pm32 and pm16$"
# 86Box runs in real time: POST takes 10-25 s, GRUB and the kernel a few more.
T = 150


def off_via(iface, version="1.2", tail=""):
    return r"^apmoff: powering off via %s \(APM %s\)%s$" % (iface, version.replace(".", r"\."),
                                                            tail)


def failed_via(iface, reason):
    return r"^apmoff: power-off via %s failed: %s" % (iface, reason)


CASES = [
    # No CR4, no CPUID: GRUB's hand-over (iso/grub-no-cr4.py) and the kernel's own
    # CPU detection. Without SMM the Award BIOS offers no APM, and says so.
    Case("86box-486sp3c-dx2-floppy", "86box", "award", "486sp3c-dx2", "floppy", "", "halt", T,
         serial=[r"^apmoff: cpu: 486 class \(no CPUID\)$",
                 r"^apmoff: rm: 5300h failed: error 86h",
                 r'^apmoff: bios: ".*(Award|Copyright)'],
         last_line=NO_APM, judges=[SurveyMatches({"cpu.class": "486", "cpu.vendor": None,
                                                  "bios.date": "06/25/96",
                                                  "pci.mechanism": 1,
                                                  "chipset.soft_off": "no"}),
                                   ScreenHasText()]),
    # The same board from a hard disk (a CF card on an IDE adapter, say, since its BIOS
    # cannot boot a CD): the hybrid ISO written to a disk of its own size, whose last
    # cylinder the BIOS keeps for itself. GRUB's files must lie before it.
    Case("86box-486sp3c-dx2-hdd", "86box", "award", "486sp3c-dx2", "hdd", "", "halt", T,
         serial=[r"^apmoff: cpu: 486 class \(no CPUID\)$", r"^apmoff: boot: multiboot 1,"],
         last_line=NO_APM, judges=[ScreenHasText()]),
    # The 386 board from a 20 MB IDE disk of AT type 2, the drive type set in its CMOS
    # (tests/emu/box86.py): a 1993 BIOS that knows no auto-detection.
    Case("86box-386-award495-hdd", "86box", "award", "386-award495", "hdd", "", "halt", T,
         serial=[r"^apmoff: cpu: 386 class \(no CPUID\)$", r"^apmoff: boot: multiboot 1,"],
         last_line=NO_APM, judges=[ScreenHasText()]),
    # The 386 board's UART is an 8250 without a scratch register: COM1 must still work.
    Case("86box-386-award495-floppy", "86box", "award", "386-award495", "floppy", "", "halt", T,
         serial=[r"^apmoff: cpu: 386 class \(no CPUID\)$", r"^apmoff: cpu: FPU absent",
                 r"^apmoff: serial: COM1 \(3F8h\): 8250 UART",
                 r'^apmoff: bios: ".*Award'],
         last_line=NO_APM, judges=[SurveyMatches({"cpu.class": "386", "cpu.fpu": False,
                                                  "cpu.fpu_kind": "none",
                                                  "cpu.clock_method": "div-loop",
                                                  "bios.date": "09/10/93",
                                                  "pci.mechanism": 0,
                                                  "memory.ext88_kb": 7168,
                                                  "video.adapter": "VGA"}),
                                   ScreenHasText()]),
    # APM 1.1 on an SL-enhanced 486, and no soft-off on the board: every interface
    # answers error 60h and the chain ends with the BIOS's reason.
    Case("86box-486sp3c-dx2s-floppy", "86box", "award", "486sp3c-dx2s", "floppy", "", "halt", T,
         serial=[r"^apmoff: APM 1\.1 BIOS, signature PM",
                 failed_via("rm", r"5307h error 60h"), r"^apmoff: falling back to pm32$",
                 failed_via("pm32", r"5307h error 60h"), r"^apmoff: falling back to pm16$",
                 failed_via("pm16", r"5307h error 60h")],
         last_line=ALL_FAILED, judges=[ScreenHasText()]),
    # PIIX4 soft-off: every interface and the v86 monitor, judged by 86Box. The
    # default entry goes straight to the off call (no survey on the way); survey,off
    # surveys first (the chipset's verdict, the real-BIOS table's BIOS and CPU).
    Case("86box-tx97-floppy", "86box", "award", "tx97", "floppy", "", "poweroff", T,
         serial=[r"^apmoff: APM 1\.2 BIOS, signature PM", OFF_TIMING],
         serial_absent=[r"^apmoff: survey \{"], last_line=off_via("rm")),
    Case("86box-tx97-floppy-pm32", "86box", "award", "tx97", "floppy",
         "action=survey,off wait=0 interface=pm32", "poweroff", T,
         serial=[r"^apmoff: pm32: connected, APM 1\.2 connection",
                 r"^apmoff: chipset: Intel 430TX \(PIIX4\): soft-off yes"],
         last_line=off_via("pm32")),
    Case("86box-tx97-floppy-pm16", "86box", "award", "tx97", "floppy", "interface=pm16",
         "poweroff", T, serial=[r"^apmoff: pm16: connected, APM 1\.2 connection"],
         last_line=off_via("pm16")),
    Case("86box-tx97-floppy-v86", "86box", "award", "tx97", "floppy", "bioscall=v86",
         "poweroff", T, serial=[r"^apmoff: v86 monitor ready"],
         last_line=off_via("rm", tail=r" \(v86\)")),
    # VIA's south bridge with its ACPI function (soft-off), an Award BIOS of 2001 (its
    # survey: the ACPI case, tests/emu/cases_methods.py).
    Case("86box-ficva503p-floppy", "86box", "award", "ficva503p", "floppy", "", "poweroff", T,
         serial=[r"^apmoff: APM 1\.2 BIOS, signature PM", OFF_TIMING],
         last_line=off_via("rm")),
    # method=chipset on real BIOSes: the south bridge's soft-off with the PM I/O base
    # the BIOS set, judged by 86Box's soft-off (PIIX4: type 0; VT82C586B: type 0).
    Case("86box-tx97-chipset", "86box", "award", "tx97", "floppy", "method=chipset",
         "poweroff", T, serial=[r"^apmoff: chipset: PIIX4 PM at 00:[0-9A-F]{2}\.3, PM I/O base "],
         serial_absent=[r"^apmoff: rm: 5300h"],
         last_line=r"^apmoff: powering off via chipset \(PIIX4 PM: .*sleep type 0\)$"),
    Case("86box-ficva503p-chipset", "86box", "award", "ficva503p", "floppy", "method=chipset",
         "poweroff", T, serial=[r"^apmoff: chipset: VT82C586B ACPI at 00:[0-9A-F]{2}\.3, "],
         last_line=r"^apmoff: powering off via chipset \(VT82C586B ACPI: .*sleep type 0\)$"),
    # El Torito from an ATAPI CD-ROM.
    Case("86box-tx97-cd-iso", "86box", "award", "tx97-cd", "iso", "", "poweroff", T,
         serial=[r"^apmoff: APM 1\.2 BIOS, signature PM"], last_line=off_via("rm")),
    # 430HX without soft-off: 5307h succeeds and the machine stays on, on each interface.
    Case("86box-p55t2p4-floppy", "86box", "award", "p55t2p4", "floppy", "", "halt", T,
         serial=[failed_via(i, "5307h returned success but the machine is still on")
                 for i in ("rm", "pm32", "pm16")] + [
                 # ... which the chipset explains, on serial and in the panel's Next line
                 r"^apmoff: chipset: Intel 430HX \(PIIX3\): the PIIX3 south bridge has no "
                 r"soft-off: the BIOS cannot cut the power; expected on this board",
                 r"^apmoff: summary:  Next    : the PIIX3 south bridge has no soft-off"],
         last_line=ALL_FAILED, judges=[ScreenHasText(),
                                       SurveyMatches({"chipset.soft_off": "no"})]),
    # onfail=exit through 86Box's Unit Tester (the harness enables it): 86Box exits with
    # QEMU's isa-debug-exit status, (code << 1) | 1, on a 386 with no APM BIOS and on
    # the 430HX that stays on.
    Case("86box-386-award495-survey-exit", "86box", "award", "386-award495", "floppy",
         "action=survey wait=0 onfail=exit", "exit:5", T,
         serial=[r"^apmoff: survey \{"],
         last_line=r"^apmoff: halted: no APM BIOS; exit code 2 \(onfail=exit\)$"),
    Case("86box-p55t2p4-exit", "86box", "award", "p55t2p4", "floppy", "onfail=exit",
         "exit:3", T, last_line=r"^apmoff: halted: power-off failed via rm, pm32 and pm16; "
         r"exit code 1 \(onfail=exit\)$"),
    # The survey's QR code on the screens a 386 may have, drawn through the board's own
    # video BIOS: an IBM EGA (mode 10h, 640x350: the whole line in one symbol), read
    # back from 86Box's picture; and an IBM MDA, which has no graphics mode at all: the
    # screen says so and the text report stays up.
    Case("86box-386-award495-ega-survey", "86box", "award", "386-award495-ega", "floppy",
         "action=survey wait=key", "hang", T,
         hang_after=r"^apmoff: survey screen: waiting for a key",
         serial=[r"^apmoff: video: EGA, ",
                 r"^apmoff: survey screen: QR code 1/1 of \d+ characters \(APMOFF3, "
                 r"compressed\), (\d+)x\1 modules of [4-9] px, on screen$"],
         judges=[QrOnFinalScreen(), SurveyMatches({"video.adapter": "EGA"})]),
    Case("86box-386-award495-mda-survey", "86box", "award", "386-award495-mda", "floppy",
         "action=survey wait=key", "hang", T,
         hang_after=r"^apmoff: survey screen: waiting for a key",
         serial=[r"^apmoff: video: MDA ",
                 r"^apmoff: survey screen: no graphics mode for a QR code on this adapter "
                 r"\(MDA\); photograph this text report"],
         serial_absent=[r"QR code 1/"],
         judges=[ScreenHasText(), SurveyMatches({"video.adapter": "MDA"})]),
]

# --- action=reboot on real BIOS ROMs: 86Box's own reset markers --------------------------
# A reset is 86Box's "hard reset" or "soft reset" after the guest first wrote to COM1
# (tests/emu/box86.py); a triple fault is its own marker.
def resetting(method, how):
    return r"^apmoff: resetting via %s \(%s\)$" % (method, how)


KBD = resetting("kbd", "8042 command FEh")
# The second boot's record line (a boot's first line is its version).
NEXT_BOOT_RECORD = (r"^apmoff: version .*\n(.*\n)*?apmoff: version .*\n(.*\n)*?"
                    r"apmoff: record: %s")
CASES += [
    # The ISA 386: no PCI (no CF9h, no port 92h known), no ACPI, no UEFI; the 8042 resets.
    Case("86box-386-award495-reset-skips", "86box", "award", "386-award495", "floppy",
         "action=reboot reset=pci,port92,acpi,efi,kbd", "reset", T,
         serial=[r"^apmoff: reset: pci skipped: ISA machine",
                 r"^apmoff: reset: port92 skipped: ISA machine",
                 r"^apmoff: reset: acpi skipped: no ACPI reset register: no RSDP$",
                 r"^apmoff: reset: efi skipped: no UEFI ResetSystem"],
         last_line=KBD),
    # The next boot of the same machine: the 1993 Award BIOS's POST clears memory even
    # after a reset that asked for a warm boot (40:72h = 1234h), so the record the run
    # left at 0C00h is gone, and the next boot says so (QEMU's SeaBIOS and Bochs keep
    # it: tests/emu/cases_reset.py). Seen the same on the kit's Award 486 and 430TX and
    # on the AMI 386, and in extended memory as well.
    Case("86box-386-award495-reset-next-boot", "86box", "award", "386-award495", "floppy",
         "action=reboot reset=kbd", "reset", T,
         judges=[NextBoot(NEXT_BOOT_RECORD % r"(none|the previous run|the one)")],
         serial=[r"^apmoff: record: reset via kbd left at 0C00h for the next boot",
                 NEXT_BOOT_RECORD % r"none at 0C00h \(first boot, "]),
    Case("86box-386-award495-reset-triple", "86box", "award", "386-award495", "floppy",
         "action=reboot reset=triple", "triple-fault", T,
         last_line=resetting("triple", "an empty IDT and INT3: a triple fault")),
    # The 486 (SiS 496/497): the default order; no ACPI, and the 8042 resets.
    Case("86box-486sp3c-dx2s-reboot", "86box", "award", "486sp3c-dx2s", "floppy",
         "action=reboot", "reset", T,
         serial=[r"^apmoff: reset: acpi skipped: no ACPI reset register: no RSDP$"],
         last_line=KBD),
    # The 430TX's default order: no ACPI tables, so the 8042.
    Case("86box-tx97-reboot", "86box", "award", "tx97", "floppy", "action=reboot", "reset",
         T, serial=[r"^apmoff: reset: acpi skipped: no ACPI reset register: no RSDP$"],
         last_line=KBD),
    # PIIX3 (430HX): its CF9h.
    Case("86box-p55t2p4-reset-pci", "86box", "award", "p55t2p4", "floppy",
         "action=reboot reset=pci", "reset", T,
         last_line=resetting("pci", r"reset control register CF9h: 02h, then 06h")),
    # PIIX4: CF9h and port 92h, each alone.
    Case("86box-tx97-reset-pci", "86box", "award", "tx97", "floppy", "action=reboot reset=pci",
         "reset", T,
         last_line=resetting("pci", r"reset control register CF9h: 02h, then 06h")),
    Case("86box-tx97-reset-port92", "86box", "award", "tx97", "floppy",
         "action=reboot reset=port92", "reset", T,
         last_line=resetting("port92", "port 92h fast-reset bit 0")),
]
CASES += [
    # VIA MVP3 with an Award BIOS of 2001 that has ACPI tables, of revision 1: no reset
    # register there; VIA's CF9h is not in the table, its port 92h is, and resets.
    Case("86box-ficva503p-reset-port92", "86box", "award", "ficva503p", "floppy",
         "action=reboot reset=acpi,pci,port92", "reset", T,
         serial=[r"^apmoff: reset: acpi skipped: no ACPI reset register: FADT revision 1$",
                 r"^apmoff: reset: pci skipped: VIA Apollo MVP3 \(VT82C586\): not known to "
                 r"have a reset control register at CF9h$"],
         last_line=resetting("port92", "port 92h fast-reset bit 0")),
    # APM 1.2 on the 430TX: 5310h says the resume timer (and the ring) wakes it from
    # standby and suspend, 5311h takes the time; 86Box's board does not stop there, so
    # the BIOS is back at once with its standby-resume event, the timer still set (and
    # then disabled): the run says something else ended it.
    Case("86box-tx97-standby-wake", "86box", "award", "tx97", "floppy",
         "action=standby wake=10", "halt", T,
         serial=[r"^apmoff: capabilities 003Fh: global standby, global suspend, resume "
                 r"timer from standby, resume timer from suspend, resume on ring from "
                 r"standby, resume on ring from suspend",
                 r"^apmoff: rm: 5311h ok$",
                 r"^apmoff: standby: PM event 000Bh \(system standby resume\)",
                 r"^apmoff: standby: the resume timer is still set for .*: something else "
                 r"ended the standby$"],
         judges=[SurveyMatches({"apm.resume_timer": "standby,suspend",
                                "apm.capabilities": "0x003F"})],
         last_line=r"^apmoff: halted: standby complete"),
]
