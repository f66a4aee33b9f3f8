"""A machine's stored result, OUT/results/NAME.json: what sweep.py found, typed.
sweep.py fills a Result and write() stores it; read() brings one back for the
report (cli.py, report.py, chipsets.py, judge.refresh) and for the sweep's "already
judged" test, so no reader spells a JSON key.

The JSON keys are the fields' names (but CpuSeen's "86box"), as before these classes
existed, so a results directory of an older sweep still loads: a key a file lacks, or
holds null for, reads as its field's default, as the readers' .get() did, and a key
no field names is ignored. What the kernel printed stays as it came (Result.survey,
the survey JSON that apmoff-collect's derived.py reads).
"""

import json
import os
from dataclasses import dataclass, field, fields, is_dataclass

RESULT_VERSION = 1      # the result file's layout


def optional(**kw):
    """A key written only when it has a value: a boot's `then` or `refused` is set
    when there is one, and older readers took its absence for none."""
    return field(default=None, metadata={"optional": True}, **kw)


def of(kind, many=False, key=None, optional=False, **kw):
    """A field holding a dataclass, or a list of them (many), read back as such; key:
    its JSON key, where that is no Python name; optional: as optional()."""
    meta = {"kind": kind, "many": many, "optional": optional}
    if key:
        meta["key"] = key
    return field(metadata=meta, **kw)


@dataclass
class Verdict:
    """judge.judge()'s verdict of the last boot (judge.py names the reason kinds)."""
    emulator: str = ""              # 86Box's (judge.EMULATOR_VERDICTS, or exit:N)
    reached_kernel: bool = False
    kernel_last: str = ""           # the kernel's last line, "apmoff: " cut
    outcome: str = ""               # "off via rm", ..., or "not reached"
    reason_kind: str = ""           # why not reached: no-rom, prompt, fault, ...
    reason: str = ""
    screenshot: str = None          # OUT-relative picture of the last screen


@dataclass
class ApmSeen:
    """APM as the kernel's own lines told it, where no survey did (judge.apm_seen)."""
    present: bool = False
    version: str = optional()       # "1.2", when present


@dataclass
class RanCpu:
    """The CPU 86Box ran, from the config it wrote back (config.ran_cpu)."""
    family: str = ""                # "i486dx2_slenh"
    speed: int = 0                  # Hz
    multi: float = 0.0
    name: str = ""                  # "i486DX2-S 66"


@dataclass
class CpuSeen:
    """The CPU from evidence: 86Box's, and the kernel's words for it (judge.cpu_seen)."""
    box86: RanCpu = of(RanCpu, key="86box", default=None)
    apmoff: str = None


@dataclass
class RunKey:
    """What a result is valid for (sweep.Settings.key): the image booted, the 86Box
    build, the options; a result with the same key is not run again."""
    image: str = ""
    binary: str = ""
    options: str = ""


@dataclass
class RunConfig:
    """What the sweep asked 86Box for (config.Choice); a no-ROM result has the floppy
    alone."""
    cpu_family: str = None
    cpu_speed: int = None
    ram_kb: int = None
    video: str = None
    floppy: str = ""


@dataclass
class ScreenRecord:
    """A screen the watcher read during a boot, and the keys it pressed there."""
    at: float = 0.0                 # seconds into the boot
    rule: str = ""                  # prompts.py's rule that matched, or ""
    text: str = ""
    keys: list = field(default_factory=list)
    picture: str = optional()       # OUT-relative, for the first sweep.SCREENS_KEPT


@dataclass
class BootRecord:
    """One boot of a machine (sweep.boot_once)."""
    n: int = 0
    verdict: str = ""               # 86Box's, as Verdict.emulator
    seconds: float = 0.0
    floppy: str = ""
    fresh_cmos: bool = False
    cmos_drive_was: int = None      # drive A:'s CMOS type before the sweep set it
    first_com1: float = None        # seconds to COM1's first byte
    first_kernel: float = None      # seconds to the kernel's first line
    stopped_at: str = ""
    markers: list = field(default_factory=list)     # 86Box's, repeats counted
    patched: bool = False
    keys: list = field(default_factory=list)        # "F1 (f1-continue)"
    screens: list = of(ScreenRecord, many=True, default_factory=list)
    then: str = optional()          # why another boot followed
    final_screenshot: str = optional()
    final_screen: list = optional()  # the last screen's lines, when the kernel never ran
    refused: str = optional()       # sweep.refused_by()
    cpu: RanCpu = of(RanCpu, optional=True, default=None)
    cpu_note: str = optional()      # 86Box ran another family than the one asked for


@dataclass
class MethodTry:
    """One more boot of a machine whose first run reached the kernel, asking one
    power-off method alone (sweep.methods_to_ask says which and why)."""
    method: str = ""                # "acpi", "chipset": as method= spells it
    why: str = ""                   # what in the first run's survey asked for it
    verdict: Verdict = of(Verdict, default=None)
    seconds: float = 0.0
    com1_log: str = None            # OUT-relative


@dataclass
class DumpTry:
    """One more boot with action=dump (apmoff-sweep --dumps): the firmware read back by
    apmoff-collect's reader, its files in OUT/dumps/NAME/, and whether the ROM dump is
    the ROM set's file as 86Box maps it (tools/apmoff_collect/romfile.py)."""
    emulator: str = ""              # 86Box's verdict: exit:43 when the dump completed
    seconds: float = 0.0
    blocks: int = 0                 # blocks read back whole
    bad: list = field(default_factory=list)     # blocks a lost or damaged line spoilt
    bytes: int = 0                  # in the whole blocks
    files: str = None               # OUT-relative directory of the files
    rom: str = ""                   # the comparison with the ROM file, in words
    rom_equal: bool = None          # None: nothing to compare (no rom block or file)
    rom_differing: int = 0          # bytes that differ
    rom_compared: int = 0           # bytes compared
    rom_ranges: list = field(default_factory=list)  # "1C000h-1DFFFh": where it differs
    com1_log: str = None            # OUT-relative


# Keys of a machine that was booted: a no-ROM result has none of them, not even null.
BOOTED = ("com1_log", "cpu", "faults", "finished", "apm_seen")


@dataclass
class Result:
    """One machine: 86Box's table entry, its boots, and what they showed."""
    version: int = RESULT_VERSION
    machine: str = ""               # 86Box's internal name
    name: str = ""
    board: str = ""
    type: str = ""
    chipset86: str = ""             # 86Box's chipset
    flags: list = field(default_factory=list)       # 86Box's: APM, ACPI, video ...
    buses: list = field(default_factory=list)
    bios_variant: str = ""
    type_rank: int = 0              # the machine type's place in 86Box's table: the era
    boots: list = of(BootRecord, many=True, default_factory=list)
    survey: dict = None             # the kernel's survey JSON, as it came
    interfaces: dict = field(default_factory=dict)  # judge.interfaces()
    disagreements: list = field(default_factory=list)   # judge.disagreements()
    seconds: float = 0.0
    verdict: Verdict = of(Verdict, default=None)
    key: RunKey = of(RunKey, default=None)
    config: RunConfig = of(RunConfig, default=None)
    com1_log: str = None            # OUT-relative
    cpu: CpuSeen = of(CpuSeen, default=None)
    faults: list = field(default_factory=list)      # 86Box's fault trace, not reached
    finished: str = None
    apm_seen: ApmSeen = of(ApmSeen, default=None)
    methods: list = of(MethodTry, many=True, default_factory=list)
    dump: DumpTry = of(DumpTry, optional=True, default=None)

    def to_json(self):
        """The JSON object write() stores, in the layout the sweep has always written."""
        out = encode(self)
        if not self.methods:        # an older sweep's layout, to the byte
            out.pop("methods")
        if not self.boots:          # never booted (no ROM): as no_rom_result wrote it
            for key in BOOTED:
                out.pop(key)
            out["config"] = {"floppy": self.config.floppy if self.config else ""}
        return out


# --- the writer and the reader ---------------------------------------------------------

def json_key(f):
    return f.metadata.get("key", f.name)


def encode(obj):
    """A dataclass as the JSON object stored: nested ones as objects, an optional
    field without a value left out."""
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if value is None and f.metadata.get("optional"):
            continue
        if is_dataclass(value):
            value = encode(value)
        elif isinstance(value, list) and f.metadata.get("kind"):
            value = [encode(x) for x in value]
        out[json_key(f)] = value
    return out


def decode(kind, raw):
    """A `kind` from its stored JSON object; see the module's note on missing keys."""
    values = {}
    for f in fields(kind):
        value = raw.get(json_key(f))
        nested = f.metadata.get("kind")
        if nested and f.metadata["many"]:
            value = [decode(nested, x) for x in value if isinstance(x, dict)] \
                if isinstance(value, list) else None
        elif nested:
            value = decode(nested, value) if isinstance(value, dict) else None
        if value is not None:
            values[f.name] = value
    return kind(**values)


def path_of(out, machine):
    return os.path.join(out, "results", machine + ".json")


def write(out, result):
    """Stores a result in OUT/results/, whole or not at all (a sweep interrupted while
    it writes leaves the last one)."""
    path = path_of(out, result.machine)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(result.to_json(), f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def read(path):
    """The Result stored at path, or None when it is unreadable or no result's JSON.
    Its version is the file's (None without one): sweep.load_result checks it."""
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict):
        return None
    result = decode(Result, raw)
    result.version = raw.get("version")
    return result
