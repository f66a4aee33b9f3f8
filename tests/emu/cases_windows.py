"""The windows an emulator never opens, each opened by an emulated 1990s APM BIOS of
tests/biosrom/ (QEMU pc, one option ROM per behaviour).

Each behaviour is one a real board may show and SeaBIOS never does: a BIOS that lets
IRQ 1 through during a protected-mode power-off, an A20 call that returns with
interrupts on, a resume path that leaves A20 off,
a data segment at F940h whose 64 KiB reach into the HMA, a power-off that spins disks
down for 8 s, an INT 15h dispatcher that reads CR0, success returned by IRET with CF
as the caller had it, a disengaged BIOS that refuses off with 60h, a pm32 entry that
takes its data segment as a 16-bit stack. Each case failed before the fix of its
item and passes after (docs/real-bioses.md lists them). The verdict is the
emulator's: QMP SHUTDOWN guest-shutdown for a power-off, the ROM's isa-debug-exit
code for a call it must not get, or the harness's halt judgement.
"""

from tests.emu.cases_biosrom import OFF_RM, biosrom, off_via


CASES = [
    # 1. Power-off in protected mode lets IRQ 1 through (a key wakes a STI; HLT wait):
    #    vector 09h of our IDT is an exception gate unless IRQs are told apart.
    biosrom("pmirq-pm32", "pmirq", "interface=pm32", last_line=off_via("pm32"),
            serial_absent=[r"CPU exception"]),
    biosrom("pmirq-pm16", "pmirq", "interface=pm16", last_line=off_via("pm16"),
            serial_absent=[r"CPU exception"]),
    # 2. Every real-mode call leaves A20 off, and INT 15h AX=2401h, which the
    #    trampoline's check then makes, comes back with IF=1 (IBM-lineage BIOSes) and
    #    the timer set to fire on the way back to protected mode, where the IVT is
    #    still the IDT. Deterministic under -icount (128 ns an instruction): the ROM's
    #    STI_TICKS (5; 5 and 6 land in the window, 4 and 7 miss it) is tuned to the
    #    trampoline's way back and needs tuning again if that changes length.
    biosrom("a20sti", "a20sti", "", extra=["-icount", "shift=7,sleep=off"],
            last_line=OFF_RM),
    # 6. A Micro Channel machine (INT 15h AH=C0h): the v86 monitor reprograms the PICs
    #    level-triggered, with an I/O delay between accesses. QEMU's 8259 ignores
    #    ICW1's LTIM and needs no delay, so this case shows only that the path works;
    #    tests/unit/test_pic.c checks the sequence.
    biosrom("mca-v86", "mca", "bioscall=v86",
            serial=[r"^apmoff: v86: Micro Channel bus \(INT 15h AH=C0h\): the PICs are "
                     r"reprogrammed level-triggered$"],
            last_line=r"^apmoff: powering off via rm \(APM 1\.2\) \(v86\)$"),
    # Small ones. A PM power-off that executes INT 1Ah, as code shared with real mode
    # would: named as a software INT, not "#NP segment not present", with the dump; the
    # fault ends that call, not the run: the next method powers off.
    biosrom("pmint-pm32", "pmint", "interface=pm32 method=apm,acpi",
            serial=[r"^apmoff: code at [0-9A-F]{4}:[0-9A-F]{8} executed INT 1Ah in "
                     r"protected mode",
                    r"^apmoff:   in the APM BIOS's 16-bit code segment: [0-9A-F]{4}:[0-9A-F]{4}h, "
                    r"linear [0-9A-F]{5}h; code there: ([0-9A-F]{2} ){11}[0-9A-F]{2}$",
                    r"^apmoff: pm32: the call ended with a fault in the BIOS, not a return: "
                    r"software INT 1Ah in protected mode at 0050$",
                    r"^apmoff: power-off via pm32 failed: the call could not be made: "
                    r"software INT 1Ah in protected mode", r"^apmoff: falling back to method acpi$"],
            serial_absent=[r"^apmoff: halted"],
            last_line=r"^apmoff: powering off via acpi \(S5: "),
    #    The same on the 16-bit interface, whose BIOS runs on the trampoline's stack: the
    #    fault is taken there and the run goes back to ours.
    biosrom("pmint-pm16", "pmint", "interface=pm16 method=apm,acpi",
            serial=[r"^apmoff: code at [0-9A-F]{4}:[0-9A-F]{8} executed INT 1Ah in "
                     r"protected mode",
                    r"^apmoff: pm16: the call ended with a fault in the BIOS, not a return: "
                    r"software INT 1Ah in protected mode at "],
            serial_absent=[r"^apmoff: halted"],
            last_line=r"^apmoff: powering off via acpi \(S5: "),
    #    PM entries that take DS and ES as handed, for their own data (exit 2Bh when
    #    either is not the data selector): a null DS is what 86Box faults on in the
    #    Intel TC430HX's BIOS (BT ECX,EAX at F000:6587h), on both interfaces.
    biosrom("dsdata-pm32", "dsdata", "interface=pm32", last_line=off_via("pm32")),
    biosrom("dsdata-pm16", "dsdata", "interface=pm16", last_line=off_via("pm16")),
    #    Under v86, the other A20 gates (8042 command DDh, port EEh) are kept from
    #    turning A20 off; the ROM checks A20 itself (isa-debug-exit 2Ah if off).
    biosrom("a20gates-v86", "a20gates", "bioscall=v86",
            serial=[r"^apmoff: powering off via rm \(APM 1\.2\) \(v86\)$"]),
    # 3. Standby and suspend whose resume leaves A20 off: the protected-mode paths
    #    must turn it back on before touching memory above 1 MiB.
    biosrom("a20pm-pm32", "a20pm", "action=standby interface=pm32", expect="halt",
            serial=[r"^apmoff: note: the pm32 call left A20 off; it was turned back on$"],
            last_line=r"^apmoff: halted: standby complete"),
    biosrom("a20pm-pm16", "a20pm", "action=suspend interface=pm16", expect="halt",
            serial=[r"^apmoff: note: the pm16 call left A20 off; it was turned back on$"],
            last_line=r"^apmoff: halted: suspend complete"),
    # 4. The connect fills the BIOS's data area F940:0000-FFFF, 100000h-1093FFh with
    #    A20 on: no kernel code or data may live there.
    biosrom("hma", "hma", "", last_line=OFF_RM),
    # 5. Real-mode off under v86 takes 8 s (disks spinning down); a second off while
    #    it goes down is an error (isa-debug-exit 28h).
    biosrom("slowoff-v86", "slowoff", "bioscall=v86", timeout=40,
            serial_absent=[r"did not return within", r"falling back"]),
    # 7. The INT 15h dispatcher reads CR0: under v86 every call stops there, and the
    #    same call through the trampoline works.
    biosrom("v86priv", "v86priv", "bioscall=v86",
            serial=[r"^apmoff: v86: BIOS executed MOV r32, CR0 at [0-9A-F:]+ \(INT 15h AX=5300h\)$",
                     r"^apmoff: v86: repeating INT 15h AX=5300h through the real-mode "
                     r"trampoline$"]),
    # 8. Success by IRET with CF as the caller left it: 5300h proven by BX=504Dh and
    #    the version; 5307h off powers off a second after it returns.
    biosrom("iretcf", "iretcf", "",
            serial=[r"^apmoff: APM 1\.2 BIOS, signature PM",
                     r"^apmoff: rm: 5307h returned no error code \(CF as it was: a BIOS "
                     r"that returns by IRET\); waiting 3 s"]),
    # 9. Disengaged at boot, and off refused with 60h (not 0Bh) until engaged.
    biosrom("disengaged", "disengaged", "",
            serial=[r"^apmoff: rm: 530Fh ok"], last_line=OFF_RM),
    # 10. The pm32 entry runs on its data segment as a stack and sets SP alone.
    biosrom("ss16-pm32", "ss16", "interface=pm32", last_line=off_via("pm32")),
]
