"""The QR symbols in a stranger's picture: scaled first by scale.py, in a child
process, into a grey PNG of at most limits.ZBAR_SIDE pixels a side, which zbarimg
then reads (qrpages.zbar_symbols). Both children run one after the other, each under
limits.zbar_memory of address space; the collector itself never decodes a picture.

Why a child for the scaling too: a phone photo of 50-200 megapixels, or a small file
that claims a huge canvas, is decoded by C code (libjpeg, libpng, ...) driven by the
stranger's bytes; there it costs a child process, never the collector and the rest of
its batch.
"""

import os
import subprocess
import sys
import tempfile
import threading

from . import qrpages
from .limits import ZBAR_SIDE, TooLarge, human

SCALER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scale.py")
TOO_LARGE, UNREADABLE, NO_PILLOW = 3, 2, 4      # scale.py's exit statuses
SECONDS = 120                                   # for each child (a 200 MP photo: ~1 s)


class Unreadable(ValueError):
    """The picture could not be read; the message says why."""


def spill(raw):
    """A private temporary copy of a picture's bytes, for the children to read (the
    file given may be a FIFO, read once). Close it to delete it."""
    copy = tempfile.NamedTemporaryFile(prefix="apmoff-picture-")
    copy.write(raw)
    copy.flush()
    return copy


def symbols(picture, limits):
    """The text of every QR symbol zbarimg finds in the picture (a path). Raises
    TooLarge past picture_pixels or symbols_bytes, Unreadable otherwise."""
    with tempfile.TemporaryDirectory(prefix="apmoff-scaled-") as folder:
        scaled = os.path.join(folder, "scaled.png")
        scale(picture, scaled, limits)
        try:
            return qrpages.zbar_symbols(scaled, limits=limits, timeout=SECONDS)
        except qrpages.PageError as e:
            raise Unreadable(str(e))


def scale(picture, out, limits):
    """scale.py on the picture: `out` written, or the reason it is not."""
    expired = []

    def kill():
        expired.append(True)
        proc.kill()

    with open(picture, "rb") as source, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-I", SCALER, out, str(ZBAR_SIDE),
                                 str(limits.picture_pixels)],
                                stdin=source, stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=qrpages.address_space(limits.zbar_memory))
        timer = threading.Timer(SECONDS, kill)      # (wait() with a timeout polls)
        timer.start()
        try:
            status = proc.wait()
        finally:
            timer.cancel()
        err.seek(0)
        said = err.read(4000).decode(errors="replace").strip().splitlines()
    reason = said[-1][:200] if said else "killed by signal %d" % -status if status < 0 \
        else "exit %d" % status
    if expired:
        raise Unreadable("the picture could not be read: its scaling took more than "
                         "%d s" % SECONDS)
    if status == TOO_LARGE:
        raise TooLarge("a picture of %s pixels" % reason, "picture_pixels",
                       limits.picture_pixels)
    if status == NO_PILLOW:
        raise Unreadable(reason)
    if "memory" in reason.lower():
        raise Unreadable("the picture could not be read: %s, within the zbar_memory "
                         "limit of %s (raise it with --limit zbar_memory=...)"
                         % (reason, human(limits.zbar_memory)))
    if status:
        raise Unreadable("the picture could not be read: %s" % reason)
