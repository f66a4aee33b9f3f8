"""action=reboot (reset=, boot=) and what the next boot says of it; standby and suspend
that wake by themselves (wake=).

Each reset is judged by the emulator: QEMU's QMP SHUTDOWN with reason guest-reset
under -no-reboot (then exit status 0), Bochs' log ("cpu software reset", a triple
fault with reset_on_triple_fault=0), 86Box's hard or soft reset markers after the
guest wrote to COM1. Every method a machine has gets a case of its own, and each it
lacks the case that names it skipped with its reason; a method that does nothing
where it is tried ("still running") hands over to the next one. The record a run
leaves in RAM is read by the next boot of the same QEMU (ComesBack: a reset restarts
the machine), through the floppy loader and through GRUB.
"""

from tests.emu.case import SURVEY_ONLY, Case
from tests.emu.judges import BochsLogShows, SurveyMatches
from tests.emu.qemu import ComesBack, KeyAfter

HOW = {
    "kbd": r"8042 command FEh",
    "pci": r"reset control register CF9h: 02h, then 06h",
    "port92": r"port 92h fast-reset bit 0",
    "acpi": r"FADT RESET_REG: [0-9A-F]{2}h to I/O port CF9h",
    "efi": r"UEFI ResetSystem, EfiReset(Warm|Cold)",
    "triple": r"an empty IDT and INT3: a triple fault",
    "bios": r"a jump to F000:FFF0 from real mode",
}


def resetting(method):
    """The contract's line just before the method is made."""
    return r"^apmoff: resetting via %s \(%s\)$" % (method, HOW[method])


def skipped(method, why):
    return r"^apmoff: reset: %s skipped: %s" % (method, why)


def still_running(method):
    return r"^apmoff: reset via %s: still running after 1000 ms$" % method


RECORD_LEFT = r"^apmoff: record: reset via %s left at 0C00h for the next boot to report$"
NO_FADT_RESET = r"no ACPI reset register: FADT revision 1$"
NO_EFI = r"no UEFI ResetSystem: no EFI system table"
T = 30

CASES = []

# --- QEMU pc (i440FX, PIIX3; SeaBIOS's FADT is revision 1): each method it has --------
for method in ("kbd", "pci", "port92", "triple", "bios"):
    CASES.append(Case("qemu-pc-reset-" + method, "qemu", "seabios", "pc", "kernel",
                      "action=reboot reset=" + method, "reset", T,
                      serial=[RECORD_LEFT % method],
                      serial_absent=[r"still running"], last_line=resetting(method)))
CASES += [
    # The default order, Linux's: acpi (none here, said), then the 8042.
    Case("qemu-pc-reboot", "qemu", "seabios", "pc", "kernel", "action=reboot", "reset", T,
         serial=[r"^apmoff: options: .*reset=acpi,kbd,efi,pci,port92,triple boot=warm",
                 skipped("acpi", NO_FADT_RESET),
                 r"^apmoff: reset: boot=warm: 40:72h = 1234h before each method$",
                 r"^apmoff: pci: mechanism #1"],
         serial_absent=SURVEY_ONLY, last_line=resetting("kbd")),
    # What the machine lacks, and nothing else named: nothing is written, the reasons
    # end the run (onfail=exit: code 18, status 37).
    Case("qemu-pc-reset-none-exit", "qemu", "seabios", "pc", "kernel",
         "action=reboot reset=acpi,efi onfail=exit", "exit:37", T,
         serial=[skipped("acpi", NO_FADT_RESET), skipped("efi", NO_EFI),
                 r"^apmoff: summary:  acpi    : skipped: no ACPI reset register: FADT "
                 r"revision 1$"],
         serial_absent=[r"^apmoff: resetting via", r"^apmoff: record: reset"],
         last_line=r"^apmoff: halted: no reset method of the list is here: acpi: no ACPI "
                   r"reset register: FADT revision 1; efi: no UEFI ResetSystem: .*; exit "
                   r"code 18 \(onfail=exit\)$"),
    # A method that does nothing where it is tried: QEMU's pc without its 8042 has no
    # port 92h either (QEMU makes both together), while the PIIX3 it models has one.
    # The 8042 is named absent; port 92h is written, the machine runs on, CF9h resets.
    Case("qemu-pc-noi8042-port92-still-running", "qemu", "seabios", "pc,i8042=off", "kernel",
         "action=reboot reset=kbd,port92,pci", "reset", T,
         serial=[skipped("kbd", r"no 8042: its status port 64h reads FFh$"),
                 resetting("port92"), still_running("port92")],
         last_line=resetting("pci")),
    # ... and when that was the only one: still running, code 17 (status 35), the
    # panel names what each did.
    Case("qemu-pc-noi8042-reset-failed-exit", "qemu", "seabios", "pc,i8042=off", "kernel",
         "action=reboot reset=kbd,port92 onfail=exit", "exit:35", T,
         serial=[still_running("port92"),
                 r"^apmoff: summary:  port92  : still running after 1000 ms \(port 92h "
                 r"fast-reset bit 0\)$",
                 r"^apmoff: summary:  kbd     : skipped: no 8042"],
         last_line=r"^apmoff: halted: reset failed: still running after port92 \(1 "
                   r"skipped\); exit code 17 \(onfail=exit\)$"),
    # boot=cold: 40:72h = 0000h before the method.
    Case("qemu-pc-reset-cold", "qemu", "seabios", "pc", "kernel",
         "action=reboot reset=kbd boot=cold", "reset", T,
         serial=[r"^apmoff: reset: boot=cold: 40:72h = 0000h before each method$"],
         last_line=resetting("kbd")),
]

# --- QEMU q35 (ICH9; its FADT, revision 3, has RESET_REG at CF9h) -----------------------
for method in ("kbd", "pci", "port92", "acpi", "triple", "bios"):
    CASES.append(Case("qemu-q35-reset-" + method, "qemu", "seabios", "q35", "kernel",
                      "action=reboot reset=" + method, "reset", T,
                      serial_absent=[r"still running"], last_line=resetting(method)))
CASES += [
    # The default order's first, the FADT's RESET_REG, read with only the facts it
    # needs (the FADT and the chipset): not the survey's "reset: here:" list.
    Case("qemu-q35-reboot", "qemu", "seabios", "q35", "kernel", "action=reboot", "reset", T,
         serial=[r"^apmoff: chipset: Intel G33/P35 \(ICH9\)"],
         serial_absent=SURVEY_ONLY + [r"^apmoff: reset: here:"], last_line=resetting("acpi")),
]

# --- QEMU isapc (no PCI, no ACPI): the 8042, the triple fault and the BIOS -------------
for method in ("kbd", "triple", "bios"):
    CASES.append(Case("qemu-isapc-reset-" + method, "qemu", "seabios", "isapc", "kernel",
                      "action=reboot reset=" + method, "reset", T,
                      last_line=resetting(method)))
CASES += [
    # Each method an ISA machine lacks, named; then the one it has.
    Case("qemu-isapc-reset-skips", "qemu", "seabios", "isapc", "kernel",
         "action=reboot reset=pci,port92,acpi,efi,kbd", "reset", T,
         serial=[skipped("pci", r"ISA machine: no reset control register at CF9h known "
                         r"here$"),
                 skipped("port92", r"ISA machine: port 92h is not known here \(on some old "
                         r"boards 92h is another device\)$"),
                 skipped("acpi", r"no ACPI reset register: no RSDP$"),
                 skipped("efi", NO_EFI)],
         last_line=resetting("kbd")),
]

# --- the survey and check report the methods, touching nothing -------------------------
CASES += [
    Case("qemu-pc-survey-resets", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", T,
         serial=[r"^apmoff: reset: here: kbd, pci, port92, triple, bios \(8042 status "
                 r"[0-9A-F]{2}h\)$",
                 r"^apmoff: reset: acpi is not: no ACPI reset register: FADT revision 1$"],
         judges=[SurveyMatches({"reset": "kbd,pci,port92,triple,bios", "reset_acpi": None,
                                "apm.resume_timer": "none"})]),
    Case("qemu-q35-check-resets", "qemu", "seabios", "q35", "kernel", "action=check", "halt",
         T, serial=[r"^apmoff: check: reset: acpi: here \(FADT RESET_REG: 0Fh to I/O port "
                    r"CF9h\)$",
                    r"^apmoff: check: reset: efi: no UEFI ResetSystem",
                    r"^apmoff: check: apm: 5310h capabilities 0000h: none",
                    r'^apmoff: check \{.*"reset":"kbd,pci,port92,acpi,triple,bios",'
                    r'"reset_acpi":"io:0CF9=0F"'],
         serial_absent=[r"^apmoff: resetting via"]),
]

# --- the next boot: the record a run left, read through each loader ---------------------
# The first boot is steered to the menu's reboot entry (the seventh: six times Down,
# then Enter); the next one runs the menu's default entry when its countdown ends, and
# says first what the previous run asked and how the machine came back. SeaBIOS
# clears the BDA at POST, so 40:72h cannot tell warm from cold here: RAM kept the
# record, and that is what it says.
CAME_BACK = (r"^apmoff: record: the previous run asked for a reset via %s; the machine came "
             r"back with the record kept in RAM, and POST left 40:72h at 0000h \(1234h was "
             r"asked\): warm or cold cannot be told$")
# and before the power-off that follows, the record stays on the screen to be read.
HOLD = r"^apmoff: record: kept on the screen 10 s before action=%s \(a key goes on now\)$"
TO_REBOOT = ["down"] * 6 + ["ret"]
CASES += [
    Case("qemu-pc-reboot-record-floppy", "qemu", "seabios", "pc", "floppy", "", "poweroff",
         60, actions=[KeyAfter(r"^apmoff loader: booting 1 in 5 s", 0.5, keys=TO_REBOOT)],
         judges=[ComesBack()],
         serial=[r'^apmoff: boot: command line "/boot/apmoff\.lz4 action=reboot"$',
                 RECORD_LEFT % "kbd", resetting("kbd"),
                 CAME_BACK % "kbd",
                 r"^apmoff: record: asked at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, \d+ s ago, \d+ "
                 r"ms into that run, its attempt 1; CMOS shutdown status 00h now$",
                 HOLD % "off"],
         last_line=r"^apmoff: powering off via rm \(APM 1\.2\)$"),
    Case("qemu-pc-reboot-record-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 60,
         actions=[KeyAfter(r"The highlighted entry will be executed automatically", 0.5,
                           keys=TO_REBOOT)],
         judges=[ComesBack()],
         serial=[r'^apmoff: boot: command line "action=reboot"$',
                 CAME_BACK % "kbd", HOLD % "off"],
         last_line=r"^apmoff: powering off via rm \(APM 1\.2\)$"),
]

# --- UEFI: ResetSystem through the firmware (x64 through the long-mode thunk) -----------
CASES += [
    Case("qemu64-ovmf-reset-efi", "qemu", "ovmf", "pc", "iso", "action=reboot reset=efi",
         "reset", 90, last_line=resetting("efi")),
    Case("qemu64-ovmf-reset-efi-cold", "qemu", "ovmf", "q35", "iso",
         "action=reboot reset=efi boot=cold", "reset", 90,
         serial=[r"^apmoff: reset: boot=cold: 40:72h = 0000h before each method \(not "
                 r"written: no legacy BIOS reads it here\)$"],
         last_line=r"^apmoff: resetting via efi \(UEFI ResetSystem, EfiResetCold\)$"),
    Case("qemu-ovmf32-reset-efi", "qemu", "ovmf32", "q35,smm=on", "iso",
         "action=reboot reset=efi", "reset", 120, last_line=resetting("efi")),
    # The default order on UEFI: QEMU's FADT for pc (revision 1) has no reset register,
    # the 8042 resets; q35's (revision 3) has, at CF9h.
    Case("qemu64-ovmf-reboot", "qemu", "ovmf", "pc", "iso", "action=reboot", "reset", 90,
         serial=[skipped("acpi", NO_FADT_RESET)], last_line=resetting("kbd")),
    Case("qemu64-ovmf-q35-reboot", "qemu", "ovmf", "q35", "iso", "action=reboot", "reset", 90,
         last_line=resetting("acpi")),
    # The BIOS's reset entry is not there under UEFI, and said so.
    Case("qemu64-ovmf-reset-bios-exit", "qemu", "ovmf", "pc", "iso",
         "action=reboot reset=bios onfail=exit", "exit:37", 90,
         serial=[skipped("bios", r"no BIOS reset entry: no BIOS calls here$")]),
]

# --- Bochs, its own BIOS (rombios) and SeaBIOS -------------------------------------------
CASES += [
    # The 8042's pulse is a CPU reset that keeps the CPU's MSRs: Bochs' own BIOS then
    # dies in its second POST as after reset=bios below (a triple fault after the
    # reset: the verdict is the first event); CF9h's hard reset clears them, and that
    # POST goes on to boot again.
    Case("bochs-rombios-reset-kbd", "bochs", "bochs", "-", "iso", "action=reboot reset=kbd",
         "reset", 60, last_line=resetting("kbd"),
         judges=[BochsLogShows([r"cpu software reset", r"\[BIOS +\] Starting rombios32",
                                r"WRMSR: IA32_FEATURE_CONTROL_MSR VMX lock bit is set",
                                r"exception with no resolution"])]),
    Case("bochs-rombios-reset-pci", "bochs", "bochs", "-", "iso", "action=reboot reset=pci",
         "reset", 60, last_line=resetting("pci"),
         judges=[BochsLogShows([r"^(?!0{11}i)\d+i\[SYS +\] bx_pc_system_c::Reset\(HARDWARE\)",
                                r"\[BIOS +\] Starting rombios32",
                                r"\[BIOS +\] Booting from"])]),
    Case("bochs-rombios-reset-port92", "bochs", "bochs", "-", "iso",
         "action=reboot reset=port92", "reset", 60, last_line=resetting("port92")),
    # reset_on_triple_fault=0 in the harness's bochsrc: Bochs names the fault itself.
    Case("bochs-rombios-reset-triple", "bochs", "bochs", "-", "iso",
         "action=reboot reset=triple", "triple-fault", 60, last_line=resetting("triple")),
    Case("bochs-seabios-reboot", "bochs", "seabios", "-", "iso", "action=reboot", "reset",
         60, last_line=resetting("kbd")),
]

# --- standby and suspend that end by themselves ------------------------------------------
# SeaBIOS's standby only logs and returns, and its 5310h offers no resume timer: the
# run names that, sets the clock's alarm (and puts it back), and the BIOS is back at
# once. The emulated BIOS ROMs of tests/biosrom/ do what a BIOS without SMM does: halt
# until the resume timer's time (5311h) or the alarm (INT 4Ah, AF) comes, which QEMU's
# clock models; the machine comes back by itself, about wake= seconds later.
AWAY = r"^apmoff: %s: away ([2-5]) s by the clock \(\d\d:\d\d:\d\d to \d\d:\d\d:\d\d\)$"
CASES += [
    Case("qemu-pc-standby-wake-seabios", "qemu", "seabios", "pc", "kernel",
         "action=standby wake=30", "halt", T,
         serial=[r"^apmoff: wake: the APM BIOS's resume timer does not wake it from standby "
                 r"\(5310h: 0000h, nothing\)$",
                 r"^apmoff: wake: the clock's alarm is set for \d\d:\d\d:\d\d ",
                 r"^apmoff: standby: away [01] s by the clock",
                 r"^apmoff: standby: the alarm time had not yet come; the alarm registers "
                 r"and AIE are put back$"],
         last_line=r"^apmoff: halted: standby complete"),
    Case("qemu-pc-realbios-wake-timer", "qemu", "seabios", "pc", "kernel",
         "action=standby wake=3", "halt", 40, rom="timer",
         serial=[r"^apmoff: wake: the APM resume timer wakes the machine from standby "
                 r"\(5310h\); setting it for ",
                 r"^apmoff: rm: 5311h ok$", AWAY % "standby",
                 r"^apmoff: standby: the resume timer is disabled now: it went off"],
         serial_absent=[r"clock's alarm"],
         last_line=r"^apmoff: halted: standby complete"),
    Case("qemu-pc-realbios-wake-alarm", "qemu", "seabios", "pc", "kernel",
         "action=suspend wake=3", "halt", 40, rom="alarm",
         serial=[r"^apmoff: wake: the APM BIOS's resume timer does not wake it from suspend "
                 r"\(5310h: 0003h, global standby, global suspend\)$",
                 AWAY % "suspend",
                 r"^apmoff: suspend: the alarm time had come; the alarm registers and AIE "
                 r"are put back$"],
         last_line=r"^apmoff: halted: suspend complete"),
]

CASES += [
    # Bochs' own BIOS entered at F000:FFF0 without a CPU reset: its POST starts again
    # (rombios32 a second time), writes IA32_FEATURE_CONTROL, whose lock bit its first
    # run set and only a reset clears, and the #GP finds no IDT: a triple fault, which
    # Bochs reports (Bochs 2.7). A CPU reset (kbd, port92, pci) avoids it.
    Case("bochs-rombios-reset-bios", "bochs", "bochs", "-", "iso", "action=reboot reset=bios",
         "triple-fault", 60, last_line=resetting("bios"),
         judges=[BochsLogShows([r"\[BIOS +\] Starting rombios32",
                                r"\[BIOS +\] Starting rombios32",
                                r"WRMSR: IA32_FEATURE_CONTROL_MSR VMX lock bit is set",
                                r"exception with no resolution"])]),
    # SeaBIOS knows its POST has run and resets the machine itself.
    Case("bochs-seabios-reset-bios", "bochs", "seabios", "-", "iso", "action=reboot reset=bios",
         "reset", 60, last_line=resetting("bios")),
]

# The next boot under UEFI: OVMF's reset and GRUB for x86_64 EFI between the two runs.
# GRUB on UEFI highlights the UEFI entry (the last), so Home comes before the steps
# down; the next boot's default entry then powers off through ACPI, after saying what
# it found: nothing, since OVMF's start (its PEI and DXE phases use low memory) does
# not keep 0C00h.
CASES += [
    Case("qemu64-ovmf-reboot-record", "qemu", "ovmf", "q35", "iso", "", "poweroff", 120,
         actions=[KeyAfter(r"The highlighted entry will be executed automatically", 0.5,
                           keys=["home"] + TO_REBOOT)],
         judges=[ComesBack()],
         serial=[r'^apmoff: boot: command line "action=reboot"$', RECORD_LEFT % "acpi",
                 r'^apmoff: boot: command line "action=off method=acpi,efi"$\n(.*\n)*?'
                 r'apmoff: record: none at 0C00h'],
         last_line=r"^apmoff: powering off via acpi "),
]
