"""The emulator test cases: one row each. Later features add rows, not harnesses.

Columns: name, emulator, BIOS, machine, medium, kernel options ("" = the shipped
ISO's default menu entry), expected verdict, timeout in seconds, then what the
serial log must show.
"""

from harness import Case

INSTALL_CHECK = r"^apmoff: rm: 5300h installation check"
APM_FOUND = r"^apmoff: APM 1\.2 BIOS, signature PM"
OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"

CASES = [
    # --- walking skeleton: real-mode power-off --------------------------------
    Case("qemu-pc-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("qemu-q35-iso", "qemu", "seabios", "q35", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("qemu-pc-kernel", "qemu", "seabios", "pc", "kernel", "action=off", "poweroff", 20,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-rombios-iso", "bochs", "bochs", "-", "iso", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-seabios-iso", "bochs", "seabios", "-", "iso", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    # SeaBIOS accepts 5307h and then spins in cli/hlt where there is no ACPI.
    Case("qemu-isapc-hang", "qemu", "seabios", "isapc", "kernel", "", "hang", 20,
         serial=[INSTALL_CHECK], hang_after=OFF_RM),
    Case("qemu-pc-noacpi-hang", "qemu", "seabios", "pc,acpi=off", "kernel", "", "hang", 20,
         serial=[INSTALL_CHECK], hang_after=OFF_RM),
    # action=survey: the report, no power-off call, and a halted line.
    Case("qemu-pc-survey", "qemu", "seabios", "pc", "kernel", "action=survey", "halt", 20,
         serial=[INSTALL_CHECK, APM_FOUND, r"^apmoff: power: AC line",
                 r"^apmoff: rm: 5304h interface disconnect"],
         serial_absent=[r"powering off", r"5307h"],
         last_line=r"^apmoff: halted: survey complete"),
    Case("bochs-rombios-survey", "bochs", "bochs", "-", "iso", "action=survey", "halt", 60,
         serial=[INSTALL_CHECK, APM_FOUND], serial_absent=[r"powering off"],
         last_line=r"^apmoff: halted: survey complete"),
    # Bad input: an unknown option and a bad value are reported, defaults are used.
    Case("qemu-pc-bad-options", "qemu", "seabios", "pc", "kernel",
         "colour=blue action=explode", "poweroff", 20,
         serial=[r"^apmoff: warning: unknown option 'colour'.*options: action",
                 r"^apmoff: warning: action=explode is not valid \(choices: off, survey\); "
                 r"using action=off", OFF_RM]),
]
