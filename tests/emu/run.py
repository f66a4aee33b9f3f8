#!/usr/bin/env python3
"""make run: boot apmoff in QEMU with its serial console on this terminal, keys
included, and end with one line saying what the guest did.

    python3 -m tests.emu.run IMAGE.iso [--timeout SECONDS]
    python3 -m tests.emu.run --args "WORDS" KERNEL.elf [--timeout SECONDS]

The ISO opens GRUB's menu here: the arrow keys, Enter and `e` work as on the machine
(GRUB reads COM1). With --args (`make run ARGS="action=survey wait=0"`) QEMU boots
the kernel itself with those words (-kernel, -append), no menu. Every key typed goes
to COM1 (the survey's QR screen ends on a key there too); Ctrl-C ends the run.

The terminal is left as it was found: its settings are saved and put back however
the run ends, and GRUB's screen drawing (it clears the screen, moves the cursor,
hides it) goes to the terminal's alternate screen, which is left as soon as the
kernel speaks; the kernel's lines then stay in the scroll-back. When this is not a
terminal (a pipe, a log), GRUB's drawing is left out and the kernel's lines are plain
text.

The last line is the verdict, `make run: ...` (tools/apmoff_collect/evidence.py reads
it), judged from what QEMU did, never from what the guest printed: `powered off via
rm (APM 1.2) (QEMU: SHUTDOWN guest-shutdown, exit status 0)` only when QEMU reported
the shutdown and then exited 0; `QEMU exited with status N (apmoff exit code C)` when
the guest wrote an exit code (onfail=exit; QEMU 10 reports a SHUTDOWN for that too,
and the odd status decides); `the guest halted: REASON` (its own words); `the guest
reset the machine (...), and the next boot said: ...` for action=reboot, whose run
goes on into the next boot until it has reported the last one (the ISO's menu, too,
comes back after its reset entry); `the guest reset the machine` where no reset was
asked for; or `no power-off within N s` (--timeout; 60 s by default when the input is
not a terminal, none when a person is at the keyboard). Exit status 0 when the guest
powered off, halted, exited by itself or reset as asked; 1 when it hung, reset
unasked or panicked; 130 after Ctrl-C.
"""

import argparse
import errno
import fcntl
import io
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

from tests.emu.qemu import EXIT_GRACE, Qmp, outcome, wait_exit
from tests.emu.watch import ANSI_ESCAPE, SETTLE_SECONDS, kill_group

KERNEL_FIRST = b"apmoff: version "      # the kernel's first line (app/main.c)
HALTED = re.compile(r"^apmoff: halted: (.*?)\r?$", re.M)
BOOTING = re.compile(r"Booting `([^']*)'")
# The terminal's alternate screen (xterm, VTE, the Linux console, tmux, screen), and
# what GRUB may leave set: attributes, a hidden cursor.
ALT_SCREEN_ON, ALT_SCREEN_OFF, SANE = b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[m\x1b[?25h"


class Console:
    """What COM1 says, shown on our stdout: GRUB's drawing on the alternate screen
    (a terminal) or not at all (a pipe), then the kernel's lines as plain text."""

    def __init__(self, out, terminal):
        self.out, self.terminal = out, terminal
        self.kernel = False
        self.alt = False
        self.held = b""                 # the loader's bytes not shown yet
        self.loader_text = ""
        self.text = ""                  # the kernel's text so far
        self.raw = b""                  # everything COM1 said

    def feed(self, data):
        self.raw += data
        if not self.kernel:
            data = self.loader(data)
            if not self.kernel:
                return
        self.text += data.decode("latin-1")
        clean = ANSI_ESCAPE.sub("", data.decode("latin-1")).replace("\r", "")
        self.write(clean.encode("latin-1"))

    def loader(self, data):
        """Shows the loader's bytes; returns the kernel's part once it starts."""
        buf = self.held + data
        at = buf.find(KERNEL_FIRST)
        shown, rest = (buf, b"") if at < 0 else (buf[:at], buf[at:])
        if at < 0:                      # the first line may come split: hold its start
            keep = len(KERNEL_FIRST) - 1
            shown, self.held = buf[:-keep] if len(buf) > keep else b"", buf[-keep:]
        self.loader_text += ANSI_ESCAPE.sub("", shown.decode("latin-1"))
        if shown and self.terminal:
            if not self.alt:
                self.write(ALT_SCREEN_ON)
                self.alt = True
            self.write(shown)
        if at >= 0:
            self.kernel = True
            self.leave_alt_screen()
            booted = BOOTING.findall(self.loader_text)
            if booted:
                self.write(("make run: GRUB booted `%s'\n" % booted[-1]).encode())
        return rest

    def leave_alt_screen(self):
        if self.alt:
            self.write(SANE + ALT_SCREEN_OFF)
            self.alt = False

    def write(self, data):
        self.out.write(data)
        self.out.flush()

    def note(self, text):
        self.write(("\nmake run: %s\n" % text).encode())

    def halted(self, since=0):
        m = HALTED.findall(self.text[since:])
        return m[-1] if m else None


class Keys:
    """Our stdin as the guest's keyboard: on a terminal, characters one at a time,
    unechoed, Enter as CR (what GRUB and a serial console expect), flow control off;
    Ctrl-C still ends the run. The settings are put back by restore()."""

    def __init__(self, fd, person=None):
        self.fd = fd
        self.saved = None
        self.open = True
        self.person = os.isatty(fd) if person is None else person
        if self.person and os.isatty(fd):
            self.saved = termios.tcgetattr(fd)
            mode = termios.tcgetattr(fd)
            mode[0] &= ~(termios.ICRNL | termios.IXON)          # iflag
            mode[3] &= ~(termios.ICANON | termios.ECHO)         # lflag (ISIG stays)
            mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
            termios.tcsetattr(fd, termios.TCSADRAIN, mode)

    def read(self):
        data = os.read(self.fd, 256)
        if not data:
            self.open = False
        return data.replace(b"\n", b"\r")

    def restore(self):
        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


# A pipe this large holds a whole run's COM1 (a survey and a check line are 10 KB):
# QEMU never finds it full however long the host keeps this program from reading.
PIPE_BYTES = 1 << 20


class Com1:
    """COM1 through QEMU's `pipe` character device: two FIFOs, BASE.out that QEMU
    writes and BASE.in that it reads. A socket (0.3) lost bytes: QEMU writes COM1 a
    byte at a time, each byte a packet of the socket's buffer, and when the host left
    this program unscheduled for a moment the buffer filled, QEMU's UART gave up on
    the byte after four tries and dropped it (10 to 300 bytes inside the JSON lines, a
    run in about 40 on a loaded host). A pipe counts bytes, not packets, and is made
    large enough for the run. Both FIFOs are opened here read-write before QEMU starts,
    so no open waits for the other side; the same methods as a socket, for watch()."""

    def __init__(self, base):
        os.mkfifo(base + ".out")
        os.mkfifo(base + ".in")
        self.out = os.open(base + ".out", os.O_RDWR | os.O_NONBLOCK)
        self.inp = os.open(base + ".in", os.O_RDWR | os.O_NONBLOCK)
        try:
            with open("/proc/sys/fs/pipe-max-size") as f:
                most = int(f.read())
        except (OSError, ValueError):
            most = PIPE_BYTES
        for fd in (self.out, self.inp):
            try:
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, min(PIPE_BYTES, most))
            except OSError:
                pass                    # the default 64 KB still holds a run's COM1

    def fileno(self):
        return self.out

    def recv(self, size):
        try:
            return os.read(self.out, size)
        except BlockingIOError:
            return b""

    def sendall(self, data):
        while data:
            try:
                data = data[os.write(self.inp, data):]
            except BlockingIOError:
                select.select([], [self.inp], [], 0.1)
            except OSError as e:
                if e.errno != errno.EINTR:
                    raise

    def close(self):
        os.close(self.out)
        os.close(self.inp)


# --screen: how the PC's screen is shown, where a person wants to see it (the QR code,
# the summary panel, the menu as drawn). "window" needs a desktop and Debian's
# qemu-system-gui; "curses" draws the text screen in this terminal (graphics modes, the
# QR code's among them, show as a note); "vnc" serves it on 127.0.0.1:5900 for a VNC
# viewer, the way to see it on a machine with no desktop.
SCREENS = {"window": None, "curses": ["-display", "curses"],
           "vnc": ["-display", "vnc=127.0.0.1:0"]}
VNC_ADDRESS = "127.0.0.1:5900"


def window_display():
    """QEMU's desktop display (gtk, else sdl), or None when this QEMU has none."""
    out = subprocess.run(["qemu-system-i386", "-display", "help"], capture_output=True,
                         text=True).stdout
    for name in ("gtk", "sdl"):
        if re.search(r"^%s$" % name, out, re.M):
            return ["-display", name]
    return None


def reboots(words):
    """Whether a reset is what the run is for: the kernel's words ask for one, or
    there are none (the ISO's menu has a reset entry, and a PC comes back to its menu
    after a reset). QEMU then boots again instead of exiting (no -no-reboot), so the
    next boot's report of the last run is seen, as README promises."""
    return words is None or bool(re.search(r"(^|\s)action=reboot(\s|$)", words))


def qemu_command(image, words, serial, qmp, display=("-display", "none")):
    media = (["-kernel", image, "-append", words] if words is not None
             else ["-cdrom", image, "-boot", "d"])
    return ["qemu-system-i386", "-S"] + list(display) + (
            [] if reboots(words) else ["-no-reboot"]) + ["-nodefaults",
            "-vga", "std", "-chardev", "pipe,id=com1,path=%s" % serial,
            "-serial", "chardev:com1", "-qmp", "unix:%s,server=on,wait=off" % qmp,
            "-device", "isa-debug-exit,iobase=0xf4,iosize=4"] + media


POWERING_OFF = re.compile(r"^apmoff: powering off via (.*?)\r?$", re.M)
# The next boot's account of the last run (app/common/record.c), and the line after it.
RECORD = re.compile(r"^apmoff: record: (.*?)\r?$", re.M)
OPTIONS = re.compile(r"^apmoff: options: ", re.M)
# The survey's QR screen waits for a key; with no person at a terminal, make run
# presses one (on COM1) and says so.
WAITING_FOR_KEY = b"apmoff: survey screen: waiting for a key"


def verdict_line(verdict, console):
    """The last line's words for a verdict of qemu.outcome(), in plain words first."""
    if verdict == "poweroff":
        via = POWERING_OFF.findall(console.text)
        return "powered off%s (QEMU: SHUTDOWN guest-shutdown, exit status 0)" % (
            " via " + via[-1] if via else "")
    if verdict == "reset":
        return "the guest reset the machine (QEMU: SHUTDOWN guest-reset, exit status 0)"
    if verdict.startswith("exit:"):
        status = int(verdict[5:])
        said = ("; the guest halted: %s" % console.halted()) if console.halted() else ""
        return "QEMU exited with status %d%s%s" % (
            status, " (apmoff exit code %d)" % (status >> 1) if status & 1 else "", said)
    return "QEMU ended the run: %s" % verdict


def watch(proc, qmp, com1, console, keys, limit, words=None):
    """Relays until the guest is done; returns (verdict words, whether it is a good
    end). QEMU's own account decides (qemu.outcome()): its SHUTDOWN event, then its
    exit status; COM1 is read to its end first, so the kernel's last line is kept.
    A guest reset (QEMU's RESET event) is followed into the next boot: with the
    kernel's action=reboot the run ends once that boot has said how the last one
    ended."""
    deadline = time.monotonic() + limit if limit else None
    halted_at = None
    pressed = False
    reset_at = None                     # where the text stood when the guest reset
    resets = 0                          # the guest's RESET events seen (the list grows)
    while deadline is None or time.monotonic() < deadline:
        if not keys.person and not pressed and WAITING_FOR_KEY in console.raw:
            pressed = True
            console.note("no one at a terminal to press a key: make run presses Enter")
            com1.sendall(b"\r")
        events = qmp.poll_events(0)
        guest_resets = [ev for ev in events if ev["event"] == "RESET" and
                        ev.get("data", {}).get("guest")]
        if len(guest_resets) > resets:
            resets = len(guest_resets)
            if reset_at is None or len(console.text) > reset_at:  # SeaBIOS resets again
                console.note("the guest reset the machine (QEMU: RESET %s); QEMU boots it "
                             "again" % guest_resets[-1].get("data", {}).get("reason", ""))
            reset_at, halted_at, pressed = len(console.text), None, False
        if reset_at is not None and words is not None:
            after = console.text[reset_at:]
            if OPTIONS.search(after):
                said = RECORD.findall(after)
                return ("the guest reset the machine (QEMU: RESET guest-reset), and the "
                        "next boot said: %s" % (said[0] if said else "nothing of it"),
                        True)
        if qmp.closed or any(ev["event"] in ("SHUTDOWN", "GUEST_PANICKED") for ev in events):
            status = wait_exit(proc, time.monotonic() + EXIT_GRACE)
            drain(com1, console)
            verdict = outcome(qmp.events, status)
            return verdict_line(verdict, console), verdict == "poweroff" or \
                verdict.startswith("exit:")
        readers = [com1] + ([keys.fd] if keys.open else [])
        for fd in select.select(readers, [], [], 0.05)[0]:
            if fd is com1:
                data = com1.recv(4096)
                if data:
                    console.feed(data)
            else:
                com1.sendall(keys.read())
        if halted_at is None and console.halted(reset_at or 0):
            halted_at = time.monotonic()
        if halted_at is not None and time.monotonic() - halted_at >= SETTLE_SECONDS:
            return "the guest halted: %s" % console.halted(), True
    return "no power-off within %g s" % limit, False


def drain(com1, console):
    """What QEMU wrote to COM1 before it ended: read until it closes or stays quiet
    (QEMU's last bytes are in the pipe before it exits)."""
    while select.select([com1], [], [], 0.2)[0]:
        try:
            data = com1.recv(4096)
        except OSError:
            return
        if not data:
            return
        console.feed(data)


def main():
    ap = argparse.ArgumentParser(prog="make run", description=__doc__.split("\n\n")[0])
    ap.add_argument("image", help="the ISO, or with --args the kernel's ELF")
    ap.add_argument("--args", help="the kernel's words (boots the ELF with -kernel)")
    ap.add_argument("--timeout", type=float, help="seconds before the run is ended "
                    "(default: 60 when stdin is not a terminal, none when it is)")
    ap.add_argument("--screen", choices=sorted(SCREENS), help="show the PC's screen: a "
                    "window (a desktop and qemu-system-gui), curses (this terminal; COM1 "
                    "is printed after the run) or vnc (%s)" % VNC_ADDRESS)
    args = ap.parse_args()
    terminal = os.isatty(sys.stdin.fileno())
    limit = args.timeout or (None if terminal else 60)
    display = ["-display", "none"]
    if args.screen == "window":
        display = window_display()
        if not display:
            print("make run: this QEMU has no window display: install qemu-system-gui "
                  "(make run SCREEN=window does), or use SCREEN=vnc", file=sys.stderr)
            return 2
    elif args.screen:
        display = SCREENS[args.screen]
    # curses takes this terminal for the PC's screen: COM1 waits until the run ends.
    curses = args.screen == "curses"

    workdir = tempfile.mkdtemp(prefix="apmoff-run-")
    serial, qmp_path = os.path.join(workdir, "com1"), os.path.join(workdir, "qmp.sock")
    com1 = Com1(serial)
    what = ("%s with `%s`" % (args.image, args.args) if args.args is not None else
            "%s (GRUB's menu takes the arrow keys and Enter here)" % args.image)
    print("make run: QEMU boots %s; %s%s" % (
        what, "the screen is this terminal, COM1 follows the run" if curses else
        "COM1 is this terminal", "; Ctrl-C ends the run" if terminal else ""), flush=True)
    if args.screen == "vnc":
        print("make run: the screen is at %s: vncviewer %s" % (VNC_ADDRESS, VNC_ADDRESS),
              flush=True)
    # curses: QEMU gets this terminal (stdin too), which is put back afterwards.
    tty_saved = termios.tcgetattr(0) if curses and terminal else None
    proc = subprocess.Popen(qemu_command(args.image, args.args, serial, qmp_path, display),
                            stdin=None if curses else subprocess.DEVNULL,
                            start_new_session=True)
    keys = Keys(sys.stdin.fileno(), person=False if curses else None)
    keys.open = keys.open and not curses
    held = io.BytesIO()
    console = Console(held if curses else sys.stdout.buffer,
                      not curses and os.isatty(sys.stdout.fileno()))
    said, status = "QEMU exited", 1
    try:
        setup = time.monotonic() + 10
        qmp = Qmp(qmp_path, setup)
        qmp.command("qmp_capabilities", setup)
        qmp.command("cont", setup)
        said, good = watch(proc, qmp, com1, console, keys, limit, args.args)
        status = 0 if good else 1
    except KeyboardInterrupt:
        said, status = "interrupted", 130
    finally:
        keys.restore()
        console.leave_alt_screen()
        kill_group(proc)
        com1.close()
        for name in os.listdir(workdir):
            os.unlink(os.path.join(workdir, name))
        os.rmdir(workdir)
    if curses:
        if tty_saved:
            termios.tcsetattr(0, termios.TCSADRAIN, tty_saved)
        sys.stdout.buffer.write(b"\x1b[m\x1b[?25h\x1b[?1049l\n" + held.getvalue())
    print("\nmake run: %s" % said, flush=True)
    return status


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
