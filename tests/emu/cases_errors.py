"""Mistakes and faults: a bad command line is reported and nothing is done; a CPU
exception is a register dump and a halted line, never a silent reboot."""

from tests.emu.case import Case
from tests.emu.judges import ScreenHasText

CASES = [
    # Bad input: an unknown option and a bad value are reported, defaults are used.
    # A wrong word never powers a machine off: the errors, then a halt before any
    # APM call (with onfail=exit, code 10: QEMU status 21).
    Case("qemu-pc-bad-options", "qemu", "seabios", "pc", "kernel",
         "colour=blue action=explode", "halt", 20,
         serial=[r"^apmoff: error: unknown option 'colour'.*options: action",
                 r"^apmoff: error: action=explode is not valid \(choices: off, survey, "
                 r"survey,off, check, standby, suspend, reboot, dump, dump,off\)$",
                 r"^apmoff: the command line has 2 errors \(above\); nothing was done$"],
         serial_absent=[r"^apmoff: rm: ", r"powering off"], judges=[ScreenHasText()],
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

