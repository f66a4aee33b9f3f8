#!/usr/bin/env python3
"""make dist is reproducible: two builds of one commit are the same bytes, and so is a
build from the source tarball.

The tree under test (the commit, or with uncommitted changes `git stash create`'s
commit of them) is cloned into two temporary folders and `make dist` runs in each:
the second under another umask (077 against 022), TZ and locale, and later. Every
file of the two release folders must be equal; when one is not, the failure names the
first differing file and the offset of its first differing byte. Then the first
build's source tarball is unpacked into a third folder, with no .git, and `make dist`
there must give the same images, kernel and notes (everything but the tarball it came
from): it is built by running BUILDINFO's own rebuild line, sums check and all, in a
folder holding the tarball and SHA256SUMS. Each build is bounded by a timeout.

Also, cheaply: the comparison finds a planted difference and names it, and the
licence check of release/components.py fails when a licence text is missing.

    python3 -m tests.check_dist          PASS/FAIL lines; exit status 0 or 1

From Python: check() -> (ok, messages); self_test() -> (ok, message).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from release import components

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_TIMEOUT = 900


def files_under(folder):
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        found += [os.path.relpath(os.path.join(dirpath, n), folder) for n in sorted(filenames)]
    return found


def first_difference(a, b, skip=()):
    """None when folders a and b hold the same files with the same bytes (names in
    skip aside); else what differs first: a file only one has, or a file and the
    offset of its first differing byte."""
    names_a = [n for n in files_under(a) if n not in skip]
    names_b = [n for n in files_under(b) if n not in skip]
    if names_a != names_b:
        only = sorted(set(names_a) ^ set(names_b))
        return "%s is in one build only" % only[0]
    # SHA256SUMS last: the file it points at is the one to name
    for name in sorted(names_a, key=lambda n: n == "SHA256SUMS"):
        with open(os.path.join(a, name), "rb") as fa, open(os.path.join(b, name), "rb") as fb:
            da, db = fa.read(), fb.read()
        if da != db:
            at = next((i for i, (x, y) in enumerate(zip(da, db)) if x != y), min(len(da),
                                                                                 len(db)))
            return "%s differs first at offset %d (0x%X) of %d and %d bytes" % (
                name, at, at, len(da), len(db))
    return None


def tree_commit():
    """The commit to build: HEAD, or a commit of the uncommitted changes to tracked
    files (git stash create leaves the work tree and the stash list as they are)."""
    stash = subprocess.run(["git", "-C", ROOT, "-c", "user.name=apmoff tests", "-c",
                            "user.email=tests@apmoff.invalid", "stash", "create"], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    if stash:
        return stash
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def run_build(folder, command, umask, tz, lang):
    """command (an argument list, or a shell line) in folder, bounded by
    BUILD_TIMEOUT; (seconds, None) or (None, why it failed)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SOURCE_DATE_EPOCH", "MAKEFLAGS",
                                                              "MAKELEVEL", "MFLAGS")}
    env.update(TZ=tz, LC_ALL=lang, LANG=lang)
    start = time.monotonic()
    try:
        proc = subprocess.run(command, cwd=folder, env=env, shell=isinstance(command, str),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=BUILD_TIMEOUT, preexec_fn=lambda: os.umask(umask))
    except subprocess.TimeoutExpired:
        return None, "%s in %s took over %d s" % (command, folder, BUILD_TIMEOUT)
    out = proc.stdout.decode(errors="replace")
    if proc.returncode:
        return None, "%s in %s failed:\n%s" % (command, folder, out[-2000:])
    return time.monotonic() - start, None


def release_folder(folder):
    """The one folder make dist wrote under folder/dist; (path, None) or (None, why)."""
    releases = os.listdir(os.path.join(folder, "dist"))
    if len(releases) != 1:
        return None, "make dist in %s wrote %s, not one release folder" % (folder, releases)
    return os.path.join(folder, "dist", releases[0]), None


def make_dist(folder, umask, tz, lang):
    """make dist in folder; (release folder, None) or (None, why not)."""
    took, why = run_build(folder, ["make", "-j2", "--no-print-directory", "dist"], umask, tz,
                          lang)
    if why:
        return None, why
    print("  make dist (umask %03o, TZ=%s): %.0f s" % (umask, tz, took))
    return release_folder(folder)


def rebuild_check(buildinfo):
    """The shell line BUILDINFO gives for rebuilding from the tarball."""
    with open(buildinfo) as f:
        lines = [line.strip() for line in f if line.startswith("  tar xzf ")]
    return lines[0] if len(lines) == 1 else None


def check():
    messages = []
    sha = tree_commit()
    with tempfile.TemporaryDirectory(prefix="apmoff-dist.") as tmp:
        built = []
        for name, umask, tz, lang in (("a", 0o022, "UTC", "C.UTF-8"),
                                      ("b", 0o077, "Pacific/Kiritimati", "C")):
            src = os.path.join(tmp, name, "apmoff")
            subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", ROOT, src],
                           check=True)
            subprocess.run(["git", "-C", src, "-c", "advice.detachedHead=false", "checkout",
                            "-q", sha], check=True)
            release, why = make_dist(src, umask, tz, lang)
            if not release:
                return False, ["FAIL dist: " + why]
            built.append(release)
            time.sleep(1.1)     # the second build's clock is another second
        top = os.path.basename(built[0])
        diff = first_difference(*built)
        if diff:
            return False, ["FAIL dist: two builds of %s differ: %s" % (sha[:12], diff)]
        messages.append("PASS dist: two builds of %s (umask 022 and 077, two time zones) "
                        "are byte-identical: %d files" % (sha[:12], len(files_under(built[0]))))

        # BUILDINFO's recipe, as a user pastes it, in a folder holding what they
        # downloaded: it unpacks, builds and checks the sums itself
        downloaded = os.path.join(tmp, "c")
        os.makedirs(downloaded)
        for name in (top + "-src.tar.gz", "SHA256SUMS"):
            shutil.copy(os.path.join(built[0], name), downloaded)
        command = rebuild_check(os.path.join(built[0], "BUILDINFO"))
        if not command:
            return False, messages + ["FAIL dist: BUILDINFO has no one rebuild line"]
        took, why = run_build(downloaded, command, 0o022, "UTC", "C.UTF-8")
        if why:
            return False, messages + ["FAIL dist: BUILDINFO's rebuild check: " + why]
        print("  BUILDINFO's rebuild check: %.0f s" % took)
        release, why = release_folder(os.path.join(downloaded, top))
        if not release:
            return False, messages + ["FAIL dist: from the source tarball: " + why]
        diff = first_difference(built[0], release, skip=(top + "-src.tar.gz", "SHA256SUMS"))
        if diff:
            return False, messages + ["FAIL dist: the build from %s-src.tar.gz differs: %s"
                                      % (top, diff)]
        messages.append("PASS dist: BUILDINFO's rebuild check, as written, passes; a build "
                        "from %s-src.tar.gz, without git, gives the same images, kernel and "
                        "notes" % top)
    return True, messages


def self_test():
    """The comparison names a planted difference; the licence check fails on a
    missing licence text."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        for d in (a, b):
            os.makedirs(os.path.join(d, "licenses"))
            with open(os.path.join(d, "licenses", "x"), "wb") as f:
                f.write(b"same")
            with open(os.path.join(d, "img"), "wb") as f:
                f.write(b"\0" * 70000 + (b"A" if d == a else b"B") + b"\0")
        found = first_difference(a, b)
        if found != "img differs first at offset 70000 (0x11170) of 70002 and 70002 bytes":
            return False, "a planted difference at offset 70000 was reported as %r" % found
        os.unlink(os.path.join(b, "licenses", "x"))
        if first_difference(a, b) != "licenses/x is in one build only":
            return False, "a file missing from one build went unnoticed"
    fake = components.Component("Example", "test", ("/usr/bin/mformat",),
                                {"EX-COPYING": "/nonexistent/COPYING"})
    problems = components.check((fake,))
    if not any("EX-COPYING" in p for p in problems):
        return False, "a missing licence text passed the licence check"
    fake = components.Component("Example", "test", ("/nonexistent/file",), {})
    if not components.check((fake,)):
        return False, "a file no package owns passed the source check"
    return True, "a planted difference and missing licence texts and sources are caught"


def main():
    ok, message = self_test()
    print("%s dist self-test: %s" % ("PASS" if ok else "FAIL", message))
    ok2, messages = check()
    print("\n".join(messages))
    return 0 if ok and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
