"""action=dump against the truth: the flash QEMU maps below 4 GiB equals the SeaBIOS
image it was given, byte for byte, on pc and q35, and Bochs' its rombios image (the
F-segment each maps is shadow RAM its BIOS writes tables into at POST: the kernel's
count of the bytes that differ must be the blocks'); the ACPI tables go through
acpixtract and iasl -d; a machine without PCI dumps what it has and says why not
the flash; dump,off powers off after the dump."""

import os

from tests.emu import box86
from tests.emu.case import Case
from tests.emu.dumpjudge import DumpAgrees, DumpPrivate
from tests.emu.judges import TextScreenShows

SEABIOS_256K = "/usr/share/seabios/bios-256k.bin"
ROMBIOS = "/usr/share/bochs/BIOS-bochs-latest"
DONE = r"^apmoff: halted: dump complete \(action=dump\); exit code 21 \(onfail=exit\)$"
PLAN = r"^apmoff: dump: \d+ blocks, \d+ bytes, about \d+ s at 115200 baud$"
PRIVACY = r"^apmoff: dump: note: the SMBIOS table and a ROM may hold serial numbers"
FLASH_256K = r"^apmoff: dump: block \d+: rom at FFFC0000h, 262144 bytes: the BIOS's flash"
# SeaBIOS's entry points, after the blocks: both APM interfaces and the PCI BIOS's
# 32-bit service through the BIOS32 directory, each in the F-segment it dumped.
ENTRIES = [r"^apmoff: dump: entry: APM 1\.2, flags 0003h: INT 15h",
           r"^apmoff: dump: entry: APM pm32: entry F000h:[0-9A-F]{4}h \(F[0-9A-F]{4}h\); "
           r"code32 F000h",
           r"^apmoff: dump: entry: APM pm16: entry F000h:[0-9A-F]{4}h \(F[0-9A-F]{4}h\)",
           r"^apmoff: dump: entry: PCI BIOS 2\.10: INT 1Ah AX=B1xxh; 32-bit service \$PCI: "
           r"entry 000F[0-9A-F]{4}h, in 000F0000h"]

CASES = [
    Case("qemu-pc-dump", "qemu", "seabios", "pc", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PLAN, PRIVACY, FLASH_256K] + ENTRIES, last_line=DONE,
         extra=["-bios", SEABIOS_256K], judges=[DumpAgrees(flash=SEABIOS_256K)]),
    # Without onfail=exit the machine stays on: what the screen shows at the end.
    Case("qemu-q35-dump", "qemu", "seabios", "q35", "kernel", "action=dump", "halt", 60,
         serial=[PLAN, PRIVACY, FLASH_256K],
         last_line=r"^apmoff: halted: dump complete \(action=dump\)$",
         extra=["-bios", SEABIOS_256K],
         judges=[DumpAgrees(flash=SEABIOS_256K), TextScreenShows([
             r"^ Result  : dump complete \(action=dump\)$",
             r"^ Next    : keep the COM1 log: tools/apmoff-collect dump turns it into files$",
             r"^apmoff: halted: dump complete \(action=dump\)$"])]),
    # No PCI: the flash is not probed (a bus before PCI may wrap at 16 MiB), nor ACPI.
    Case("qemu-isapc-dump", "qemu", "seabios", "isapc", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PLAN, r"^apmoff: dump: the flash below 4 GiB: not probed: "
                                      r"no PCI"],
         serial_absent=[r"^apmoff: dump: block \d+: rom at FF"], last_line=DONE,
         judges=[DumpAgrees(acpi=False)]),
    # What the dump may carry and the report must not: QEMU's SMBIOS given serial
    # numbers, asset tags and a UUID (stored with its first three fields
    # little-endian), found in the table and in the F-segment that holds it.
    Case("qemu-pc-dump-private", "qemu", "seabios", "pc", "kernel", "action=dump onfail=exit",
         "exit:43", 60, serial=[PRIVACY], last_line=DONE,
         extra=["-smbios", "type=1,serial=SYS-SERIAL-4711,"
                "uuid=12345678-9abc-def0-1122-334455667788",
                "-smbios", "type=2,serial=BOARD-SN-0815,asset=BOARD-ASSET-42",
                "-smbios", "type=3,serial=CHASSIS-SN-99,asset=CHASSIS-TAG-7"],
         judges=[DumpPrivate({"system serial number": b"SYS-SERIAL-4711",
                              "system UUID": bytes.fromhex(
                                  "78563412bc9af0de1122334455667788"),
                              "board serial number": b"BOARD-SN-0815",
                              "board asset tag": b"BOARD-ASSET-42",
                              "chassis serial number": b"CHASSIS-SN-99",
                              "chassis asset tag": b"CHASSIS-TAG-7"})]),
    Case("qemu-pc-dump-off", "qemu", "seabios", "pc", "kernel", "action=dump,off", "poweroff",
         60, serial=[PLAN, r"^apmoff: dump: done: \d+ blocks$", r"powering off via rm"]),
    Case("bochs-rombios-dump", "bochs", "bochs", "-", "iso", "action=dump", "halt", 240,
         serial=[PLAN], last_line=r"^apmoff: halted: dump complete \(action=dump\)",
         judges=[DumpAgrees(flash=ROMBIOS, acpi=False)]),
]

# The 86Box kit's boards on their own BIOS ROMs (skipped without 86Box): the dump
# against the ROM file 86Box was given, as it maps it. On the boards with PCI the
# flash below 4 GiB is the file but for the two 4 KiB parameter blocks of the 28F001BX-T
# (1C000h-1DFFFh; 86Box's intel_flash.c, DATA1 and DATA2), where Award's BIOS writes
# its ESCD and DMI data at POST. The ISA boards are not probed below 4 GiB; their
# F-segment is the file's last 64 KiB as the BIOS left its shadow RAM.
PARAMETER_BLOCKS = (0x1C000, 0x2000)
BOX_T = 300
for machine, medium, rom, writes, differing in (
        ("tx97", "floppy", "tx97/0112.001", PARAMETER_BLOCKS, None),
        ("p55t2p4", "floppy", "p55t2p4/0207_j2.bin", PARAMETER_BLOCKS, None),
        ("ficva503p", "floppy", "ficva503p/je4333.bin", PARAMETER_BLOCKS, None),
        ("486sp3c-dx2s", "floppy", "486sp3c/SI4I0306.AWD", PARAMETER_BLOCKS, None),
        # Award 4.50 zeroes 32 bytes of a copyright string at E955h (RAM for it once
        # shadowed) and changes the byte at FFEEh.
        ("386-award495", "floppy", "award495/opt495s.awa", (0xE000, 0x2000), 33),
        ("ami386-525", "floppy-1200", "ecs386v/PANDA_386V.BIN", None, None)):
    CASES.append(Case("86box-%s-dump" % machine, "86box",
                      "ami" if machine.startswith("ami") else "award", machine, medium,
                      "action=dump onfail=exit", "exit:43", BOX_T, serial=[PLAN, PRIVACY],
                      last_line=DONE,
                      judges=[DumpAgrees(rom=os.path.join(box86.ROMS, "machines", rom),
                                         writes=writes, differing=differing,
                                         acpi=machine == "ficva503p")]))
