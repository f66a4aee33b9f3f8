"""UEFI: one hybrid ISO for BIOS and UEFI, from a CD or a USB stick, on x86_64 and
ia32 OVMF; there is no APM there, and the kernel says so and why."""

from tests.emu.case import Case
from tests.emu.cases_methods import OFF_ACPI, S5_FOUND
from tests.emu.judges import ScreenHasText, SurveyMatches

# --- one hybrid ISO for BIOS and UEFI, from a CD or a USB stick -------------------------
# OVMF names itself "EDK II" in Debian 12 and "Debian distribution of EDK II" in 13.
UEFI_HALT = r"^apmoff: halted: no APM on UEFI firmware \(no legacy BIOS\)$"
UEFI = dict(serial=[r"^apmoff: firmware: uefi$", r"^apmoff: boot: multiboot 2,",
                    r"^apmoff: efi: firmware \"(Debian distribution of )?EDK II\""],
            serial_absent=[r"^apmoff: rm: ", r"real-mode trampoline at"],
            last_line=UEFI_HALT,
            judges=[SurveyMatches({"firmware": "uefi", "multiboot": 2, "smbios.found": True,
                                   "acpi.found": True}), ScreenHasText()])
# The shipped ISO as a person boots it on a UEFI machine: after the countdown the
# default entry is the UEFI one (APM is not asked: there is none), and the power goes
# off through ACPI S5.
UEFI_DEFAULT = dict(serial=UEFI["serial"] + [S5_FOUND],
                    serial_absent=UEFI["serial_absent"] + [r"^apmoff: apm: "],
                    last_line=OFF_ACPI)
CASES = [
    Case("qemu64-ovmf-iso", "qemu", "ovmf", "pc", "iso", "", "poweroff", 90, **UEFI_DEFAULT),
    Case("qemu64-ovmf-q35-usb", "qemu", "ovmf", "q35", "usb", "", "poweroff", 90,
         **UEFI_DEFAULT),
    Case("qemu-ovmf32-iso", "qemu", "ovmf32", "q35,smm=on", "iso", "", "poweroff", 120,
         **UEFI_DEFAULT),
    # The first entry (method=apm) on UEFI: no APM, and the kernel says why.
    Case("qemu64-ovmf-apm", "qemu", "ovmf", "pc", "iso", "method=apm", "halt", 90, **UEFI),
    # With onfail=exit, "no legacy BIOS" leaves QEMU with (3 << 1) | 1.
    Case("qemu64-ovmf-exit", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         serial=[r"^apmoff: firmware: uefi$"]),
    # Under UEFI, GRUB's "upper" memory figure stops at the first hole (OVMF's ACPI
    # NVS at 8 MiB): the line says so and gives the map's total, instead of a 7 MiB
    # machine with 512 MiB of RAM.
    Case("qemu64-ovmf-memory-line", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         extra=["-m", "512"],
         serial=[r"^apmoff: memory: 640 KiB conventional, 7168 KiB extended up to the first "
                 r"hole at 00800000h \(the loader's map: 5\d{5} KiB available above 1 MiB\)$"]),
]

# --- method=efi as UEFI 2.x asks: ResetSystem found in a runtime region of the EFI
# memory map; the x64 thunk's own IDT turns a fault or an NMI in the firmware into a
# report, where the CPU would otherwise triple-fault and reset -------------------------
from tests.emu.qemu import NmiAfter   # noqa: E402 (the actions live with the runner)

IN_RUNTIME = r"^apmoff: efi: ResetSystem in runtime services code \(type 5, [0-9A-F]{16}h, \d+ pages\)$"
EFI_MAP = r"^apmoff: efi: memory map: \d+ descriptors, \d+ runtime regions?$"
CASES += [
    Case("qemu64-ovmf-efi-map", "qemu", "ovmf", "pc", "iso", "action=survey wait=0", "halt",
         90, serial=[EFI_MAP, IN_RUNTIME],
         judges=[SurveyMatches({"efi.reset_system": "runtime-code"})]),
    Case("qemu-ovmf32-efi-map", "qemu", "ovmf32", "q35,smm=on", "iso",
         "action=survey wait=0", "halt", 120, serial=[EFI_MAP, IN_RUNTIME],
         judges=[SurveyMatches({"efi.reset_system": "runtime-code"})]),
    # A #UD inside the call: a register dump with the stand-in's RIP, then the halt
    # every CPU exception gets (with onfail=exit, code 4: QEMU's status (4 << 1) | 1).
    Case("qemu64-ovmf-efi-fault", "qemu", "ovmf", "pc", "iso",
         "method=efi inject=efi-fault onfail=exit", "exit:9", 90,
         serial=[r"^apmoff: efi: calling, in ResetSystem's place, UD2 \(inject=efi-fault\) "
                 r"at [0-9A-F]{8}h$",
                 r"^apmoff: efi: CPU exception 6 \(#UD invalid opcode\) in the firmware's "
                 r"ResetSystem, error code 00000000h$",
                 r"^apmoff:   RIP=00000000 [0-9A-F]{8} CS=0010 ",
                 r"^apmoff:   R12="],
         last_line=r"^apmoff: halted: CPU exception 6 \(#UD invalid opcode\) in UEFI ResetSystem "
                   r"at RIP 00000000[0-9A-F]{8}h; exit code 4"),
    # ia32: the call runs on the kernel's own IDT, whose dump is the 32-bit one.
    Case("qemu-ovmf32-efi-fault", "qemu", "ovmf32", "q35,smm=on", "iso",
         "method=efi inject=efi-fault onfail=exit", "exit:9", 120,
         serial=[r"^apmoff: CPU exception 6 \(#UD invalid opcode\)"],
         last_line=r"^apmoff: halted: CPU exception 6 \(#UD invalid opcode\) at 0008:"),
    # An NMI while the firmware runs: counted, the call goes on and returns (and the
    # machine is still on: code 16, status 33).
    Case("qemu64-ovmf-efi-nmi", "qemu", "ovmf", "pc", "iso",
         "method=efi inject=efi-nmi onfail=exit", "exit:33", 90,
         serial=[r"^apmoff: efi: 1 NMI arrived during the call; the firmware went on$",
                 r"^apmoff: efi: ResetSystem returned, status 00000000h"],
         actions=[NmiAfter(r"^apmoff: efi: calling, in ResetSystem's place, a wait for an "
                           r"NMI")]),
]
