"""Power-off: the walking skeleton (real mode through the shipped menu), each forced
interface on each emulator and BIOS, the fallback chain proven with injected failures,
the BIOS that accepts 5307h and then hangs, and standby and suspend."""

from tests.emu.case import Case
from tests.emu.judges import ClockAgrees, TicksMove

INSTALL_CHECK = r"^apmoff: rm: 5300h installation check"
APM_FOUND = r"^apmoff: APM 1\.2 BIOS, signature PM"
OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"
OFF_PM32_LINE = r"^apmoff: powering off via pm32 \(APM 1\.2\)$"
RM_HALTED = (r"^apmoff: power-off via rm failed: the call could not be made: v86: BIOS "
             r"executed HLT with interrupts disabled at F000:[0-9A-F]{4} \(INT 15h AX=5307h\)$")


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
    # SeaBIOS accepts 5307h and then spins in cli/hlt where there is no ACPI, on every
    # interface. The real-mode call runs watched (bioscall=auto): the v86 monitor names
    # the HLT and the chain goes on; in protected mode nothing can end a HLT with
    # interrupts off, so the run hangs at pm32. Through the trampoline, at rm.
    Case("qemu-isapc-hang", "qemu", "seabios", "isapc", "kernel", "", "hang", 20,
         serial=[INSTALL_CHECK, RM_HALTED, r"^apmoff: falling back to pm32$"],
         hang_after=OFF_PM32_LINE),
    Case("qemu-isapc-hang-trampoline", "qemu", "seabios", "isapc", "kernel",
         "bioscall=trampoline", "hang", 20, serial=[INSTALL_CHECK], hang_after=OFF_RM),
    Case("qemu-pc-noacpi-hang", "qemu", "seabios", "pc,acpi=off", "kernel", "", "hang", 20,
         serial=[INSTALL_CHECK, RM_HALTED], hang_after=OFF_PM32_LINE),
]

CASES += FORCED

CASES += [
    # --- the fallback chain, proven with injected failures ---------------------
    Case("qemu-pc-fallback-pm32", "qemu", "seabios", "pc", "kernel", "inject=rm-off",
         "poweroff", 20,
         serial=[r"^apmoff: power-off via rm failed: failure injected",
                 r"^apmoff: falling back to pm32",
                 r"^apmoff: note: IRQs are masked at the PICs during protected-mode BIOS "
                 r"calls, except the timer during standby and suspend$"],
         last_line=off_via("pm32")),
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
         "poweroff", 20, last_line=off_via("pm32"),
         serial=[r"^apmoff: note: IRQs are masked at the PICs during protected-mode BIOS "
                 r"calls, except the timer \(irq=on\)$"]),
]

# --- standby and suspend ------------------------------------------------------------
CASES += [
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

# --- irq=on: a timer interrupt reaches a protected-mode BIOS call ---------------------
# selftest=idle makes ten APM 5305h (CPU idle) calls through pm32; SeaBIOS waits in each
# with STI; HLT, so only an interrupt ends them. QEMU reads the BIOS tick count (40:6Ch)
# in guest memory during the kernel's read window and at the end: it must have moved.
CASES += [
    Case("qemu-pc-irq-on-idle", "qemu", "seabios", "pc", "kernel",
         "irq=on interface=pm32 selftest=idle", "halt", 20, judges=[TicksMove(8)],
         serial=[r"^apmoff: selftest: idle: 10 of 10 CPU-idle calls returned ok"],
         last_line=r"^apmoff: halted: selftest complete \(selftest=idle\)"),
]


# --- selftest=clock: the clock is true across steps that do not read it ----------------
# The kernel times 3 and then 17 of the RTC's seconds while it reads nothing else; the
# judge holds its figures against those seconds. QEMU's 486 has no TSC: the PIT's
# channels 0 and 2 as a vernier, and for the 17 s the RTC's settling; the default CPU
# times by the TSC.
CASES += [
    Case("qemu-486-clock", "qemu", "seabios", "pc", "kernel", "selftest=clock", "halt", 60,
         judges=[ClockAgrees()], extra=["-cpu", "486"],
         serial=[r"^apmoff: clock: PIT channels 0 and 2 as a vernier, the RTC beyond 14 s"],
         last_line=r"^apmoff: halted: selftest complete \(selftest=clock\)"),
    Case("qemu-pc-clock", "qemu", "seabios", "pc", "kernel", "selftest=clock", "halt", 60,
         judges=[ClockAgrees()], serial=[r"^apmoff: clock: the TSC"],
         last_line=r"^apmoff: halted: selftest complete \(selftest=clock\)"),
    Case("bochs-rombios-clock", "bochs", "bochs", "-", "iso", "selftest=clock", "halt", 120,
         judges=[ClockAgrees()],
         last_line=r"^apmoff: halted: selftest complete \(selftest=clock\)"),
]
