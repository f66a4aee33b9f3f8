"""86Box's machine table, read from its source: every machine's internal name, name,
CPU packages, bus, flags (built-in video, APM, ACPI ...), RAM range and the ROM files
its init function loads; and the CPU families of cpu_table.c (package, name, models and
their speeds). This is data only: which CPU of a family a board takes is 86Box's
decision when it loads the config (config.py asks for a family, 86Box picks the model,
and the sweep reports the CPU 86Box wrote back and the kernel saw).

The files read (paths inside the 86Box source):
  src/include/86box/machine.h   bus and flag bits, machine types and chipsets (enums)
  src/cpu/cpu.h                 CPU packages (an enum)
  src/machine/machine_table.c   machines[], machine_types[], machine_chipsets[]
  src/cpu/cpu_table.c           cpu_families[]
  src/machine/m_*.c             each machine's init function: its ROM files
"""

import re
from dataclasses import dataclass, field

from .csource import CError, Init, Symbols, function_body, parse_array, parse_object, \
    string_literals

MACHINE_H = "src/include/86box/machine.h"
CPU_H = "src/cpu/cpu.h"
TABLE_C = "src/machine/machine_table.c"
CPU_TABLE_C = "src/cpu/cpu_table.c"
MACHINE_DIR = "src/machine"

# The bus bits, as 86Box's settings dialog names them.
BUS_NAMES = [("MACHINE_BUS_ISA", "ISA"), ("MACHINE_BUS_ISA16", "ISA16"),
             ("MACHINE_BUS_EISA", "EISA"), ("MACHINE_BUS_MCA", "MCA"),
             ("MACHINE_BUS_VLB", "VLB"), ("MACHINE_BUS_OLB", "OLB"),
             ("MACHINE_BUS_PCI", "PCI"), ("MACHINE_BUS_AGP", "AGP"),
             ("MACHINE_BUS_CBUS", "C-BUS"), ("MACHINE_BUS_PCMCIA", "PCMCIA"),
             ("MACHINE_BUS_PS2_PORTS", "PS/2")]
# The flags the sweep reads or shows (machine.h's MACHINE_* single bits).
FLAG_NAMES = [("MACHINE_VIDEO", "video"), ("MACHINE_VIDEO_ONLY", "video-only"),
              ("MACHINE_APM", "APM"), ("MACHINE_ACPI", "ACPI"),
              ("MACHINE_FDC", "FDC"), ("MACHINE_SOUND", "sound"), ("MACHINE_NIC", "NIC"),
              ("MACHINE_USB", "USB"), ("MACHINE_SCSI", "SCSI"),
              ("MACHINE_PCI_INTERNAL", "PCI-internal"),
              ("MACHINE_SOFTFLOAT_ONLY", "softfloat")]


@dataclass
class CpuModel:
    name: str               # "66"
    rspeed: int             # Hz, as 86Box's config names the model (cpu_speed)
    multi: float            # (cpu_multi)
    voltage: int = 0        # mV
    fixed_multi: bool = False   # CPU_FIXED_MULTIPLIER: any board's jumpers do


@dataclass
class CpuFamily:
    internal: str           # "i486dx2_slenh"
    name: str               # "i486DX2-S"
    manufacturer: str
    package: int
    cpus: list


@dataclass
class Machine:
    internal: str           # "486sp3c"
    name: str               # "[SiS 496] ASUS PVI-486SP3C"
    type: str               # "MACHINE_TYPE_SOCKET3_PCI"
    type_rank: int          # its place in the enum: the era
    type_label: str         # "[1994] Socket 3 (PCI)"
    chipset: str            # "SiS 496"
    init: str               # the init function's name
    package: int
    packages: list          # ["CPU_PKG_SOCKET3"]
    bus_flags: int
    buses: list             # ["ISA", "ISA16", "PCI"]
    flags: int
    flag_names: list        # ["APM", "ACPI", "video"]
    ram_min: int            # KB
    ram_max: int
    ram_step: int
    cpu_limits: dict = field(default_factory=dict)  # min_bus, max_bus (Hz), min_voltage,
                                                    # max_voltage (mV), min_multi, max_multi
    nvrmask: int = 127      # the CMOS bytes it keeps; 0: none (a PC/XT)
    device: str = None      # the machine's own device (BIOS choices), or None
    vid_device: str = None  # the built-in video card's device, or None
    fdc_device: str = None
    aliases: list = field(default_factory=list)
    roms: list = field(default_factory=list)        # files of the BIOS 86Box loads
    bios_default: str = None   # the BIOS variant loaded by default, when it has several
    bios_variants: list = field(default_factory=list)   # [(internal, name, files)]
    line: int = 0

    @property
    def board(self):
        """The name without 86Box's "[chipset]" prefix."""
        return re.sub(r"^\[[^\]]*\]\s*", "", self.name)

    def has_bus(self, name):
        return name in self.buses

    def has_flag(self, name):
        return name in self.flag_names

    @property
    def builtin_video(self):
        return self.has_flag("video") or self.has_flag("video-only")


class Table:
    """The machines and CPU families of one 86Box source."""

    def __init__(self, machines, families, symbols):
        self.machines = machines
        self.families = families
        self.symbols = symbols
        self.by_internal = {m.internal: m for m in machines}
        self.by_family = {f.internal: f for f in families}

    def get(self, internal):
        return self.by_internal.get(internal)

    def family(self, internal):
        return self.by_family.get(internal)


def bits(value, names, symbols):
    out = []
    for const, label in names:
        v = symbols.values.get(const)
        if v is None:
            v = symbols.lookup(const, MACHINE_H)
        if isinstance(v, int) and v and value & v == v:
            out.append(label)
    return out


def package_names(value, symbols):
    """The CPU_PKG_ names of the bits in value, lowest bit first."""
    bits_set = [(v, n) for n, v in symbols.values.items()
                if n.startswith("CPU_PKG_") and isinstance(v, int) and v and value & v == v]
    return [n for v, n in sorted(bits_set)]


def read_filters(text, array, symbols):
    """machine_types[] / machine_chipsets[]: enum value -> the name 86Box shows."""
    out = {}
    for item in parse_array(text, array, symbols, TABLE_C):
        if isinstance(item, Init) and len(item.items) == 2:
            out[item.items[1]] = item.items[0]
    return out


def enum_names(symbols, prefix):
    return {v: n for n, v in symbols.values.items() if n.startswith(prefix)}


def read_families(text, symbols):
    """cpu_families[], in the table's order (a family ends its models with a zero
    cpu_type, the table with a zero package)."""
    families = []
    fixed = number(symbols.lookup("CPU_FIXED_MULTIPLIER", CPU_H))
    for item in parse_array(text, "cpu_families", symbols, CPU_TABLE_C):
        if not isinstance(item, Init) or not item.get("package"):
            continue
        cpus = [CpuModel(name=c.get("name", ""), rspeed=c.get("rspeed", 0) or 0,
                         multi=c.get("multi", 0) or 0, voltage=c.get("voltage", 0) or 0,
                         fixed_multi=bool(number(c.get("cpu_flags")) & fixed))
                for c in (item.get("cpus").items if isinstance(item.get("cpus"), Init)
                          else [])
                if isinstance(c, Init) and c.get("cpu_type")]
        families.append(CpuFamily(internal=item.get("internal_name"), name=item.get("name"),
                                  manufacturer=item.get("manufacturer", ""),
                                  package=item.get("package"), cpus=cpus))
    return families


def read(source, progress=None):
    """The Table of a Source (tools/apmoff_sweep/source.py)."""
    symbols = Symbols()
    symbols.read_header(source.read(CPU_H), CPU_H)
    symbols.read_header(source.read(MACHINE_H), MACHINE_H)
    table_text = source.read(TABLE_C)
    cpu_text = source.read(CPU_TABLE_C)
    types = read_filters(table_text, "machine_types", symbols)
    chipsets = read_filters(table_text, "machine_chipsets", symbols)
    type_names = enum_names(symbols, "MACHINE_TYPE_")
    families = read_families(cpu_text, symbols)
    machine_sources = {name: source.read(MACHINE_DIR + "/" + name)
                       for name in source.listdir(MACHINE_DIR)
                       if name.startswith("m_") and name.endswith(".c")}
    machines = []
    for item in parse_array(table_text, "machines", symbols, TABLE_C):
        if not isinstance(item, Init) or not item.get("internal_name"):
            continue            # the { .init = NULL } end of the table
        machines.append(machine_of(item, symbols, types, chipsets, type_names,
                                   machine_sources))
        if progress:
            progress(len(machines))
    return Table(machines, families, symbols)


CPU_LIMITS = ("min_bus", "max_bus", "min_voltage", "max_voltage", "min_multi", "max_multi")


def number(value):
    """An initializer's value as a number, 0 for what is none (NULL, a symbol unread)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def machine_of(item, symbols, types, chipsets, type_names, machine_sources):
    cpu = item.get("cpu") or Init(0)
    ram = item.get("ram") or Init(0)
    mtype = item.get("type")
    m = Machine(
        internal=item.get("internal_name"), name=item.get("name"),
        type=type_names.get(mtype, str(mtype)), type_rank=mtype if isinstance(mtype, int)
        else -1, type_label=types.get(mtype, ""),
        chipset=chipsets.get(item.get("chipset"), str(item.get("chipset"))),
        init=str(item.get("init") or ""),
        package=cpu.get("package", 0) or 0,
        packages=package_names(cpu.get("package", 0) or 0, symbols),
        bus_flags=item.get("bus_flags", 0) or 0,
        buses=bits(item.get("bus_flags", 0) or 0, BUS_NAMES, symbols),
        flags=item.get("flags", 0) or 0,
        flag_names=bits(item.get("flags", 0) or 0, FLAG_NAMES, symbols),
        ram_min=ram.get("min", 0) or 0, ram_max=ram.get("max", 0) or 0,
        ram_step=ram.get("step", 0) or 0,
        cpu_limits={k: number(cpu.get(k)) for k in CPU_LIMITS},
        nvrmask=item.get("nvrmask") if isinstance(item.get("nvrmask"), int) else 127,
        device=item.get("device"), vid_device=item.get("vid_device"),
        fdc_device=item.get("fdc_device"),
        aliases=[a for a in (item.get("aliases").items if isinstance(item.get("aliases"),
                                                                     Init) else []) if a],
        line=item.line)
    find_roms(m, symbols, machine_sources)
    return m


def find_roms(m, symbols, machine_sources):
    """The ROM files the machine's init function names, and, for a machine whose BIOS
    is a choice of its device (a "bios" setting), the default variant's files."""
    for name, text in machine_sources.items():
        body = function_body(text, m.init) if m.init else None
        if body is None:
            continue
        m.roms = [s for s in string_literals(body) if s.startswith("roms/")]
        if m.device:
            read_bios_choices(m, symbols, machine_sources, name)
        break


def read_bios_choices(m, symbols, machine_sources, first):
    """The "bios" setting of the machine's device: its variants and its default."""
    for name in [first] + sorted(set(machine_sources) - {first}):
        text = machine_sources[name]
        if not re.search(r"\b%s\s*=\s*\{" % re.escape(m.device), text):
            continue
        try:
            dev = parse_object(text, m.device, symbols, name)
            config = dev.get("config") if dev else None
            if not config:
                return
            for setting in parse_array(text, str(config), symbols, name):
                if not isinstance(setting, Init) or setting.get("name") != "bios":
                    continue
                variants = []
                for b in (setting.get("bios").items if isinstance(setting.get("bios"),
                                                                  Init) else []):
                    if isinstance(b, Init) and b.get("internal_name"):
                        files = [f for f in (b.get("files").items if isinstance(
                            b.get("files"), Init) else []) if f]
                        variants.append((b.get("internal_name"), b.get("name", ""), files))
                m.bios_variants = variants
                m.bios_default = setting.get("default_string")
                chosen = [v for v in variants if v[0] == m.bios_default] or variants[:1]
                if chosen:
                    m.roms = chosen[0][2]
                return
        except CError:
            return          # an unreadable device: the ROMs stay the init's literals
        return

