"""Lines, other than the kernel's, that tell what a power-off call did: written by an
emulator, by `make run`, or by whoever captured the log. The one place that reads
them: a new emulator or a changed `make run` line is one more row in EVIDENCE
(docs/collect.md lists what is read).

The kernel cannot say it powered off; these can. They count only after the run's last
"apmoff: powering off via X" line (inputs.Boot.outcome).
"""

import re
from dataclasses import dataclass

# QEMU's ShutdownCause (qapi/run-state.json), as `-trace qemu_system_shutdown_request`
# prints it: the guest's own requests. The others (0-5, 9, 10) come from the host
# (quit, a signal, the UI, a snapshot): they say nothing about the guest.
QEMU_GUEST_SHUTDOWN, QEMU_GUEST_RESET, QEMU_GUEST_PANIC = 6, 7, 8
QEMU_REASONS = {QEMU_GUEST_SHUTDOWN: "off", QEMU_GUEST_RESET: "failed",
                QEMU_GUEST_PANIC: "failed"}
# The same causes by name, as QMP's SHUTDOWN event and `make run` give them.
QMP_REASONS = {"guest-shutdown": "off", "guest-reset": "failed", "guest-panic": "failed"}


@dataclass(frozen=True)
class Evidence:
    outcome: str        # off, failed or hung
    source: str         # "emulator" or "capture"
    name: str           # what was read, for the report's detail column


def qemu_trace(m):
    outcome = QEMU_REASONS.get(int(m.group(1)))
    return outcome and Evidence(outcome, "emulator",
                                "QEMU trace qemu_system_shutdown_request reason=%s"
                                % m.group(1))


def qmp_event(m):
    outcome = QMP_REASONS.get(m.group(1))
    return outcome and Evidence(outcome, "emulator", "QEMU QMP SHUTDOWN %s" % m.group(1))


def make_run(m):
    """tests/emu/run.py's last line. Judged by QEMU's exit status as well as its event:
    "make run: powered off ... (QEMU: SHUTDOWN guest-shutdown, exit status 0)" is
    off; "the guest reset the machine" failed; "QEMU exited with status N (apmoff
    exit code C)" failed (the guest ran on to write the code); "no power-off within
    N s" hung (it watched the guest that long). The line of earlier versions, "QEMU
    reported SHUTDOWN, reason R", is read by its reason. "QEMU exited" alone and
    "interrupted" say nothing."""
    if m.group("off"):
        return Evidence("off", "emulator", "make run: powered off (guest-shutdown, exit 0)")
    if m.group("reset"):
        return Evidence("failed", "emulator", "make run: the guest reset the machine")
    if m.group("code"):
        return Evidence("failed", "emulator", "make run: QEMU exited with apmoff exit code %s"
                        % m.group("code"))
    if m.group("reason"):
        outcome = QMP_REASONS.get(m.group("reason"))
        return outcome and Evidence(outcome, "emulator", "make run: SHUTDOWN %s"
                                    % m.group("reason"))
    if m.group("secs"):
        return Evidence("hung", "emulator", "make run: no power-off within %s s"
                        % m.group("secs"))
    return None


# 86Box's verdict as the kit's run.sh and apmoff-sweep end a log with ("86BOX poweroff
# secs=23"), judged from the kit's patched 86Box: its soft-off marker (off), a reset or
# triple fault (failed), no event before the deadline (hung). "on" (stopped after the
# kernel halted) and "exit:N" say nothing the kernel's own lines do not.
BOX86_VERDICTS = {"poweroff": "off", "reset": "failed", "triple-fault": "failed",
                  "timeout": "hung"}


def box86_line(m):
    outcome = BOX86_VERDICTS.get(m.group(1))
    return outcome and Evidence(outcome, "emulator", "86Box %s" % m.group(1))


def capture_line(m):
    return Evidence(m.group(1), "capture", "apmoff-outcome line")


# (pattern on one line, function of the match -> Evidence or None). Searched in order,
# over the lines after the last power-off call; the first Evidence wins.
EVIDENCE = [
    (re.compile(r"^apmoff-outcome: (off|failed|hung)\b"), capture_line),
    (re.compile(r"\bqemu_system_shutdown_request reason=(\d{1,3})\b"), qemu_trace),
    # From the line's start, the first SHUTDOWN event, then the first "reason" after it,
    # each group atomic: one pass over the line. (A `.*` between them would search
    # the rest of the line again from every SHUTDOWN a long line repeats.)
    (re.compile(r'\A(?>.*?"event":\s*"SHUTDOWN")(?>.*?"reason":)\s*"([a-z-]+)"'),
     qmp_event),
    (re.compile(r"^make run: (?:(?P<off>powered off\b.*\(QEMU: SHUTDOWN guest-shutdown, "
                r"exit status 0\))|(?P<reset>the guest reset the machine\b.*)"
                r"|QEMU exited with status \d+ \(apmoff exit code (?P<code>\d+)\).*"
                r"|QEMU reported SHUTDOWN, reason (?P<reason>[a-z-]+)"
                r"|no power-off within (?P<secs>[0-9.]+) s)\s*$"), make_run),
    (re.compile(r"Shutdown port: shutdown requested"),
     lambda m: Evidence("off", "emulator", "Bochs shutdown port")),
    (re.compile(r"ACPI control: soft power off"),
     lambda m: Evidence("off", "emulator", "Bochs ACPI soft power off")),
    (re.compile(r"^86BOX ([a-z-]+|exit:\d+) secs=\d+\s*$"), box86_line),
]

# A quick test that keeps a log's other lines out of memory (inputs.kept_lines keeps only
# the kernel's lines and these).
MAYBE = re.compile(r"apmoff-outcome|qemu_system_shutdown_request|SHUTDOWN|^make run:|"
                   r"Shutdown port|ACPI control|^86BOX ")


def of_line(line):
    """The Evidence one line gives, or None."""
    for pattern, read in EVIDENCE:
        m = pattern.search(line)
        if m:
            found = read(m)
            if found:
                return found
    return None
