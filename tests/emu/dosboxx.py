"""Boot a floppy case in DOSBox-X (Debian 13's dosbox-x: its own BIOS, with the APM
BIOS Windows 9x uses), headless, and read the verdict from DOSBox-X's own log.

DOSBox-X leaves with status 0 however its emulation ends (an APM power-off, its time
limit, a closed window), so the status alone proves nothing. Its log does: with the
BIOS and MISC channels at debug it names every APM call, the power-off's kill switch,
the keyboard controller's reset and the APM standby it enters. A power-off is the
5307h off call followed by the kill switch, then the process ending with status 0.

Headless: SDL's dummy drivers (-silent sets them), no quit warning (on a signal it
would ask on standard input for ever), COM1 to a file, the floppy mounted in
[autoexec] and booted with `boot a:`, which keeps DOSBox-X's BIOS and drops its DOS.
The floppy is a copy of the run's own: DOSBox-X locks an image it mounts, so two runs
of one image at once would have the second exit before it boots. HOME is the run's
folder, so DOSBox-X reads and writes nothing of the user's."""

import os
import re
import shutil
import subprocess
import time

from tests.emu.images import image_for, is_floppy
from tests.emu.watch import SerialWatch, kill_group, poll

DOSBOX_X = "dosbox-x"
STDOUT_MAX = 4 << 20        # DOSBox-X's own chatter; more means it is looping on a prompt

# The log's events, as DOSBox-X 2025.02.01 words them (src/ints/bios.cpp,
# src/gui/sdlmain.cpp, src/hardware/keyboard.cpp).
POWER_OFF = re.compile(r"APM BIOS call AX=5307 BX=0x0001 CX=0x0003\s*\n"
                       r"\s*\d+ DEBUG MISC:Emulation threw DOSBox-X kill switch signal")
DOSBOX_X_VERDICTS = [
    (POWER_OFF, "poweroff"),
    (re.compile(r"Emulation threw a signal to reboot the system"), "reset"),
    (re.compile(r"Guest attempted to set power state to standby"), "standby"),
    (re.compile(r"Guest attempted to set power state to suspend"), "suspend"),
]


def missing():
    """Why DOSBox-X cases cannot run here, or "" when they can."""
    if shutil.which(DOSBOX_X):
        return ""
    return ("no dosbox-x here (Debian 13 packages it and scripts/deps.sh installs it "
            "there; Debian 12 has no package)")


def settings(extra):
    """The case's extra settings, "section.key=value" each, as {section: [lines]}."""
    found = {}
    for item in extra:
        where, eq, value = item.partition("=")
        section, dot, key = where.partition(".")
        if not eq or not dot:
            raise ValueError("DOSBox-X setting %r is not section.key=value" % item)
        found.setdefault(section, []).append("%s=%s" % (key, value))
    return found


def dosboxx_config(case, image, serial_path, log_path):
    if not is_floppy(case.medium):
        raise ValueError("DOSBox-X boots the floppy images only, not %s" % case.medium)
    sections = {
        "sdl": ["output=surface"],
        "dosbox": ["quit warning=false", "memsize=%d" % case.megs],
        "cpu": ["apmbios=true"],
        "serial": ["serial1=file file:%s" % serial_path],
        "log": ["logfile=%s" % log_path, "bios=debug", "misc=debug"],
    }
    for section, lines in settings(case.extra).items():
        sections.setdefault(section, []).extend(lines)
    sections["autoexec"] = ["imgmount a %s -t floppy" % image, "boot a:"]
    out = []
    for name, lines in sections.items():
        out += ["[%s]" % name] + lines
    return "\n".join(out) + "\n"


def verdict_of(log):
    """The first event of the log that ends or suspends the guest, or None."""
    found = [(m.start(), name) for pattern, name in DOSBOX_X_VERDICTS
             for m in [pattern.search(log)] if m]
    return min(found)[1] if found else None


def read(path):
    if not os.path.exists(path):
        return ""
    with open(path, "rb") as f:
        return f.read().decode("latin-1")


def run_on(case, watch, deadline):
    """After a reset DOSBox-X boots the floppy again: the run goes on while a line the
    case asks for (the next boot's record of the reset) is still missing."""
    while time.monotonic() < deadline:
        text = watch.text()
        if all(re.search(p, text, re.M) for p in case.serial):
            return
        time.sleep(0.1)


def run(case, workdir):
    """Boots the case; returns (verdict, seconds, serial text)."""
    serial_path = os.path.join(workdir, "serial.txt")
    log_path = os.path.join(workdir, "dosbox-x.log")
    conf_path = os.path.join(workdir, "apmoff.conf")
    out_path = os.path.join(workdir, "stdout.txt")
    image = os.path.join(workdir, "floppy.img")
    shutil.copyfile(image_for(case), image)
    with open(conf_path, "w") as f:
        f.write(dosboxx_config(case, image, serial_path, log_path))
    env = dict(os.environ, HOME=workdir, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    start = time.monotonic()
    deadline = start + case.timeout
    with open(out_path, "wb") as out:
        proc = subprocess.Popen([DOSBOX_X, "-silent", "-conf", conf_path],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                cwd=workdir, env=env, start_new_session=True)
    watch = SerialWatch(serial_path, case)

    def step():
        status = proc.poll()
        verdict = verdict_of(read(log_path))
        if verdict == "poweroff":
            # The kill switch is DOSBox-X on its way out: it must get there.
            try:
                status = proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                return "poweroff-without-exit"
            return verdict if status == 0 else "poweroff-then-exit:%d" % status
        if verdict == "reset":
            run_on(case, watch, deadline)
        if verdict:
            return verdict
        if status is not None:
            return "exited:%d" % status
        if os.path.getsize(out_path) > STDOUT_MAX:
            return "runaway-stdout"
        return "quiet" if watch.settled() else None

    try:
        verdict = poll(deadline, step)
    finally:
        kill_group(proc)
    return verdict, time.monotonic() - start, watch.text()
