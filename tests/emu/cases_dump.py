"""action=dump against the truth: the flash QEMU maps below 4 GiB equals the SeaBIOS
image it was given, byte for byte, on pc and q35, and Bochs' its rombios image (the
F-segment each maps is shadow RAM its BIOS writes tables into at POST: the kernel's
count of the bytes that differ must be the blocks'); the ACPI tables go through
acpixtract and iasl -d; a machine without PCI dumps what it has and says why not
the flash; dump,off powers off after the dump."""

from tests.emu.case import Case
from tests.emu.dumpjudge import DumpAgrees

SEABIOS_256K = "/usr/share/seabios/bios-256k.bin"
ROMBIOS = "/usr/share/bochs/BIOS-bochs-latest"
DONE = r"^apmoff: halted: dump complete \(action=dump\); exit code 21 \(onfail=exit\)$"
PLAN = r"^apmoff: dump: \d+ blocks, \d+ bytes, about \d+ s at 115200 baud$"
PRIVACY = r"^apmoff: dump: note: the SMBIOS table and a ROM may hold serial numbers"
FLASH_256K = r"^apmoff: dump: block \d+: rom at FFFC0000h, 262144 bytes: the BIOS's flash"

CASES = [
    Case("qemu-pc-dump", "qemu", "seabios", "pc", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PLAN, PRIVACY, FLASH_256K], last_line=DONE,
         extra=["-bios", SEABIOS_256K], judges=[DumpAgrees(flash=SEABIOS_256K)]),
    Case("qemu-q35-dump", "qemu", "seabios", "q35", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PLAN, PRIVACY, FLASH_256K], last_line=DONE,
         extra=["-bios", SEABIOS_256K], judges=[DumpAgrees(flash=SEABIOS_256K)]),
    # No PCI: the flash is not probed (a bus before PCI may wrap at 16 MiB), nor ACPI.
    Case("qemu-isapc-dump", "qemu", "seabios", "isapc", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PLAN, r"^apmoff: dump: the flash below 4 GiB: not probed: "
                                      r"no PCI"],
         serial_absent=[r"^apmoff: dump: block \d+: rom at FF"], last_line=DONE,
         judges=[DumpAgrees(acpi=False)]),
    Case("qemu-pc-dump-off", "qemu", "seabios", "pc", "kernel", "action=dump,off", "poweroff",
         60, serial=[PLAN, r"^apmoff: dump: done: \d+ blocks$", r"powering off via rm"]),
    Case("bochs-rombios-dump", "bochs", "bochs", "-", "iso", "action=dump", "halt", 240,
         serial=[PLAN], last_line=r"^apmoff: halted: dump complete \(action=dump\)",
         judges=[DumpAgrees(flash=ROMBIOS, acpi=False)]),
]
