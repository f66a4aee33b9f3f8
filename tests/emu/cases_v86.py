"""The v86 monitor (bioscall=v86): it powers off as the trampoline does, names the
privileged instructions a BIOS executes, keeps A20 on, falls back like the rest, and
leaves the registers the CPU itself leaves, call by call and instruction by
instruction (V86Agrees)."""

from tests.emu.case import Case
from tests.emu.judges import V86Agrees

OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)"
SURVEY_DONE = r"^apmoff: halted: survey complete"


def off_via(iface):
    return r"^apmoff: powering off via %s \(APM 1\.2\)$" % iface


OFF_V86 = r"^apmoff: powering off via rm \(APM 1\.2\) \(v86\)$"
V86_CMP = [r"^apmoff: v86test: PASS INT 15h AX=5300h", r"^apmoff: v86test: PASS INT 12h",
           r"^apmoff: v86test: PASS INT 11h"]
CASES = [
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
         "v86test=insns action=survey wait=0", "halt", 20, judges=[V86Agrees(INSNS)],
         last_line=SURVEY_DONE),
    Case("bochs-rombios-v86-insns", "bochs", "bochs", "-", "iso",
         "v86test=insns action=survey wait=0", "halt", 60, judges=[V86Agrees(INSNS)],
         last_line=SURVEY_DONE),
]
