"""The emulator test cases: one row each. Later features add rows, not harnesses.

Columns: name, emulator, BIOS, machine, medium, kernel options ("" = the shipped
ISO's default menu entry), expected verdict, timeout in seconds, then what the
serial log must show.
"""

from harness import Case

INSTALL_CHECK = r"^apmoff: rm: 5300h installation check"
APM_FOUND = r"^apmoff: APM 1\.2 BIOS, signature PM"
OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"


def off_via(iface):
    return r"^apmoff: powering off via %s \(APM 1\.2\)$" % iface


# Each forced interface on each emulator and BIOS: both BIOSes offer all three.
FORCED = []

for iface in ("rm", "pm32", "pm16"):
    for name, emulator, bios, machine, medium, timeout in (
            ("qemu-pc", "qemu", "seabios", "pc", "kernel", 20),
            ("qemu-q35", "qemu", "seabios", "q35", "kernel", 20),
            ("bochs-rombios", "bochs", "bochs", "-", "iso", 60),
            ("bochs-seabios", "bochs", "seabios", "-", "iso", 60)):
        FORCED.append(Case("%s-%s" % (name, iface), emulator, bios, machine, medium,
                           "interface=" + iface, "poweroff", timeout,
                           serial=[r"^apmoff: %s: connected, APM 1\.2 connection" % iface],
                           serial_absent=[r"powering off via (?!%s)" % iface],
                           last_line=off_via(iface)))

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
    Case("qemu-pc-survey", "qemu", "seabios", "pc", "kernel", "action=survey wait=0", "halt", 20,
         serial=[INSTALL_CHECK, APM_FOUND, r"^apmoff: power: AC line",
                 r"^apmoff: rm: 5304h interface disconnect"],
         serial_absent=[r"powering off", r"5307h"],
         last_line=r"^apmoff: halted: survey complete"),
    Case("bochs-rombios-survey", "bochs", "bochs", "-", "iso", "action=survey wait=0", "halt", 60,
         serial=[INSTALL_CHECK, APM_FOUND], serial_absent=[r"powering off"],
         last_line=r"^apmoff: halted: survey complete"),
    # Bad input: an unknown option and a bad value are reported, defaults are used.
    # A wrong word never powers a machine off: the errors, then a halt before any
    # APM call (with onfail=exit, code 10: QEMU status 21).
    Case("qemu-pc-bad-options", "qemu", "seabios", "pc", "kernel",
         "colour=blue action=explode", "halt", 20,
         serial=[r"^apmoff: error: unknown option 'colour'.*options: action",
                 r"^apmoff: error: action=explode is not valid \(choices: off, survey, "
                 r"survey,off, check, standby, suspend\)$",
                 r"^apmoff: the command line has 2 errors \(above\); nothing was done$"],
         serial_absent=[r"^apmoff: rm: ", r"powering off"], screen_text=True,
         last_line=r"^apmoff: halted: command line refused$"),
]
for i, words in enumerate(("action=servey", "acton=survey", "ACTION=survey", "action=",
                           "action=survey action=off", "survey")):
    CASES.append(Case("qemu-pc-mistyped-%d" % i, "qemu", "seabios", "pc", "kernel",
                      words + " onfail=exit", "exit:21", 20,
                      serial=[r"^apmoff: error: "],
                      serial_absent=[r"^apmoff: rm: ", r"powering off"]))
CASES += [
    # Longer than the kernel keeps: refused whole, never parsed cut.
    Case("qemu-pc-overlong-cmdline", "qemu", "seabios", "pc", "kernel",
         "onfail=exit " + "wait=5 " * 150 + "action=survey", "exit:21", 20,
         serial=[r"^apmoff: error: the command line is longer than 1023 bytes; it is "
                 r"refused, not cut$"], serial_absent=[r"^apmoff: rm: "]),
]

CASES += FORCED

# --- the v86 monitor (bioscall=v86) ------------------------------------------------
OFF_V86 = r"^apmoff: powering off via rm \(APM 1\.2\) \(v86\)$"
V86_CMP = [r"^apmoff: v86test: PASS INT 15h AX=5300h", r"^apmoff: v86test: PASS INT 12h",
           r"^apmoff: v86test: PASS INT 11h"]
CASES += [
    Case("qemu-pc-v86", "qemu", "seabios", "pc", "kernel", "bioscall=v86", "poweroff", 20,
         serial=[r"^apmoff: v86 monitor ready", OFF_V86]),
    Case("qemu-q35-v86", "qemu", "seabios", "q35", "kernel", "bioscall=v86", "poweroff", 20,
         serial=[r"^apmoff: v86 monitor ready", OFF_V86]),
    Case("bochs-rombios-v86", "bochs", "bochs", "-", "iso", "bioscall=v86", "poweroff", 60,
         serial=[r"^apmoff: v86 monitor ready", OFF_V86]),
    Case("bochs-seabios-v86", "bochs", "seabios", "-", "iso", "bioscall=v86", "poweroff", 60,
         serial=[r"^apmoff: v86 monitor ready", OFF_V86]),
    # A privileged instruction is caught, named with its CS:IP, and the run goes on.
    Case("qemu-pc-v86-movcr0", "qemu", "seabios", "pc", "kernel",
         "bioscall=v86 v86test=movcr0", "poweroff", 20,
         serial=[r"^apmoff: v86: BIOS executed MOV CR0, r32 at [0-9A-F]{4}:[0-9A-F]{4}$",
                 r"^apmoff: v86test: PASS", OFF_V86],
         serial_absent=[r"v86test: FAIL"]),
    Case("qemu-pc-v86-hlt", "qemu", "seabios", "pc", "kernel", "bioscall=v86 v86test=hlt",
         "poweroff", 20,
         serial=[r"^apmoff: v86: BIOS executed HLT with interrupts disabled at "
                 r"[0-9A-F]{4}:[0-9A-F]{4}$", r"^apmoff: v86test: PASS", OFF_V86],
         serial_absent=[r"v86test: FAIL"]),
    Case("bochs-rombios-v86-movcr0", "bochs", "bochs", "-", "iso",
         "bioscall=v86 v86test=movcr0", "poweroff", 60,
         serial=[r"^apmoff: v86: BIOS executed MOV CR0, r32 at", r"^apmoff: v86test: PASS"],
         serial_absent=[r"v86test: FAIL"]),
    # Both paths return the same registers for the same harmless calls.
    Case("qemu-pc-v86-compare", "qemu", "seabios", "pc", "kernel",
         "v86test=compare action=survey wait=0", "halt", 20, serial=V86_CMP,
         serial_absent=[r"v86test: FAIL"], last_line=r"^apmoff: halted: survey complete"),
    Case("bochs-rombios-v86-compare", "bochs", "bochs", "-", "iso",
         "v86test=compare action=survey wait=0", "halt", 60, serial=V86_CMP,
         serial_absent=[r"v86test: FAIL"], last_line=r"^apmoff: halted: survey complete"),
    Case("bochs-seabios-v86-compare", "bochs", "seabios", "-", "iso",
         "v86test=compare action=survey wait=0", "halt", 60, serial=V86_CMP,
         serial_absent=[r"v86test: FAIL"], last_line=r"^apmoff: halted: survey complete"),
    # A BIOS call that turns A20 off: the trampoline turns it back on, the monitor never
    # lets it go off; both say so, and the kernel (above 1 MiB) goes on to power off.
    Case("qemu-pc-a20", "qemu", "seabios", "pc", "kernel", "v86test=a20", "poweroff", 20,
         serial=[r"^apmoff: note: INT 15h left A20 off; it was turned back on",
                 r"^apmoff: v86: the BIOS tried to turn A20 off; it was kept on",
                 r"^apmoff: v86test: PASS: back from the trampoline",
                 r"^apmoff: v86test: PASS: back from the v86 monitor"],
         serial_absent=[r"v86test: FAIL"], last_line=OFF_RM),
    Case("bochs-rombios-a20", "bochs", "bochs", "-", "iso", "v86test=a20", "poweroff", 60,
         serial=[r"^apmoff: note: INT 15h left A20 off; it was turned back on",
                 r"^apmoff: v86: the BIOS tried to turn A20 off; it was kept on",
                 r"^apmoff: v86test: PASS: back from the trampoline",
                 r"^apmoff: v86test: PASS: back from the v86 monitor"],
         serial_absent=[r"v86test: FAIL"]),
    # v86 then the fallback chain: rm (v86) injected to fail, pm32 powers off.
    Case("qemu-pc-v86-fallback-pm32", "qemu", "seabios", "pc", "kernel",
         "bioscall=v86 inject=rm-off", "poweroff", 20,
         serial=[r"^apmoff: falling back to pm32"], last_line=off_via("pm32")),
]

CASES += [
    # --- the fallback chain, proven with injected failures ---------------------
    Case("qemu-pc-fallback-pm32", "qemu", "seabios", "pc", "kernel", "inject=rm-off",
         "poweroff", 20,
         serial=[r"^apmoff: power-off via rm failed: failure injected",
                 r"^apmoff: falling back to pm32"], last_line=off_via("pm32")),
    Case("qemu-pc-fallback-pm16", "qemu", "seabios", "pc", "kernel",
         "inject=rm-off,pm32-off", "poweroff", 20,
         serial=[r"^apmoff: power-off via pm32 failed: failure injected",
                 r"^apmoff: falling back to pm16"], last_line=off_via("pm16")),
    Case("bochs-rombios-fallback-pm16", "bochs", "bochs", "-", "iso",
         "inject=rm-connect,pm32-off", "poweroff", 60,
         serial=[r"^apmoff: power-off via rm failed: connect failure injected",
                 r"^apmoff: falling back to pm16"], last_line=off_via("pm16")),
    # Everything fails: QEMU exits through isa-debug-exit with (1 << 1) | 1.
    Case("qemu-pc-all-fail-exit", "qemu", "seabios", "pc", "kernel",
         "inject=rm-off,pm32-off,pm16-off onfail=exit", "exit:3", 20,
         last_line=r"^apmoff: halted: power-off failed via rm, pm32 and pm16; exit code 1"),
    Case("qemu-pc-irq-on", "qemu", "seabios", "pc", "kernel", "irq=on interface=pm32",
         "poweroff", 20, last_line=off_via("pm32")),
]

# --- action=check: verdicts per BIOS, against tests/emu/expect/ ----------------------
# The kernel ships these lists too (scripts/mkchecklists.py) and says whether the run
# matches the one for its BIOS, chosen by the SMBIOS identity.
SEABIOS_LIST = r"SeaBIOS 1\.16\.2 \(Debian\)"
ROMBIOS_LIST = r"Bochs 2\.7 rombios"


def check_done(bios_list):
    return (r"^apmoff: halted: check complete: 22 passed, 8 failed, 1 skipped; matches the "
            r"expected list for %s$" % bios_list)


CHECK_DONE = check_done(SEABIOS_LIST)
CASES += [
    Case("qemu-pc-check", "qemu", "seabios", "pc", "kernel", "action=check", "halt", 20,
         check_expect="check-seabios.txt", serial=[r"^apmoff: check \{"],
         last_line=CHECK_DONE),
    Case("qemu-q35-check", "qemu", "seabios", "q35", "kernel", "action=check", "halt", 20,
         check_expect="check-seabios.txt", last_line=CHECK_DONE),
    Case("bochs-rombios-check", "bochs", "bochs", "-", "iso", "action=check", "halt", 60,
         check_expect="check-rombios.txt", last_line=check_done(ROMBIOS_LIST)),
    Case("bochs-seabios-check", "bochs", "seabios", "-", "iso", "action=check", "halt", 60,
         check_expect="check-seabios.txt", last_line=CHECK_DONE),
    # With onfail=exit a check whose FAILs are exactly the list's leaves QEMU with
    # (11 << 1) | 1.
    Case("qemu-pc-check-exit", "qemu", "seabios", "pc", "kernel",
         "action=check onfail=exit", "exit:23", 20, check_expect="check-seabios.txt",
         serial=[r"^apmoff: check: matches the expected list for " + SEABIOS_LIST + "$"]),
    # check=strict adds the one call that asks 5307h for a reserved state.
    Case("qemu-pc-check-strict", "qemu", "seabios", "pc", "kernel",
         "action=check check=strict", "halt", 20,
         serial=[r"^apmoff: check FAIL power-state\.reserved \(5307h, APM 1\.0\): expected "
                 r"error 0Ah", r"^apmoff: rm: 5307h set power state \(BX=0001h CX=0010h\)"],
         last_line=r"^apmoff: halted: check complete: 22 passed, 9 failed, 0 skipped; 1 "
                   r"difference from the expected list for " + SEABIOS_LIST + "$"),
    # Standby and suspend: SeaBIOS logs and returns, so the report follows.
    Case("qemu-pc-standby", "qemu", "seabios", "pc", "kernel", "action=standby", "halt", 20,
         serial=[r"^apmoff: requesting standby via rm",
                 r"^apmoff: standby: the BIOS returned after \d+ ms"],
         last_line=r"^apmoff: halted: standby complete"),
    Case("bochs-rombios-suspend", "bochs", "bochs", "-", "iso", "action=suspend", "halt", 60,
         serial=[r"^apmoff: requesting suspend via rm",
                 r"^apmoff: suspend: the BIOS returned"],
         last_line=r"^apmoff: halted: suspend complete"),
]

# --- the survey: JSON on serial, the same JSON as a QR code on screen ----------------
SURVEY_DONE = r"^apmoff: halted: survey complete"
CASES += [
    # QMP screendump of the QR screen, decoded by zbarimg, must equal the JSON line;
    # then a key press (QMP send-key) returns to text mode and the run ends.
    # The line is cut into numbered pages of at most version 22, modules of 4 px or
    # more: each page is read back from its screenshot and from degraded copies of it
    # (half size, blurred, turned 5 degrees, keystoned, JPEG at quality 40, noisy, and
    # all mildly at once), and the pages join to the serial JSON exactly.
    Case("qemu-pc-survey-qr", "qemu", "seabios", "pc", "kernel", "action=survey", "halt",
         30, qr=True, qr_photos=True,
         serial=[r"^apmoff: survey screen: QR code 1/[2-9] of \d+ bytes, (\d+)x\1 modules "
                 r"of [4-9] px, on screen$",
                 r"^apmoff: survey screen: closed, back to text mode"],
         last_line=SURVEY_DONE),
    # The first QR code on a 4-MIPS guest (Bochs' clock follows its instruction count):
    # under a second from the survey's end to the picture.
    Case("bochs-rombios-survey-qr", "bochs", "bochs", "-", "iso", "action=survey wait=1",
         "halt", 90, qr=True, qr_photos=True, extra=["cpu: ips=4000000, reset_on_triple_fault=0"],
         serial=[r"^apmoff: survey screen: the first QR code took \d{1,3} ms to encode and "
                 r"draw$", r"^apmoff: survey screen: closed, back to text mode"],
         last_line=SURVEY_DONE),
    # With SeaBIOS as Bochs' BIOS there is no picture to check: Debian's SeaBIOS (built
    # for QEMU) never runs Bochs' VGA ROM (C0000h reads 00h, INT 10h is SeaBIOS's stub
    # at F000:F065), so the VGA is never set up and A0000h-BFFFFh read FFh, to the
    # debugger and to the CPU alike (the i440FX SMRAM control is 02h: not in the way).
    # The case proves the screen code neither hangs nor faults there.
    Case("bochs-seabios-survey-screen", "bochs", "seabios", "-", "iso",
         "action=survey wait=1", "halt", 60,
         serial=[r"^apmoff: survey \{", r"^apmoff: survey screen: closed, back to text mode"],
         last_line=SURVEY_DONE),
    # Machine identity from SMBIOS as QEMU was told; APM fields as SeaBIOS answers them.
    Case("qemu-pc-survey-smbios", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, last_line=SURVEY_DONE,
         extra=["-smbios", "type=0,vendor=AcmeBIOS,version=4.51PG,date=11/22/1996",
                "-smbios", "type=1,manufacturer=Vintage PC Co,product=Model 486DX2,"
                "version=Rev B"],
         survey={"schema": 1, "firmware": "bios", "smbios.found": True,
                 "smbios.bios_vendor": "AcmeBIOS", "smbios.bios_version": "4.51PG",
                 "smbios.bios_date": "11/22/1996", "smbios.manufacturer": "Vintage PC Co",
                 "smbios.product": "Model 486DX2", "smbios.version_string": "Rev B",
                 "acpi.found": True, "acpi.oem": "BOCHS",
                 "apm.present": True, "apm.version": "1.2", "apm.signature": True,
                 "apm.flags": "0x0003", "apm.interfaces.rm.connect": "ok",
                 "apm.interfaces.pm32.connect": "ok", "apm.interfaces.pm16.connect": "ok",
                 "apm.interfaces.pm32.code32_seg": "0xF000",
                 "apm.power.ac_line": "0x01", "apm.power.battery_flag": "0x80",
                 "apm.capabilities": "0x0000", "memory.int12_kb": 639}),
    Case("qemu-pc-survey-off", "qemu", "seabios", "pc", "kernel", "action=survey,off wait=1",
         "poweroff", 30, serial=[r"^apmoff: survey \{", r"showing for 1 s"],
         last_line=OFF_RM),
]

# --- a CPU exception is a register dump and a halted line, never a silent reboot -----
CASES += [
    Case("qemu-pc-exception", "qemu", "seabios", "pc", "kernel", "selftest=exception",
         "halt", 20,
         serial=[r"^apmoff: CPU exception 6 \(#UD invalid opcode\)",
                 r"^apmoff:   EIP=[0-9A-F]{8} CS=0008 EFLAGS=", r"^apmoff:   EAX=",
                 r"^apmoff:   CR0="],
         last_line=r"^apmoff: halted: CPU exception 6 \(#UD invalid opcode\) at 0008:"),
    Case("qemu-pc-exception-exit", "qemu", "seabios", "pc", "kernel",
         "selftest=exception onfail=exit", "exit:9", 20,
         serial=[r"^apmoff: CPU exception 6"]),
]

# --- vintage machines and media: the floppy, a 486 with 4 or 3 MB ------------------
# The floppy (build/apmoff.img) carries the ISO's menu; its default entry powers off.
# QEMU's 486 has neither CPUID's TSC flag nor RDTSC, so the kernel times nothing there.
OLD_CPU = ["-cpu", "486"]
NO_TSC = r"^apmoff: timing: entry to power-off call n/a"

CASES += [
    Case("qemu-pc-floppy", "qemu", "seabios", "pc", "floppy", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-rombios-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("bochs-seabios-floppy", "bochs", "seabios", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM),
    Case("qemu-486-4m-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-4m-kernel", "qemu", "seabios", "pc", "kernel", "action=off", "poweroff", 20,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-4m-floppy", "qemu", "seabios", "pc", "floppy", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM, NO_TSC], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "4"]),
    Case("qemu-486-3m-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "3"]),
    Case("qemu-486-3m-kernel", "qemu", "seabios", "pc", "kernel", "action=off", "poweroff", 20,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM,
         extra=OLD_CPU + ["-m", "3"]),
    Case("bochs-rombios-4m-iso", "bochs", "bochs", "-", "iso", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM, megs=4),
    Case("bochs-rombios-4m-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         serial=[INSTALL_CHECK, APM_FOUND, OFF_RM], last_line=OFF_RM, megs=4),
]

# --- the v86 monitor, instruction by instruction, against the CPU itself -------------
# v86test=insns runs each stub of realmode/v86stubs.asm in real mode and under the
# monitor; the harness compares both register sets and checks the CPU's against the
# instruction set reference (IF = 0200h): POPF, IRET, PUSHF after STI/CLI, their 66h
# forms, INT/IRET nesting, HLT with IF set; HLT with IF clear must be stopped.
IF = 0x0200
INSNS = {
    "popf-if": {"BX": (IF, IF), "CX": (IF, 0)},
    "iret-if": {"BX": (IF, IF), "CX": (IF, 0)},
    "pushf-sti-cli": {"BX": (IF, IF), "CX": (IF, 0)},
    "o32-popfd-pushfd-iretd": {"BX": (IF, IF), "CX": (0xFFFF, 0), "DX": (IF, 0),
                               "SI": (0xFFFF, 0)},
    "int-iret-nesting": {"BX": (IF, 0), "CX": (IF, 0), "SI": (IF, IF), "DX": (IF, IF)},
    "hlt-if-set": {"BX": (IF, IF)},
    "hlt-if-clear": "stopped",
}
CASES += [
    Case("qemu-pc-v86-insns", "qemu", "seabios", "pc", "kernel",
         "v86test=insns action=survey wait=0", "halt", 20, insns=INSNS,
         last_line=SURVEY_DONE),
    Case("bochs-rombios-v86-insns", "bochs", "bochs", "-", "iso",
         "v86test=insns action=survey wait=0", "halt", 60, insns=INSNS,
         last_line=SURVEY_DONE),
]

# --- every byte SMBIOS hands us reaches the JSON line escaped --------------------------
# A backslash and a quote in QEMU's -smbios strings: the line must still parse (Python's
# json module is the judge) and hold them exactly.
CASES += [
    Case("qemu-pc-survey-escape", "qemu", "seabios", "pc", "kernel", "action=survey wait=0",
         "halt", 20, last_line=SURVEY_DONE,
         extra=["-smbios", 'type=1,manufacturer=C:\\DOS\\,product=Model "486"'],
         survey={"smbios.manufacturer": "C:\\DOS\\", "smbios.product": 'Model "486"'}),
]

# --- irq=on: a timer interrupt reaches a protected-mode BIOS call ---------------------
# selftest=idle makes ten APM 5305h (CPU idle) calls through pm32; SeaBIOS waits in each
# with STI; HLT, so only an interrupt ends them. QEMU reads the BIOS tick count (40:6Ch)
# in guest memory during the kernel's read window and at the end: it must have moved.
CASES += [
    Case("qemu-pc-irq-on-idle", "qemu", "seabios", "pc", "kernel",
         "irq=on interface=pm32 selftest=idle", "halt", 20, bda_ticks=8,
         serial=[r"^apmoff: selftest: idle: 10 of 10 CPU-idle calls returned ok"],
         last_line=r"^apmoff: halted: selftest complete \(selftest=idle\)"),
]

# --- one hybrid ISO for BIOS and UEFI, from a CD or a USB stick -------------------------
UEFI_HALT = r"^apmoff: halted: no APM on UEFI firmware \(no legacy BIOS\)$"
UEFI = dict(serial=[r"^apmoff: firmware: uefi$", r"^apmoff: boot: multiboot 2,",
                    r"^apmoff: efi: firmware \"EDK II\""],
            serial_absent=[r"^apmoff: rm: ", r"real-mode trampoline at"],
            survey={"firmware": "uefi", "multiboot": 2, "smbios.found": True,
                    "acpi.found": True},
            last_line=UEFI_HALT, screen_text=True)
CASES += [
    Case("qemu64-ovmf-iso", "qemu", "ovmf", "pc", "iso", "", "halt", 90, **UEFI),
    Case("qemu64-ovmf-q35-usb", "qemu", "ovmf", "q35", "usb", "", "halt", 90, **UEFI),
    Case("qemu-ovmf32-iso", "qemu", "ovmf32", "q35,smm=on", "iso", "", "halt", 120, **UEFI),
    # With onfail=exit, "no legacy BIOS" leaves QEMU with (3 << 1) | 1.
    Case("qemu64-ovmf-exit", "qemu", "ovmf", "pc", "iso", "onfail=exit", "exit:7", 90,
         serial=[r"^apmoff: firmware: uefi$"]),
    # SeaBIOS gives a USB read a few hundred milliseconds; QEMU completes it on host
    # threads, so a starved host turns it into GRUB's "Read Error" before apmoff runs
    # (seen once in CI, and 2 runs in 6 on a machine loaded on purpose), or, slower
    # still, the stick is not found at all. One rerun then; a broken image fails twice.
    Case("qemu-pc-usb", "qemu", "seabios", "pc", "usb", "", "poweroff", 30,
         serial=[INSTALL_CHECK, OFF_RM], last_line=OFF_RM,
         retry_if=r"Read Error|attempt to read or write outside of disk|"
                  r"No bootable device"),
]

# --- real boards and BIOS ROMs in 86Box (skipped where 86Box is not found) ----------
import cases_86box  # noqa: E402

CASES += cases_86box.CASES

# --- what a person sees, whichever loader started the kernel -------------------------
# The text screen is read from VGA memory by QEMU at the end (not what the kernel says
# it drew). GRUB's multiboot2 on a BIOS machine sets a graphics mode for the kernel's
# framebuffer tag; the kernel draws there, then asks the BIOS for text mode back.
SURVEY_DONE = r"^apmoff: halted: survey complete \(action=survey\)$"
PANEL_TOP = r"^==== apmoff 0\.1 summary =+$"
for name, medium, loader in (("kernel", "kernel", ""), ("grub-mb1", "iso", ""),
                             ("grub-mb2", "iso", "grub-mb2"),
                             ("syslinux", "iso", "syslinux")):
    CASES.append(Case("qemu-pc-screen-" + name, "qemu", "seabios", "pc", medium,
                      "action=survey wait=0", "halt", 30, loader=loader,
                      serial=([r"^apmoff: screen: the loader left a \d+x\d+ graphics mode; "
                               r"back to VGA text mode$"] if loader == "grub-mb2" else []),
                      last_line=SURVEY_DONE, screen_text=True,
                      screen=[SURVEY_DONE, PANEL_TOP,
                              r"^ rm      : connected, APM 1\.2$",
                              r"^ pm32    : connected, APM 1\.2$"]))
CASES += [
    # A failed power-off ends on the panel: each interface with its reason.
    Case("qemu-pc-summary-failed", "qemu", "seabios", "pc", "kernel",
         "inject=rm-off,pm32-off,pm16-connect", "halt", 20,
         last_line=r"^apmoff: halted: power-off failed via rm, pm32 and pm16$",
         serial=[r"^apmoff: summary:  pm16    : connect failure injected"],
         screen=[PANEL_TOP, r"^ Machine : QEMU Standard PC",
                 r"^ BIOS    : SeaBIOS 1\.16\.2",
                 r"^ APM     : 1\.2, flags 0003h: 16-bit PM interface, 32-bit PM interface$",
                 r"^ rm      : connected, APM 1\.2; off: failure injected \(inject=rm-off\)",
                 r"^ pm32    : connected, APM 1\.2; off: failure injected",
                 r"^ pm16    : connect failure injected",
                 r"^ Result  : power-off failed via rm, pm32 and pm16$",
                 r"^ Next    : ", r"^==== halted =+$",
                 r"^apmoff: halted: power-off failed via rm, pm32 and pm16$"]),
    Case("qemu-pc-summary-check", "qemu", "seabios", "pc", "kernel", "action=check",
         "halt", 20, screen=[PANEL_TOP, r"^ Checks  : 22 passed, 8 failed, 1 skipped; "
                             r"failed: disconnect\.not-connected,",
                             r"^           call\.before-connect, connect\.rm-twice"]),
]

# --- the automation images: the shipped menu without its countdown -----------------
CASES += [
    Case("qemu-pc-auto-iso", "qemu", "seabios", "pc", "iso", "", "poweroff", 30,
         loader="auto", serial=[INSTALL_CHECK], last_line=OFF_RM),
    Case("bochs-rombios-auto-floppy", "bochs", "bochs", "-", "floppy", "", "poweroff", 60,
         loader="auto", serial=[INSTALL_CHECK], last_line=OFF_RM),
]

# --- emulated 1990s APM BIOSes as option ROMs (tests/biosrom/) -----------------------
import cases_realbios  # noqa: E402
CASES += cases_realbios.CASES
import cases_windows  # noqa: E402
CASES += cases_windows.CASES

import cases_issue13  # noqa: E402

CASES += cases_issue13.CASES

# --- telling machines apart: label= and the BIOS ROM's identity -------------------
CASES += [
    Case("qemu-pc-survey-label", "qemu", "seabios", "pc", "kernel",
         'action=survey wait=0 label="bench 3"', "halt", 20,
         serial=[r"^apmoff: label: bench 3$", r"^apmoff: bios: ROM E0000h-FFFFFh CRC-32 "
                 r"[0-9A-F]{8}h$"],
         survey={"label": "bench 3"}, screen=[r"^ Label   : bench 3$"]),
]
