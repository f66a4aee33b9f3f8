"""The emulated-BIOS cases: QEMU pc with an emulated 1990s APM BIOS of our own.

Each case boots with one option ROM of tests/biosrom/ (built by
tests/biosrom/build.py, one per behaviour) that hooks INT 15h AH=53h at POST and
answers as real 1990s BIOSes do: an EBDA moved below a work area that E820 still
calls usable, a PM data segment in memory INT 12h calls free, PM entry points that
leave CF alone on success, a 1.1 BIOS that answers a 1.2 request with 1.0, a 5307h
that polls the tick count or never returns, an enable that hangs, calls power-off does
not need, a 5307h that powers off a second after returning success, WBINVD/INVD in
real mode, an Award-like answer set for action=check. The ROM judges too: a call it
must not get writes a code to isa-debug-exit (EXIT_* in apmbios.asm: QEMU's status 2 *
code + 1), and its power-off is SeaBIOS's own ACPI write, seen as QMP SHUTDOWN
guest-shutdown. docs/real-bioses.md, "Real 1990s BIOSes", lists them with references.

The case names keep their historical "qemu-pc-realbios-" prefix (make mutate and
people's -k habits name them); the board table of real BIOS ROMs is
tests/emu/board_table.py, from the 86Box cases.
"""

from tests.emu import versions
from tests.emu.case import Case
from tests.emu.judges import ChecksEqual
from tests.emu.qemu import KeyAfter, NmiAfter, ResetAfter

OFF_RM = r"^apmoff: powering off via rm \(APM 1\.2\)$"
OFF_RM_V86 = r"^apmoff: powering off via rm \(APM 1\.2\) \(v86\)$"


WBINVD_TRAPPED = [
    r"^apmoff: v86: BIOS executed WBINVD at [0-9A-F:]+: WBINVD done for it",
    r"^apmoff: v86: BIOS executed INVD at [0-9A-F:]+: WBINVD done for it"]
OVER_6S = r"([6-9]\d{3}|[1-9]\d{4,}) ms"     # longer than the v86 watchdog allows
DATASEG_MOVE = (r"^apmoff: real-mode trampoline moved from 9C000h to 9B000h: the APM data "
                r"segment is at 9E000h-ADFFFh$")


def off_via(iface, version="1.2"):
    return r"^apmoff: powering off via %s \(APM %s\)$" % (iface, version.replace(".", r"\."))


def biosrom(name, rom, options, expect="poweroff", timeout=20, **kw):
    return Case("qemu-pc-realbios-" + name, "qemu", "seabios", "pc", "kernel", options,
                expect, timeout, rom=rom, **kw)


CASES = [
    # 1. 16 KiB taken below 640 KiB at POST: 40:13h = 623, the EBDA moved to 9BC00h,
    #    E820's first entry still 0-9FC00h. The ROM checks its area at 5307h.
    biosrom("ebda", "ebda", "",
             serial=[r"^apmoff: real-mode trampoline at 98000h .* below 9BC00h", OFF_RM],
             last_line=OFF_RM),
    # 1b. The PM data segment lies in memory INT 12h calls free, where the trampoline
    #     is (9E000h, 4 KiB); the ROM fills it at the first PM call and checks it at
    #     every later one (exit 27h). pm16 runs on the trampoline's stack: it bites.
    biosrom("dataseg-pm16", "dataseg", "interface=pm16",
             serial=[DATASEG_MOVE], last_line=off_via("pm16")),
    biosrom("dataseg-pm32", "dataseg", "interface=pm32",
             serial=[DATASEG_MOVE], last_line=off_via("pm32")),
    # 2. PM entries that touch CF only to fail, PM disengaged at boot: 530Eh and 530Fh
    #    succeed with CF as the caller left it; 5307h answers 0Bh until engaged.
    biosrom("nocf-pm32", "nocf", "interface=pm32",
             serial=[r"^apmoff: pm32: connected, APM 1\.2 connection"],
             last_line=off_via("pm32")),
    biosrom("nocf-pm16", "nocf", "interface=pm16",
             serial=[r"^apmoff: pm16: connected, APM 1\.2 connection"],
             last_line=off_via("pm16")),
    # 3. APM 1.1 that answers a 1.2 request with 1.0 and refuses off on 1.0.
    biosrom("ver11", "ver11", "",
             serial=[r"^apmoff: rm: connected, APM 1\.1 connection"],
             last_line=off_via("rm", "1.1")),
    # 4. Interrupts while the BIOS runs: under v86, 5307h polls 40:6Ch with IF on; a
    #    5307h that never returns is stopped by the watchdog and the chain falls back;
    #    an NMI (QMP inject-nmi) during a v86 call is named as one.
    biosrom("tickpoll-v86", "tickpoll", "bioscall=v86", last_line=OFF_RM_V86),
    #    The other paths, which served the tick before (the BIOS's own INT 08h in real
    #    mode; system/bios_irq.asm on the PM interfaces with irq=on): every path, one BIOS.
    biosrom("tickpoll-rm", "tickpoll", "", last_line=OFF_RM),
    biosrom("tickpoll-pm32-irq", "tickpoll", "irq=on interface=pm32",
             last_line=off_via("pm32")),
    biosrom("tickpoll-pm16-irq", "tickpoll", "irq=on interface=pm16",
             last_line=off_via("pm16")),
    biosrom("hang-v86", "hang", "bioscall=v86", timeout=60,
              serial=[r"^apmoff: v86: BIOS call did not return within 30 s: stopped by the "
                     r"timer at ", r"^apmoff: falling back to pm32$"],
             last_line=off_via("pm32")),
    # A BIOS that halts with interrupts off after 5307h, believing the power gone (as
    # bochs-emu/Bochs#735 met, and Linux's apm=realmode-power-off quirks): through the
    # trampoline the CPU stays halted; the v86 monitor sees the HLT, names where, and
    # the next interface powers off: by default (bioscall=auto, the off call watched)
    # as under bioscall=v86.
    biosrom("haltoff", "haltoff", "", timeout=30,
             serial=[r"^apmoff: power-off via rm failed: the call could not be made: v86: "
                     r"BIOS executed HLT with interrupts disabled at [0-9A-F]{4}:[0-9A-F]{4} "
                     r"\(INT 15h AX=5307h\)$",
                     r"^apmoff: falling back to pm32$"],
             serial_absent=[r"once more through the real-mode trampoline"],
             last_line=off_via("pm32")),
    biosrom("haltoff-v86", "haltoff", "bioscall=v86", timeout=30,
             serial=[r"^apmoff: v86: BIOS executed HLT with interrupts disabled at ",
                     r"^apmoff: falling back to pm32$"],
             last_line=off_via("pm32")),
    biosrom("haltoff-hang", "haltoff", "bioscall=trampoline", "hang", timeout=15,
             hang_after=r"^apmoff: powering off via rm \(APM 1\.2\)$"),
    #    No watchdog of the trampoline's ends that halt (nor the v86 monitor's one inside
    #    an SMI handler, as on 86Box's HP Brio 80xx): the person presses reset, the
    #    record of the rm call outlived it, and the next boot tries rm last.
    biosrom("haltoff-reset", "haltoff", "bioscall=trampoline", timeout=40,
             actions=[ResetAfter(r"^apmoff: powering off via rm \(APM 1\.2\)$", 2)],
             serial=[r"^apmoff: record: the last run went no further than its power-off "
                     r"call via rm, and the power stayed on \(RAM kept this record\): rm "
                     r"goes last this time$",
                     r"^apmoff: record: tried last, after the power stayed on in an earlier "
                     r"run: rm$",
                     r"^apmoff: rm goes last: an earlier run never came back from its "
                     r"power-off call there$"],
             last_line=off_via("pm32")),
    #    A BIOS that answers 5307h with success under the monitor and leaves the power
    #    on (it reads PE with SMSW, which v86 mode does not trap): by default the call is
    #    made once more through the trampoline, where it powers off.
    biosrom("v86off", "v86off", "", timeout=30,
             serial=[r"^apmoff: rm: 5307h came back under the v86 monitor with the power "
                     r"on; once more through the real-mode trampoline"],
             serial_absent=[r"falling back"]),
    #    A survey call that never returns (5310h on the real-mode interface, as 86Box's
    #    LG IBM Multinet x61 through the trampoline): by default the monitor's watchdog
    #    ends it after 6 s, named; the survey goes on to the next interface and the
    #    power goes off. Through the trampoline nothing can end it.
    biosrom("caphang", "caphang", "action=survey,off wait=0", timeout=60,
             serial=[r"^apmoff: v86: BIOS call did not return within 6 s: stopped by the "
                     r"timer at [0-9A-F]{4}:[0-9A-F]{4} \(INT 15h AX=5310h\)$",
                     r"^apmoff: pm32: 5310h ok$"],
             last_line=OFF_RM),
    biosrom("caphang-trampoline", "caphang", "action=survey,off wait=0 bioscall=trampoline",
             "hang", timeout=20, hang_after=r"^apmoff: rm: 5310h get capabilities"),
    biosrom("nmi-v86", "nmi", "bioscall=v86", timeout=30,
             actions=[NmiAfter(r"^apmoff: powering off via rm")],
             serial=[r"^apmoff: v86: NMI \(non-maskable interrupt\) during the BIOS call",
                     r"^apmoff: falling back to pm32$"],
             last_line=off_via("pm32")),
    #    Standby and suspend that end only at the resume event (a key, pressed 8 s
    #    after the request): the v86 watchdog (6 s) must not take them for a hung BIOS.
    biosrom("resume-v86", "resume", "action=suspend bioscall=v86", expect="halt",
             timeout=40, actions=[KeyAfter(r"^apmoff: requesting suspend via rm", 8)],
             serial=[r"^apmoff: suspend: the BIOS returned after " + OVER_6S],
             serial_absent=[r"did not return within", r"falling back"],
             last_line=r"^apmoff: halted: suspend complete"),
    #    In protected mode it halts for the next interrupt: every IRQ masked (irq=off)
    #    would keep it there for ever; standby and suspend let the timer's through.
    biosrom("resume-pm32", "resume", "action=standby interface=pm32", expect="halt",
             serial=[r"^apmoff: standby: the BIOS returned after \d+ ms"],
             last_line=r"^apmoff: halted: standby complete"),
    biosrom("resume-pm16", "resume", "action=suspend interface=pm16", expect="halt",
             serial=[r"^apmoff: suspend: the BIOS returned after \d+ ms"],
             last_line=r"^apmoff: halted: suspend complete"),
    biosrom("resume-rm", "resume", "action=standby", expect="halt", timeout=40,
             actions=[KeyAfter(r"^apmoff: requesting standby via rm", 8)],
             serial=[r"^apmoff: standby: the BIOS returned after " + OVER_6S],
             last_line=r"^apmoff: halted: standby complete"),
    # 5. PM disabled at boot (flags bit 3): 5307h answers 01h, and 5308h before any
    #    5307h "hangs" this BIOS (isa-debug-exit 25h); after it, enable and one retry.
    biosrom("enable", "enable", "",
             serial=[r"^apmoff: rm: power management is disabled: enabling it, then asking once more",
                     r"^apmoff: rm: 5308h ok"],
             last_line=OFF_RM),
    # 6. Any call power-off does not need is an error (isa-debug-exit 26h).
    biosrom("offonly", "offonly", "",
             serial_absent=[r"530Ah", r"5310h", r"5308h"], last_line=OFF_RM),
    # 7. 5307h returns success; the ROM's INT 1Ch hook cuts the power 18 ticks later,
    #    which only happens if IRQs are serviced while apmoff waits.
    biosrom("late", "late", "",
             serial=[OFF_RM, r"^apmoff: rm: 5307h returned success; waiting 3 s"],
             serial_absent=[r"falling back"]),
    # 8. WBINVD and INVD in the real-mode 5307h, and no PM interface to fall back to.
    #    Both are ring-0 instructions: in v86 mode a CPU raises #GP, and the monitor
    #    does a WBINVD for the BIOS (INVD would drop dirty lines). QEMU's new decoder
    #    (9.1 on) runs them at any privilege level, so from there the monitor never
    #    sees them: the case still proves the power-off, and that QEMU ran them itself.
    biosrom("wbinvd-v86", "wbinvd", "bioscall=v86",
             serial=[OFF_RM_V86] + (WBINVD_TRAPPED if versions.qemu() < (9, 1) else []),
             serial_absent=[r"falling back", r"halted"] + (
                 WBINVD_TRAPPED if versions.qemu() >= (9, 1) else [])),
    # 9. Award-like, for action=check: 530Ah answers unconnected, PM lengths 0 and a
    #    data segment at F940h, and a loose 5307h that takes a reserved state for off.
    biosrom("award-check", "award", "action=check onfail=exit", expect="exit:13",
             judges=[ChecksEqual("check-award")], serial=[r"^apmoff: check \{"]),
]
