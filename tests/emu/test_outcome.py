"""The harness's judge of a QEMU run (qemu.follow() and qemu.outcome()) against
recorded runs: every file of tests/emu/fixtures/qmp/ (tests/emu/qmp_record.py) is
replayed by a QMP server of ours, the events as QEMU sent them, then the socket
closed and the exit status QEMU gave, and the verdict must be the one recorded.
Also the rules alone, on event sequences of each kind.

    python3 -m unittest tests.emu.test_outcome
"""

import glob
import json
import os
import socket
import tempfile
import threading
import time
import unittest

from tests.emu import box86, qemu

FIXTURES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "fixtures", "qmp",
                                         "*.json")))
SHUTDOWN = {"event": "SHUTDOWN", "data": {"guest": True, "reason": "guest-shutdown"}}
RESET = {"event": "SHUTDOWN", "data": {"guest": True, "reason": "guest-reset"}}


class ReplayedQemu:
    """A QMP server that answers the handshake, sends the recorded events, then
    closes as QEMU does when it exits; and the process's side: wait() gives the
    recorded exit status once the socket has closed."""

    def __init__(self, path, events, status):
        self.events, self.status = events, status
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(1)
        self.gone = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        conn, _ = self.server.accept()
        with conn:
            conn.sendall(b'{"QMP": {"version": {}, "capabilities": []}}\n')
            reader = conn.makefile("rb")
            for _ in range(2):                       # qmp_capabilities, cont
                reader.readline()
                conn.sendall(b'{"return": {}}\n')
            for ev in self.events:
                conn.sendall(json.dumps(ev).encode() + b"\n")
                time.sleep(0.01)
        self.server.close()
        self.gone.set()

    def wait(self, timeout=None):
        if not self.gone.wait(timeout):
            raise qemu.subprocess.TimeoutExpired("qemu", timeout)
        return self.status


class RecordedRuns(unittest.TestCase):
    def test_fixtures_cover_both_qemus(self):
        names = {os.path.basename(f) for f in FIXTURES}
        for kind in ("poweroff", "exit", "reset"):
            self.assertTrue(any(n.startswith(kind + "-qemu7.") for n in names),
                            "no QEMU 7 recording of %s" % kind)
            self.assertTrue(any(n.startswith(kind + "-qemu10.") for n in names),
                            "no QEMU 10 recording of %s" % kind)

    def test_replayed(self):
        for path in FIXTURES:
            with open(path) as f:
                rec = json.load(f)
            with self.subTest(os.path.basename(path)), \
                    tempfile.TemporaryDirectory() as tmp:
                sock = os.path.join(tmp, "qmp.sock")
                proc = ReplayedQemu(sock, rec["events"], rec["exit status"])
                deadline = time.monotonic() + 20
                qmp = qemu.Qmp(sock, deadline)
                qmp.command("qmp_capabilities", deadline)
                qmp.command("cont", deadline)
                verdict, ended = qemu.follow(qmp, proc, deadline)
                qmp.sock.close()
                self.assertTrue(ended)
                self.assertEqual(verdict, rec["expect"],
                                 "QEMU %s, %s" % (rec["qemu"], rec["kernel words"]))


class Rules(unittest.TestCase):
    def test_odd_status_wins_over_the_event(self):
        # QEMU 10: isa-debug-exit sends SHUTDOWN guest-shutdown, then exits 17.
        self.assertEqual(qemu.outcome([SHUTDOWN], 17), "exit:17")
        self.assertEqual(qemu.outcome([RESET], 3), "exit:3")

    def test_exit_without_event(self):
        self.assertEqual(qemu.outcome([], 17), "exit:17")       # QEMU 7.2
        self.assertEqual(qemu.outcome([], 0), "exit:0")

    def test_event_then_zero(self):
        self.assertEqual(qemu.outcome([SHUTDOWN], 0), "poweroff")
        self.assertEqual(qemu.outcome([RESET], 0), "reset")

    def test_event_without_exit_is_not_a_power_off(self):
        self.assertEqual(qemu.outcome([SHUTDOWN], None), "poweroff-without-exit")
        self.assertIsNone(qemu.outcome([], None))

    def test_crash_after_event(self):
        self.assertEqual(qemu.outcome([SHUTDOWN], 1), "exit:1")

    def test_panic(self):
        self.assertEqual(qemu.outcome([{"event": "GUEST_PANICKED", "data": {}}], 0), "panic")
        self.assertEqual(qemu.outcome([{"event": "SHUTDOWN", "data": {
            "reason": "guest-panic"}}], 0), "panic")


class Box86Exit(unittest.TestCase):
    """86Box's own exit: the kit's markers first, its exit status where they are
    absent (an 86Box without the kit's patch)."""

    def test_markers_decide(self):
        self.assertEqual(box86.verdict_from("BENCH86: soft-off (plat_power_off)\n"),
                         "poweroff")
        self.assertEqual(box86.verdict_from("BENCH86: hard reset\n"), None)

    def test_unpatched_zero_is_the_soft_off(self):
        self.assertEqual(box86.exit_verdict("", 0), "poweroff")

    def test_unit_tester_status(self):
        self.assertEqual(box86.exit_verdict("", 5), "exit:5")
        self.assertEqual(box86.exit_verdict("BENCH86: hard reset\n", 3), "exit:3")

    def test_patched_zero_without_soft_off_is_no_power_off(self):
        self.assertEqual(box86.exit_verdict("BENCH86: hard reset\n", 0), "exit:0")


if __name__ == "__main__":
    unittest.main()
