"""Cases for issue 13: the survey JSON true to README, the shipped check lists, and
(README's emulator CI recipes are run by tests/recipes.py, not here).

Rows only; the columns are cases.py's (harness.Case).
"""

from harness import Case

CASES = [
    # A verdict that differs from the shipped list is caught: check=strict makes
    # power-state.reserved FAIL where the list (without strict) says SKIP, so a
    # check that fails exactly as before still ends with (6 << 1) | 1.
    Case("qemu-pc-check-strict-differs", "qemu", "seabios", "pc", "kernel",
         "action=check check=strict onfail=exit", "exit:13", 20,
         serial=[r"^apmoff: check: differs: power-state\.reserved: expected SKIP, got FAIL$",
                 r"^apmoff: check \{.*\"expected_list\":\"SeaBIOS 1\.16\.2 \(Debian\)\","
                 r"\"differences\":1,"]),
]
