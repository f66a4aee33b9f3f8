"""One 86Box configuration per machine: a CPU family of the board's socket, RAM in its
range, a video card for its bus (or its own), a floppy drive A: with the image that
fits it, COM1 to a file, no mouse (this 86Box segfaults on a config without
`mouse_type`).

The choices, and why:
- CPU: a family, never a model: which model a board takes is 86Box's to decide when
  it loads the config, and the sweep does not second-guess it. The family is one of
  the board's own socket (its package shares a bit with the machine's, in the two
  tables' data): an SL-enhanced one first, because an Award 486 BIOS offers no APM
  without SMM (the kit's 486sp3c-dx2 against -dx2s) and APM is what is surveyed; else
  the first in cpu_table.c, which lists a socket's families oldest first. Either
  must have a model the board takes by 86Box's own rules (cpu_is_eligible: its bus
  clock, voltage and multiplier within the board's): a 5 V Socket 3 board refuses the
  3.3 V Am486DX2 (Enhanced), and 86Box then ran its default, a 486SX without SMM, so
  the i486SX-S is asked for there. With it a
  low cpu_speed (0, or the family's SPEED_FLOOR) and no cpu_multi: 86Box runs the
  first model of the family it accepts on the board at that speed or above, the
  slowest as the table is ordered, since 86Box emulates in real time on a shared
  host. A family 86Box does not accept on the board it replaces with its own first
  choice, and a board with no family of its socket gets 86Box's default CPU.
  What ran is read afterwards, never computed: the config 86Box writes back when it
  starts (ran_cpu) and the kernel's survey (judge.cpu_seen).
- FPU: not written: 86Box's default for the model (none beside a 386, the 486DX's
  own).
- RAM: 16 MB, brought into the board's range and onto its step: enough for GRUB and
  the kernel, a short memory test in POST.
- Video: the board's own when it has one (MACHINE_VIDEO); otherwise a Cirrus Logic
  card for the bus, whose BIOSes are in the ROM set and whose fonts screen.py reads.
- Floppy: 3.5" 1.44 MB from the PCI era on, 5.25" 1.2 MB before it (the drive 1993
  BIOSes default to: the kit's Award 4.50 and AMI 386 boards), 360 KB on a PC/XT's
  8-bit bus; the sweep then
  follows what the BIOS's own defaults put in the CMOS (sweep.py).
"""

from dataclasses import dataclass

from .resultfile import RanCpu

# A family of these is asked for first on a board whose socket has one: SL-enhanced
# 486s, with SMM (cpu_table.c's internal names end so).
SMM_SUFFIX = "_slenh"

# The families whose slowest models in 86Box's table are only underclocked settings
# (a 66 MHz Pentium II at x1.0) that no board shipped with, and a BIOS's CPU tables
# may not know: the speed asked for, Hz. 86Box runs the first model at or above it.
SPEED_FLOOR = {"pentiumpro": 150000000, "pentium2_klamath": 233333333,
               "pentium2_xeon": 400000000, "celeron_mendocino": 300000000}

TARGET_RAM_KB = 16 * 1024

# Video cards by bus (86Box's internal names, src/video/vid_cl54xx.c).
VIDEO_PCI = "cl_gd5446_migrated_pci"     # its default BIOS: roms/video/cirruslogic/5446bv.vbi
VIDEO_ISA = "cl_gd5428_isa"              # roms/video/cirruslogic/5428.bin
VIDEO_MCA = "ibm1mbsvga"                 # Cirrus Logic GD5428 (MCA)
VIDEO_INTERNAL = "internal"

# Floppy drives (86Box's names, src/floppy/fdd.c) with the image of their medium and
# the AT CMOS type of drive A: (byte 10h, high nibble).
FLOPPY_35 = "35_2hd"
FLOPPY_525 = "525_2hd"
FLOPPY_360 = "525_2dd"
DRIVES = {FLOPPY_35: dict(image="apmoff-auto.img", cmos=4, text='3.5" 1.44 MB'),
          FLOPPY_525: dict(image="apmoff-auto-1200.img", cmos=2, text='5.25" 1.2 MB'),
          FLOPPY_360: dict(image="apmoff-auto-360.img", cmos=1, text='5.25" 360 KB')}
CMOS_TYPE_DRIVE = {4: FLOPPY_35, 2: FLOPPY_525, 1: FLOPPY_360}
OTHER_DRIVE = {FLOPPY_35: FLOPPY_525, FLOPPY_525: FLOPPY_35}   # when one boots nothing

# Any of these makes a machine more than a PC/XT (table.BUS_NAMES).
WIDER_BUSES = ("ISA16", "EISA", "MCA", "VLB", "OLB", "PCI", "AGP", "PCMCIA")

# Machine types from this one on (in the enum's order) are the PCI era.
FIRST_35_TYPE = "MACHINE_TYPE_SOCKET3_PCI"


@dataclass
class Choice:
    family: str         # the family asked for (cpu_table.c's internal name), or None
    family_name: str
    speed: int          # cpu_speed asked for, Hz: the floor of 86Box's choice
    ram_kb: int
    video: str
    floppy: str

    def cpu_text(self):
        if not self.family:
            return "86Box's default CPU"
        return "family %s%s" % (self.family_name, ", %d MHz or more" % round(self.speed / 1e6)
                                if self.speed else "")

    def describe(self):
        return "%s, %d MB, %s, %s" % (self.cpu_text(), self.ram_kb // 1024, self.video,
                                      DRIVES[self.floppy]["text"])


def socket_families(table, machine):
    """The families whose package shares a bit with the board's, in the table's order."""
    return [f for f in table.families if f.package & machine.package]


def takes(machine, cpu, remapped=False):
    """Whether 86Box lets the board run this model: src/cpu/cpu.c's cpu_is_eligible
    without its block lists and its Socket 7 multiplier remapping (a family it then
    refuses is still reported: sweep.py's cpu_note). `remapped`: a Socket 5/7 family,
    whose multipliers 86Box maps to jumper settings first: not checked here."""
    lim = machine.cpu_limits
    tolerance = 840907          # Hz, cpu.c's (for the 8086's 4.77 MHz)
    bus = cpu.rspeed / cpu.multi if cpu.multi else cpu.rspeed
    if lim.get("min_bus") and bus < lim["min_bus"] - tolerance or \
            lim.get("max_bus") and bus > lim["max_bus"] + tolerance:
        return False
    if lim.get("min_voltage") and cpu.voltage < lim["min_voltage"] - 100 or \
            lim.get("max_voltage") and cpu.voltage > lim["max_voltage"] + 100:
        return False
    if cpu.fixed_multi or remapped:
        return True
    return cpu.multi >= (lim.get("min_multi") or 0) and \
        not (lim.get("max_multi") and cpu.multi > lim["max_multi"])


def eligible(table, machine, family):
    socket57 = table.symbols.values.get("CPU_PKG_SOCKET5_7", 0)
    remapped = bool(isinstance(socket57, int) and family.package & socket57)
    return any(takes(machine, c, remapped) for c in family.cpus)


def implied_families(table, machine):
    """The families a Socket 3 board also takes in 86Box (cpu.c: Socket 1's, the 5 V
    486s), in the table's order."""
    socket3 = table.symbols.values.get("CPU_PKG_SOCKET3", 0)
    socket1 = table.symbols.values.get("CPU_PKG_SOCKET1", 0)
    if not (isinstance(socket3, int) and isinstance(socket1, int) and
            machine.package & socket3):
        return []
    own = socket_families(table, machine)
    return [f for f in table.families if f.package & socket1 and f not in own]


def choose_family(table, machine):
    """The family asked for, or None: SL-enhanced first, the socket's own before those
    it implies, then the oldest; the first of them with a model the board takes."""
    own = socket_families(table, machine)
    implied = implied_families(table, machine)
    smm = [f for f in own + implied if f.internal.endswith(SMM_SUFFIX)]
    for f in smm + own + implied:
        if eligible(table, machine, f):
            return f
    return (smm or own or [None])[0]


def choose_ram(machine, target=TARGET_RAM_KB):
    lo, hi, step = machine.ram_min, machine.ram_max, machine.ram_step
    ram = max(lo, min(target, hi)) if hi else max(lo, target)
    if step and step > 0 and ram > lo:
        ram = lo + (ram - lo) // step * step
    return ram


def choose_video(machine):
    if machine.builtin_video:
        return VIDEO_INTERNAL
    if machine.has_bus("PCI") and not machine.has_flag("PCI-internal"):
        return VIDEO_PCI
    if machine.has_bus("ISA"):
        return VIDEO_ISA
    if machine.has_bus("MCA"):
        return VIDEO_MCA
    return VIDEO_PCI if machine.has_bus("PCI") else VIDEO_ISA


def era_floppy(table, machine):
    # A PC/XT's bus is 8-bit ISA alone, and its BIOS reads double density alone: an XT
    # with a 386 on a card (Intel's Inboard) still boots a 360 KB disk or its ROM BASIC.
    if machine.has_bus("ISA") and not any(machine.has_bus(b) for b in WIDER_BUSES):
        return FLOPPY_360
    first = table.symbols.values.get(FIRST_35_TYPE)
    # IBM's Micro Channel PS/2s had 3.5" drives alone, from the first in 1987.
    if isinstance(first, int) and machine.type_rank < first and \
            not machine.has_bus("PCI") and not machine.has_bus("MCA"):
        return FLOPPY_525
    return FLOPPY_35


def choose(table, machine, floppy=None):
    family = choose_family(table, machine)
    return Choice(family=family.internal if family else None,
                  family_name=family.name if family else "",
                  speed=SPEED_FLOOR.get(family.internal, 0) if family else 0,
                  ram_kb=choose_ram(machine), video=choose_video(machine),
                  floppy=floppy or era_floppy(table, machine))


def render(machine, choice, image, com1):
    """The 86box.cfg text. `image` is written write-protected (wp://): 86Box never
    changes it."""
    return "\n".join([
        "[General]",
        "confirm_exit = 0",
        "confirm_reset = 0",
        "confirm_save = 0",
        "sound_muted = 1",
        "",
        "[Machine]",
        "machine = %s" % machine.internal,
    ] + (["cpu_family = %s" % choice.family,
          "cpu_speed = %d" % choice.speed] if choice.family else []) + [
        "cpu_use_dynarec = 1",
        "mem_size = %d" % choice.ram_kb,
        "",
        "[Input devices]",
        "mouse_type = none",
        "",
        "[Video]",
        "gfxcard = %s" % choice.video,
        "",
        "[Floppy and CD-ROM drives]",
        "fdd_01_type = %s" % choice.floppy,
    ] + (["fdd_01_fn = wp://%s" % image] if image else []) + [
        # A sweep judges the BIOS, not the drive's timing: turbo reads the kernel in a
        # fraction of a second instead of 4-6, a tenth of a machine's boot.
        "fdd_01_turbo = 1",
        "fdd_02_type = none",
        "fdd_sounds_enabled = 0",
        "",
        "[Ports (COM & LPT)]",
        "serial1_enabled = 1",
        "serial1_device = file",
        "",
        "[File (COM) #1]",
        "path = %s" % com1,
        "",
        # 86Box's own way out with a code, for onfail=exit (as QEMU's isa-debug-exit).
        "[Other peripherals]",
        "unittester_enabled = 1",
        "",
    ])


def read_back(text):
    """{(section, key): value} of a config 86Box wrote back, to see what it changed."""
    out, section = {}, ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif "=" in line:
            key, value = line.split("=", 1)
            out[(section, key.strip())] = value.strip()
    return out


def ran_cpu(table, back):
    """The CPU 86Box ran, as the config it wrote back names it (86Box rewrites the
    whole config once it has loaded it, with the family, speed and multiplier it
    chose), the model named from the family's table, as a resultfile.RanCpu (its name
    "i486DX2-S 66"); or None when it wrote none."""
    family = back.get(("Machine", "cpu_family"))
    if not family:
        return None
    try:
        speed = int(back.get(("Machine", "cpu_speed")) or 0)
        multi = float(back.get(("Machine", "cpu_multi")) or 0)
    except ValueError:
        speed, multi = 0, 0.0
    f = table.family(family)
    model = next((c.name for c in f.cpus if c.rspeed == speed
                  and abs(c.multi - multi) < 0.001), None) if f else None
    return RanCpu(family=family, speed=speed, multi=multi,
                  name="%s %s" % (f.name if f else family,
                                  model or "%.1f MHz" % (speed / 1e6)))
