"""The floppy each machine boots: an automation image (build/apmoff-auto.img, or
apmoff-auto-1200.img for a 5.25" drive) whose menu's first entry carries the sweep's
options and the machine's label.

86Box passes no kernel command line, so the options go into the image: a copy of it
with its menu rewritten by mtools. apmoff's floppies boot through their own loader,
whose menu is /boot/menu.cfg (loader/menu.h: `timeout 0`, then `title` and `words`
lines); an image made with GRUB (apmoff 0.2's, or one's own) has /boot/grub/grub.cfg.
Either is a plain FAT file the loader finds by name, so its size and place may change.
The label (`label="86box:<internal name> <board>"`, at most LABEL_MAX characters) is
in the survey JSON, so apmoff-collect files every run under its own machine.
"""

import hashlib
import os
import re
import subprocess

LABEL_MAX = 48          # app/common/options.h
MTOOLS_TIMEOUT = 30     # seconds, one mtype or mcopy of a 1.44 MB image
DEFAULT_OPTIONS = "action=survey,off wait=0"


class ImageError(Exception):
    pass


def digest(path):
    """SHA-256 of a file (the image and the 86Box binary a result was made with)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as e:
        raise ImageError("cannot read %s: %s" % (path, e.strerror))
    return h.hexdigest()


def label_for(internal, board):
    """`86box:<internal> <board>`, the board cut to fit, printable ASCII only (the
    kernel refuses anything else)."""
    text = "86box:%s %s" % (internal, board)
    text = "".join(c if " " <= c <= "~" and c != '"' else "?" for c in text)
    return text[:LABEL_MAX].rstrip()


def mtools(args, what):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    try:
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                              timeout=MTOOLS_TIMEOUT)
    except OSError as e:
        raise ImageError("%s: %s (mtools, Debian package mtools)" % (what, e))
    except subprocess.TimeoutExpired:
        raise ImageError("%s: mtools took over %d s" % (what, MTOOLS_TIMEOUT))
    if proc.returncode:
        raise ImageError("%s: %s" % (what, proc.stderr.decode(errors="replace").strip()))
    return proc.stdout.decode("utf-8", errors="replace")


LOADER_MENU = "::/boot/menu.cfg"
GRUB_MENU = "::/boot/grub/grub.cfg"


def menu_of(image):
    """(where in the image, the text) of its menu: the loader's, else GRUB's."""
    try:
        return LOADER_MENU, mtools(["mtype", "-i", image, LOADER_MENU],
                                   "reading the menu of %s" % image)
    except ImageError as loader_error:
        try:
            return GRUB_MENU, mtools(["mtype", "-i", image, GRUB_MENU],
                                     "reading the menu of %s" % image)
        except ImageError:
            raise loader_error


def with_options(menu, options):
    """The menu with its first entry booting the kernel with these options."""
    loader = re.search(r"^\s*words\s", menu, re.M) is not None
    if loader:
        first, countdown = r"^(\s*words) action=off\s*$", r"^\s*timeout\s+0\s*$"
        wanted = "`words action=off`", "timeout 0"
    else:
        first, countdown = r"^(\s*apmoff) action=off\s*$", r"^set timeout=0\s*$"
        wanted = "`apmoff action=off`", "set timeout=0"
    new, n = re.subn(first, lambda m: "%s %s" % (m.group(1), options), menu, count=1,
                     flags=re.M)
    if not n:
        raise ImageError("the image's menu has no first entry %s to give the options to "
                         "(not an apmoff automation image?)" % wanted[0])
    if not re.search(countdown, new, re.M):
        raise ImageError("the image's menu has a countdown (%s expected: use the "
                         "automation image build/apmoff-auto*.img)" % wanted[1])
    return new


def make(base, out, options, label):
    """Writes `out`: the image `base` whose first menu entry boots with `options` and
    label=`label`."""
    where, menu = menu_of(base)
    menu = with_options(menu, '%s label="%s"' % (options, label))
    tmp = out + ".tmp"
    with open(base, "rb") as src, open(tmp, "wb") as dst:
        dst.write(src.read())
    cfg = out + ".cfg"
    with open(cfg, "w") as f:
        f.write(menu)
    try:
        mtools(["mcopy", "-o", "-i", tmp, cfg, where],
               "writing the menu into %s" % out)
        os.replace(tmp, out)
    finally:
        for p in (tmp, cfg):
            if os.path.exists(p):
                os.unlink(p)
    return out
