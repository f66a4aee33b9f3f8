"""The installed emulators' versions, for the few cases whose expectations follow
them (each such case says why)."""

import functools
import re
import subprocess


@functools.lru_cache(maxsize=None)
def qemu():
    """QEMU's version as a tuple, (7, 2, 22) or (10, 0, 13); (0,) when there is no
    QEMU to ask (then no QEMU case runs anyway)."""
    try:
        out = subprocess.run(["qemu-system-i386", "--version"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             timeout=30).stdout.decode(errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return (0,)
    m = re.search(r"version (\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(x) for x in m.groups() if x is not None) if m else (0,)
