"""make run's relay (tests/emu/run.py) against a guest whose last serial line comes
after QEMU's SHUTDOWN event, as it does when QEMU reports the power-off before its
serial socket has passed the kernel's last bytes on (about one run in ten did): the
line must still be shown, and named in the verdict. No QEMU is run: a socket pair is
COM1, and a fake QMP and a fake QEMU process tell the story in the order it happens.

    python3 -m unittest tests.emu.test_run
"""

import io
import os
import socket
import threading
import time
import unittest

from tests.emu import run

LAST_LINE = b"apmoff: powering off via rm (APM 1.2)\r\n"


class FakeQmp:
    """QMP that reports SHUTDOWN guest-shutdown once the guest has been started."""

    def __init__(self, started):
        self.started, self.events, self.closed = started, [], False

    def poll_events(self, timeout):
        if not self.started.is_set() or self.events:
            return []
        self.events.append({"event": "SHUTDOWN", "data": {"guest": True,
                                                          "reason": "guest-shutdown"}})
        return list(self.events)


class FakeQemu:
    """A QEMU whose last COM1 bytes leave after its SHUTDOWN event, then it exits 0."""

    def __init__(self, guest, qmp, lines, late):
        self.guest, self.qmp, self.lines, self.late = guest, qmp, lines, late
        self.exited = threading.Event()
        threading.Thread(target=self.behave, daemon=True).start()

    def behave(self):
        for line in self.lines:
            self.guest.sendall(line)
        self.qmp.started.set()
        while not self.qmp.events:      # the event has been read by make run
            time.sleep(0.01)
        time.sleep(self.late)
        self.guest.sendall(LAST_LINE)
        self.guest.close()
        self.exited.set()

    def wait(self, timeout=None):
        if not self.exited.wait(timeout):
            raise run.subprocess.TimeoutExpired("qemu", timeout)
        return 0


class LastLineAfterTheEvent(unittest.TestCase):

    def relay(self, late):
        com1, guest = socket.socketpair()
        qmp = FakeQmp(threading.Event())
        qemu = FakeQemu(guest, qmp, [b"apmoff: version 0.2: APM power-off\r\n",
                                     b"apmoff: timing: entry to power-off call 7000 us\r\n"],
                        late)
        out = io.BytesIO()
        console = run.Console(out, False)
        with open(os.devnull, "rb") as null:
            keys = run.Keys(null.fileno(), person=False)
            said, good = run.watch(qemu, qmp, com1, console, keys, 10)
        com1.close()
        return said, good, out.getvalue()

    def test_line_after_the_event_is_shown_and_named(self):
        said, good, shown = self.relay(0.3)
        self.assertIn(LAST_LINE.rstrip(b"\r\n"), shown)
        self.assertEqual(said, "powered off via rm (APM 1.2) (QEMU: SHUTDOWN "
                               "guest-shutdown, exit status 0)")
        self.assertTrue(good)

    def test_line_at_once(self):
        said, good, shown = self.relay(0)
        self.assertIn(LAST_LINE.rstrip(b"\r\n"), shown)
        self.assertTrue(said.startswith("powered off via rm (APM 1.2)"))


if __name__ == "__main__":
    unittest.main()
