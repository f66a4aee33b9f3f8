"""apmoff-collect's version: apmoff's own, from the file VERSION and the commit
(scripts/version.sh), the same numbers the kernel it reads reports prints."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def version():
    try:
        with open(os.path.join(ROOT, "VERSION")) as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def commit():
    try:
        return subprocess.run([os.path.join(ROOT, "scripts", "version.sh"), "commit"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              timeout=30).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def name():
    """What a stored report names as its importer: "apmoff-collect 0.2"."""
    return "apmoff-collect %s" % version()
