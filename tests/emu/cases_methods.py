"""Power-off methods (method=): ACPI S5 beside APM, judged by the emulator's own
power-off (QEMU's guest-shutdown, Bochs' "ACPI control: soft power off"), the
machine without ACPI that must say so, and a chain from APM to ACPI."""

from tests.emu.case import Case

OFF_ACPI = (r"^apmoff: powering off via acpi \(S5: PM1a_CNT [0-9A-F]{4}h, SLP_TYPa \d+"
            r"(, PM1b_CNT [0-9A-F]{4}h, SLP_TYPb \d+)?\)$")
S5_FOUND = r"^apmoff: acpi: \\_S5_ in the (DSDT|SSDT \d+): SLP_TYPa \d+, SLP_TYPb \d+$"
NO_APM_CALL = r"^apmoff: rm: 5300h"     # method=acpi asks the APM BIOS nothing

CASES = [
    # --- method=acpi: S5 through PM1a_CNT, after SMI_CMD switched to ACPI mode ---------
    Case("qemu-pc-acpi", "qemu", "seabios", "pc", "kernel", "method=acpi", "poweroff", 20,
         serial=[S5_FOUND, r"^apmoff: acpi: SCI_EN is clear: writing ACPI_ENABLE F1h to "
                 r"SMI_CMD B2h", r"^apmoff: acpi: SCI_EN set after \d+ ms"],
         serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
    Case("qemu-q35-acpi", "qemu", "seabios", "q35", "kernel", "method=acpi", "poweroff", 20,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
    Case("qemu-pc-acpi-iso", "qemu", "seabios", "pc", "iso", "method=acpi", "poweroff", 30,
         serial=[S5_FOUND, r"^apmoff: options: .*method=acpi"], last_line=OFF_ACPI),
    Case("bochs-seabios-acpi", "bochs", "seabios", "-", "iso", "method=acpi", "poweroff", 60,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
    Case("bochs-rombios-acpi", "bochs", "bochs", "-", "iso", "method=acpi", "poweroff", 60,
         serial=[S5_FOUND], serial_absent=[NO_APM_CALL], last_line=OFF_ACPI),
]
