"""UEFI: one hybrid ISO for BIOS and UEFI, from a CD or a USB stick, on x86_64 and
ia32 OVMF; there is no APM there, and the kernel says so and why."""

from tests.emu.case import Case
from tests.emu.judges import ScreenHasText, SurveyMatches

# --- one hybrid ISO for BIOS and UEFI, from a CD or a USB stick -------------------------
UEFI_HALT = r"^apmoff: halted: no APM on UEFI firmware \(no legacy BIOS\)$"
UEFI = dict(serial=[r"^apmoff: firmware: uefi$", r"^apmoff: boot: multiboot 2,",
                    r"^apmoff: efi: firmware \"EDK II\""],
            serial_absent=[r"^apmoff: rm: ", r"real-mode trampoline at"],
            last_line=UEFI_HALT,
            judges=[SurveyMatches({"firmware": "uefi", "multiboot": 2, "smbios.found": True,
                                   "acpi.found": True}), ScreenHasText()])
CASES = [
    Case("qemu64-ovmf-iso", "qemu", "ovmf", "pc", "iso", "", "halt", 90, **UEFI),
    Case("qemu64-ovmf-q35-usb", "qemu", "ovmf", "q35", "usb", "", "halt", 90, **UEFI),
    Case("qemu-ovmf32-iso", "qemu", "ovmf32", "q35,smm=on", "iso", "", "halt", 120, **UEFI),
    # With onfail=exit, "no legacy BIOS" leaves QEMU with (3 << 1) | 1.
    Case("qemu64-ovmf-exit", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         serial=[r"^apmoff: firmware: uefi$"]),
    # Under UEFI, GRUB's "upper" memory figure stops at the first hole (OVMF's ACPI
    # NVS at 8 MiB): the line says so and gives the map's total, instead of a 7 MiB
    # machine with 512 MiB of RAM.
    Case("qemu64-ovmf-memory-line", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         extra=["-m", "512"],
         serial=[r"^apmoff: memory: 640 KiB conventional, 7168 KiB extended up to the first "
                 r"hole at 00800000h \(the map below: 5\d{5} KiB available above 1 MiB\)$"]),
]
