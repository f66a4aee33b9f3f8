"""Cases for issue 13: the survey JSON true to docs/survey.md, and the check lists the
kernel ships. (docs/ci.md's emulator CI recipes are run by tests/recipes.py, not here.)

Rows only; the columns are cases.py's (harness.Case).
"""

from harness import Case

# SMBIOS strings with bytes 80h-FFh (QEMU passes the -smbios argument's bytes through;
# "\udcXX" is how Python puts the byte XX into an argument).
LATIN1_VENDOR = "Caf\udce9 \udc80\udcff"

CASES = [
    # Bytes that are not ASCII are kept in the JSON (\u00XX, the byte's value), and
    # shown as '?' on the console line.
    Case("qemu-pc-survey-smbios-bytes", "qemu", "seabios", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:17", 20,
         extra=["-smbios", "type=1,manufacturer=" + LATIN1_VENDOR + ",product=x\x1by"],
         serial=[r'^apmoff: smbios: system "Caf\? \?\?" "x\?y" ',
                 r'"manufacturer":"Caf\\u00e9 \\u0080\\u00ff","product":"x\\u001by"'],
         survey={"smbios.manufacturer": "Caf\u00e9 \u0080\u00ff",
                 "smbios.product": "x\u001by"}),
    # action=survey,off: one survey line, the survey's, with every interface it tried;
    # the power-off chain that follows prints no second one.
    Case("qemu-pc-survey-off-one-line", "qemu", "seabios", "pc", "kernel",
         "action=survey,off wait=0", "poweroff", 20,
         serial=[r"^apmoff: survey \{", r"^apmoff: powering off via rm \(APM 1\.2\)$"],
         serial_absent=[r"(?s)^apmoff: survey \{.*^apmoff: survey \{"],
         survey={"apm.interfaces.rm.tried": True, "apm.interfaces.pm32.tried": True,
                 "apm.interfaces.pm16.tried": True}),
    # cpu.name on a CPU without a brand string (QEMU's 486: CPUID family 4 model 8).
    Case("qemu-486-survey-cpu-name", "qemu", "seabios", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:17", 20, extra=["-cpu", "486"],
         survey={"cpu.class": "cpuid", "cpu.family": 4, "cpu.name": "486DX4"}),
    # QEMU's qboot firmware: no UEFI, and an empty INT 15h vector. The survey says
    # there is no firmware to call, and why; with onfail=exit, code 3 (status 7).
    Case("qemu-qboot-firmware-none", "qemu", "qboot", "pc", "kernel",
         "action=survey wait=0 onfail=exit", "exit:7", 20,
         extra=["-bios", "/usr/share/qemu/qboot.rom"],
         serial=[r"^apmoff: firmware: none \(the INT 15h vector is zero: no legacy BIOS\)$"],
         survey={"firmware": "none",
                 "firmware_reason": "the INT 15h vector is zero: no legacy BIOS"},
         last_line=r"^apmoff: halted: no legacy BIOS: the INT 15h vector is zero"),
    # Under UEFI, GRUB's "upper" memory figure stops at the first hole (OVMF's ACPI
    # NVS at 8 MiB): the line says so and gives the map's total, instead of a 7 MiB
    # machine with 512 MiB of RAM.
    Case("qemu64-ovmf-memory-line", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         extra=["-m", "512"],
         serial=[r"^apmoff: memory: 640 KiB conventional, 7168 KiB extended up to the first "
                 r"hole at 00800000h \(the map below: 5\d{5} KiB available above 1 MiB\)$"]),
    # A verdict that differs from the shipped list is caught: check=strict makes
    # power-state.reserved FAIL where the list (without strict) says SKIP, so a
    # check that fails exactly as before still ends with (6 << 1) | 1.
    Case("qemu-pc-check-strict-differs", "qemu", "seabios", "pc", "kernel",
         "action=check check=strict onfail=exit", "exit:13", 20,
         serial=[r"^apmoff: check: differs: power-state\.reserved: expected SKIP, got FAIL$",
                 r"^apmoff: check \{.*\"expected_list\":\"SeaBIOS 1\.16\.2 \(Debian\)\","
                 r"\"differences\":1,"]),
]
