"""action=check: each BIOS's verdicts against its list in tests/emu/expect/ (the lists
the kernel ships too), the exit codes that say whether a run matches its list, and
check=strict's one extra call."""

from tests.emu.case import Case
from tests.emu.judges import ChecksEqual

# The kernel ships these lists too (scripts/mkchecklists.py) and says whether the run
# matches the one for its BIOS, chosen by the SMBIOS identity.
SEABIOS_LIST = r"SeaBIOS 1\.16"
ROMBIOS_LIST = r"Bochs rombios"


def check_done(bios_list):
    return (r"^apmoff: halted: check complete: 22 passed, 8 failed, 1 skipped; matches the "
            r"expected list for %s$" % bios_list)


CHECK_DONE = check_done(SEABIOS_LIST)
CASES = [
    Case("qemu-pc-check", "qemu", "seabios", "pc", "kernel", "action=check", "halt", 20,
         judges=[ChecksEqual("check-seabios")],
         serial=[r"^apmoff: check \{.*\"chipset_soft_off\":\"yes\"",
                 r"^apmoff: check: chipset Intel 440FX \(PIIX3, PIIX4 PM\): soft-off yes"],
         last_line=CHECK_DONE),
    Case("qemu-q35-check", "qemu", "seabios", "q35", "kernel", "action=check", "halt", 20,
         judges=[ChecksEqual("check-seabios")], last_line=CHECK_DONE),
    Case("bochs-rombios-check", "bochs", "bochs", "-", "iso", "action=check", "halt", 60,
         judges=[ChecksEqual("check-rombios")], last_line=check_done(ROMBIOS_LIST)),
    Case("bochs-seabios-check", "bochs", "seabios", "-", "iso", "action=check", "halt", 60,
         judges=[ChecksEqual("check-seabios")], last_line=CHECK_DONE),
    # With onfail=exit a check whose FAILs are exactly the list's leaves QEMU with
    # (11 << 1) | 1.
    Case("qemu-pc-check-exit", "qemu", "seabios", "pc", "kernel",
         "action=check onfail=exit", "exit:23", 20, judges=[ChecksEqual("check-seabios")],
         serial=[r"^apmoff: check: matches the expected list for " + SEABIOS_LIST + "$"]),
    # check=strict adds the one call that asks 5307h for a reserved state.
    Case("qemu-pc-check-strict", "qemu", "seabios", "pc", "kernel",
         "action=check check=strict", "halt", 20,
         serial=[r"^apmoff: check FAIL power-state\.reserved \(5307h, APM 1\.0\): expected "
                 r"error 0Ah", r"^apmoff: rm: 5307h set power state \(BX=0001h CX=0010h\)"],
         last_line=r"^apmoff: halted: check complete: 22 passed, 9 failed, 0 skipped; 1 "
                   r"difference from the expected list for " + SEABIOS_LIST + "$"),
    # A verdict that differs from the shipped list is caught: check=strict makes
    # power-state.reserved FAIL where the list (without strict) says SKIP, so a
    # check that fails exactly as before still ends with (6 << 1) | 1.
    Case("qemu-pc-check-strict-differs", "qemu", "seabios", "pc", "kernel",
         "action=check check=strict onfail=exit", "exit:13", 20,
         serial=[r"^apmoff: check: differs: power-state\.reserved: expected SKIP, got FAIL$",
                 r"^apmoff: check \{.*\"expected_list\":\"" + SEABIOS_LIST + r"\","
                 r"\"differences\":1,"]),
]
