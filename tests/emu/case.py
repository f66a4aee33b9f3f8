"""The schema of the case table: a Case is one row (where to boot, with what, what
must happen), a Run what one boot of it left to judge, a Result the row's outcome.

Anything a case checks beyond its verdict and serial lines is a judge object on the
row (tests/emu/judges.py), and anything it does to the running guest an action
(tests/emu/qemu.py: NmiAfter, KeyAfter); both are Probes, which the runners call at
fixed points, so a new kind of check is a new class, not a new column.
"""

import os
from dataclasses import dataclass, field

# Facts only the whole survey reads (app/facts/survey.h): a power-off or a reset that
# reads only what its method needs must not say them.
SURVEY_ONLY = [r"^apmoff: bios: ROM E0000h-FFFFFh CRC-32", r"^apmoff: smbios:",
               r"^apmoff: disks:", r"^apmoff: video:"]


class Probe:
    """A judge or an action on a case. Each hook has a default that does nothing."""
    groups = ()                     # the -g groups a case with this probe is in
    screenshot = False              # 86Box: save a picture of the screen at the end

    def qemu_args(self, workdir):
        """QEMU: more command-line arguments for the run in workdir."""
        return []

    def qemu_poll(self, run):
        """Each turn of the QEMU loop (run.qmp and run.watch are live)."""

    def qemu_end(self, run):
        """After the verdict, while QEMU still answers QMP."""

    def bochs_commands(self, run):
        """Bochs debugger commands for the whole run, or None (the default ones)."""
        return None

    def problems(self, run):
        """What is wrong with the finished run: [] when nothing is."""
        return []


@dataclass
class Case:
    """One row of the table: where to boot, with what, and what must happen."""
    name: str
    emulator: str                   # "qemu", "bochs", "86box" or "dosbox-x"
    bios: str                       # "seabios", "bochs" (Bochs' own rombios), "ovmf"
                                    # (x86_64 UEFI), "ovmf32" (ia32 UEFI), "qboot", or
                                    # the board's BIOS vendor in 86Box ("award"),
                                    # "dosbox-x" (DOSBox-X's own)
    machine: str                    # QEMU -M value; "-" for Bochs; for 86Box a machine
                                    # directory of the kit (tests/emu/box86.py)
    medium: str                     # "iso", "kernel" (QEMU -kernel), "floppy" (1.44 MB;
                                    # "floppy-1200", "-720", "-360": the other formats),
                                    # "usb" (the ISO as a raw disk), or "hdd" (86Box:
                                    # the ISO written to an IDE disk)
    options: str                    # kernel command line ("" = the shipped menu default)
    expect: str                     # "poweroff", "halt", "hang", "reset", "exit:N", or
                                    # "loader-halt" (the floppy loader stopped, its
                                    # line last: last_line is matched against it)
    timeout: float                  # wall-clock seconds for the whole run
    serial: list = field(default_factory=list)          # regexes that must match
    serial_absent: list = field(default_factory=list)   # regexes that must not match
    last_line: str = ""             # regex the last "apmoff: " line must match
    hang_after: str = ""            # for "hang": the line after which nothing happens
    judges: list = field(default_factory=list)          # tests/emu/judges.py objects
    actions: list = field(default_factory=list)         # QEMU: NmiAfter, KeyAfter
    extra: list = field(default_factory=list)           # more emulator arguments;
                                    # DOSBox-X: settings, "cpu.apmbios version=1.0"
    megs: int = 32                  # Bochs' and DOSBox-X's memory
    loader: str = ""                # ISO media: "" GRUB's multiboot (the shipped menu),
                                    # "grub-mb2" GRUB's multiboot2 on a BIOS machine,
                                    # "syslinux" ISOLINUX's mboot.c32; ISO and floppy:
                                    # "auto", the shipped automation image (no countdown)
    image: str = ""                 # floppy: a broken image for the loader to name
                                    # (tests/emu/images.py special_image): "truncated",
                                    # ...; QEMU -kernel: "other-hash", the kernel with
                                    # another commit's hash
                                    # "not-multiboot"
    rom: str = ""                   # QEMU: an emulated APM BIOS of tests/biosrom/ (its
                                    # behaviour's name), run as an option ROM at POST
    retry_if: str = ""              # QEMU: run once more when the kernel never spoke and
                                    # the screen left by the firmware or loader matches
                                    # this (a host-side transport hiccup, not apmoff)
    groups: list = field(default_factory=list)          # more -g groups (the topic)

    def probes(self):
        return self.actions + self.judges

    def all_groups(self):
        """The -g groups of this case: its emulator, firmware kind, medium, what it
        asks the kernel to do, its probes' groups and its topic."""
        found = [self.emulator, self.medium]
        if self.bios in ("ovmf", "ovmf32"):
            found.append("uefi")
        if self.rom:
            found.append("biosrom")
        if "action=survey" in self.options:
            found.append("survey")
        if "action=check" in self.options:
            found.append("check")
        if "bioscall=v86" in self.options or "v86test=" in self.options:
            found.append("v86")
        for p in self.probes():
            found += p.groups
        found += self.groups
        return list(dict.fromkeys(found))


@dataclass
class Run:
    """One boot of a case as the probes see it."""
    case: Case
    workdir: str
    verdict: str = ""
    serial: str = ""
    qmp: object = None              # QEMU: the live QMP connection
    watch: object = None            # the SerialWatch of the run
    deadline: float = 0.0
    state: dict = field(default_factory=dict)   # what a probe keeps between its hooks

    def mine(self, probe, **initial):
        """The state dict of one probe in this run."""
        return self.state.setdefault(id(probe), dict(initial))

    def path(self, name):
        return os.path.join(self.workdir, name)


@dataclass
class Result:
    case: Case
    verdict: str                    # what the emulator showed ("quiet": nothing, and
                                    # the guest's serial log said it was done)
    passed: bool                    # (False when skipped)
    seconds: float
    problems: list
    serial: str
    skipped: str = ""               # why the case could not run here
    retried: str = ""               # the first attempt's screen line that earned a rerun
