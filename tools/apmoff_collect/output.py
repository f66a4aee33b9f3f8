"""Files the collector writes (the HTML pages, `csv -o`), each made whole beside its
final name and then renamed over it.

The report folder may be shared: anyone who can write in it can plant a symbolic link
at the name a writer is about to open (index.html.tmp, or reports.csv itself), and
opening that name for writing would write through the link into any file the user
(root, say) may write. mkstemp() makes a new file under a name nobody could guess
(O_CREAT | O_EXCL: it fails rather than open something that is there), and rename()
replaces a link at the final name by the file instead of writing through it.
"""

import contextlib
import os
import tempfile


@contextlib.contextmanager
def replacing(path, newline=None, binary=False):
    """A text file (UTF-8), or a binary one, that becomes `path` once the block ends
    without an exception; nothing of it remains otherwise. Its mode is what the umask
    gives a new file (mkstemp's own is 0600)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".%s." % os.path.basename(path),
                                     suffix=".tmp", dir=folder)
    try:
        with (os.fdopen(fd, "wb") if binary else
              os.fdopen(fd, "w", encoding="utf-8", newline=newline)) as f:
            os.fchmod(f.fileno(), 0o666 & ~umask())
            yield f
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
