"""Where the 86Box source is read from: a directory tree, or a git repository (bare
or not) at a commit, so the table read is the one of the commit the binary was built
from (`--source REPO --source-rev COMMIT`), with no checkout."""

import os
import subprocess


class SourceError(Exception):
    """The source tree or a file of it cannot be read."""


GIT_TIMEOUT = 60     # seconds: one `git show` of a file, or one ls-tree


class Source:
    def __init__(self, path, rev=None):
        self.path = os.path.abspath(path)
        self.rev = rev
        self.git = None
        if not os.path.isdir(self.path):
            raise SourceError("no 86Box source at %s" % path)
        if rev or not os.path.isfile(os.path.join(self.path, "src", "machine",
                                                  "machine_table.c")):
            self.git = self._git_dir()
            if not self.git:
                raise SourceError("%s has no src/machine/machine_table.c and is no git "
                                  "repository" % path)
            self.rev = self._git("rev-parse", "--verify", (rev or "HEAD") + "^{commit}").strip()

    def _git_dir(self):
        for candidate in (os.path.join(self.path, ".git"), self.path):
            if os.path.isfile(os.path.join(candidate, "HEAD")) and \
                    os.path.isdir(os.path.join(candidate, "objects")):
                return candidate
        return None

    def _git(self, *args):
        try:
            proc = subprocess.run(["git", "--git-dir", self.git] + list(args),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=GIT_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SourceError("git %s: %s" % (" ".join(args), e))
        if proc.returncode:
            raise SourceError("git %s: %s" % (" ".join(args),
                                              proc.stderr.decode(errors="replace").strip()))
        return proc.stdout.decode("utf-8", errors="replace")

    def read(self, relpath):
        if self.git:
            return self._git("show", "%s:%s" % (self.rev, relpath))
        try:
            with open(os.path.join(self.path, relpath), encoding="utf-8",
                      errors="replace") as f:
                return f.read()
        except OSError as e:
            raise SourceError("cannot read %s: %s" % (relpath, e.strerror))

    def listdir(self, reldir):
        """The file names in a directory of the source."""
        if self.git:
            out = self._git("ls-tree", "--name-only", "%s:%s" % (self.rev, reldir))
            return sorted(out.split())
        try:
            return sorted(os.listdir(os.path.join(self.path, reldir)))
        except OSError as e:
            raise SourceError("cannot list %s: %s" % (reldir, e.strerror))

    def describe(self):
        """The commit, when the source is a git repository (or a tree inside one)."""
        if self.git:
            return self.rev
        try:
            out = subprocess.run(["git", "-C", self.path, "rev-parse", "HEAD"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 timeout=GIT_TIMEOUT)
            rev = out.stdout.decode().strip()
            # Only the 86Box repository's own commit, not that of a repository the
            # tree happens to sit in (an extracted tarball under someone's home).
            if out.returncode == 0 and rev and self._is_86box_toplevel():
                return rev
        except (OSError, subprocess.TimeoutExpired):
            pass
        return None

    def _is_86box_toplevel(self):
        try:
            out = subprocess.run(["git", "-C", self.path, "rev-parse", "--show-toplevel"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 timeout=GIT_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return os.path.realpath(out.stdout.decode().strip()) == os.path.realpath(self.path)
