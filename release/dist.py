"""make dist: the release folder dist/apmoff-<version>/, what a person downloads.

    python3 -m release.dist [--out DIR]        (make dist builds the images first)

It holds the ISO and the four floppy images, each with its automation twin, the
kernel, the source tarball (git archive of the commit), a README for downloaders,
this version's section of NEWS, LICENSE, BUILDINFO, licenses/ (release/components.py)
and SHA256SUMS over all of them. Every file is written from the build and the commit
alone, dated at SOURCE_DATE_EPOCH, with fixed modes: two runs of one commit, in other
folders, at other times, under another umask or TZ, give the same bytes
(tests/check_dist.py proves it in make test).

It refuses, saying why: a tree that differs from its commit (the images would not be
the tarball's), a version with no section in NEWS, a bundled component whose licence or
source pointer is missing. In a tree unpacked from the source tarball (no git) it
makes everything but the tarball, which is the one that tree came from.
"""

import argparse
import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

from release import components

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")

# (file in build/, its name in the release after "apmoff-<version>", what it is for)
IMAGES = (
    ("apmoff.iso", ".iso", "CD-R, USB stick, or an IDE disk / CF card: BIOS and UEFI "
     "(x64 and ia32). Start here."),
    ("apmoff.img", ".img", "3.5\" 1.44 MB floppy (most PCs from about 1990)"),
    ("apmoff-1200.img", "-1200.img", "5.25\" 1.2 MB floppy, in a 1.2 MB drive"),
    ("apmoff-720.img", "-720.img", "3.5\" 720 KB floppy (720 KB, 1.44 MB or 2.88 MB drive)"),
    ("apmoff-360.img", "-360.img", "5.25\" 360 KB floppy (360 KB or 1.2 MB drive)"),
    ("apmoff-auto.iso", "-auto.iso", None),
    ("apmoff-auto.img", "-auto.img", None),
    ("apmoff-auto-1200.img", "-auto-1200.img", None),
    ("apmoff-auto-720.img", "-auto-720.img", None),
    ("apmoff-auto-360.img", "-auto-360.img", None),
    ("apmoff.elf", ".elf", "the kernel alone (multiboot 1 and 2), for your own GRUB or "
     "for qemu-system-i386 -kernel"),
)
AUTO_NOTE = ("the same images without the menu's 5 s countdown: for emulators and test "
             "rigs, not for people")


class Refused(Exception):
    """make dist cannot make a release of this tree; the message says why."""


def version_of(what):
    return subprocess.run([os.path.join(ROOT, "scripts", "version.sh"), what], check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def in_git():
    proc = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc.returncode == 0 and os.path.samefile(proc.stdout.strip(), ROOT)


def news_section(version):
    """NEWS's "## <version> (date)" section, heading included."""
    with open(os.path.join(ROOT, "NEWS")) as f:
        text = f.read()
    m = re.search(r"^## %s \(.*?(?=^## |\Z)" % re.escape(version), text, re.M | re.S)
    if not m:
        raise Refused("NEWS has no section \"## %s (date)\": write this release's notes "
                      "first (docs/release.md)" % version)
    return m.group(0).rstrip() + "\n"


def wrap_entry(name, text, width):
    """One image line of the README: the name, then its use wrapped beside it."""
    lines = textwrap.wrap(text, 78 - width - 4)
    out = ["  %-*s  %s" % (width, name, lines[0])]
    out += ["  %-*s  %s" % (width, "", rest) for rest in lines[1:]]
    return "\n".join(out)


def readme(version):
    with open(os.path.join(ROOT, "release", "README.txt")) as f:
        text = f.read()
    names = ["apmoff-%s%s" % (version, suffix) for _, suffix, _ in IMAGES]
    width = max(len(n) for n in names)
    rows = [wrap_entry(n, use, width) for n, (_, _, use) in zip(names, IMAGES) if use]
    rows.insert(len(rows) - 1, wrap_entry("apmoff-%s-auto*" % version, AUTO_NOTE, width))
    title = "apmoff %s" % version
    return (text.replace("@IMAGES@", "\n".join(rows))
            .replace("@UNDERLINE@", "=" * len(title)).replace("@VERSION@", version))


def dpkg_version(package):
    proc = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else "not installed"


def compiler_package():
    """gcc-12 on Debian 12, gcc-14 on Debian 13: the package of the gcc that builds."""
    proc = subprocess.run(["gcc", "-dumpversion"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    major = proc.stdout.strip().split(".")[0]
    return "gcc-" + major if proc.returncode == 0 and major.isdigit() else "gcc"


# BUILDINFO's rebuild check, run as written by tests/check_dist.py.
REBUILD_CHECK = ("  tar xzf %(top)s-src.tar.gz && (cd %(top)s && make dist) && "
                 "(cd %(top)s/dist/%(top)s && sha256sum -c --ignore-missing ../../../SHA256SUMS)")


def buildinfo(version, commit, epoch):
    lines = ["apmoff %s" % version,
             "commit: %s" % commit,
             "date: %s (SOURCE_DATE_EPOCH=%d: every date in the images)"
             % (time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(epoch)), epoch),
             "built with %s packages:" % components.debian_release()]
    for package in (compiler_package(), "nasm", "binutils", "grub-pc-bin", "grub-efi-amd64-bin",
                    "grub-efi-ia32-bin", "xorriso", "mtools", "console-setup-linux"):
        lines.append("  %s %s" % (package, dpkg_version(package)))
    top = "apmoff-%s" % version
    lines += ["to rebuild: in this folder, unpack %s-src.tar.gz, run make dist in %s/, and"
              % (top, top),
              "check what it built against this folder's sums (it has no source tarball of",
              "its own: --ignore-missing skips that line):",
              REBUILD_CHECK % {"top": top}]
    return "\n".join(lines) + "\n"


def source_tarball(version):
    """git archive of HEAD as .tar.gz: tar and gzip both without the time of the run
    (git dates the entries at the commit; gzip -n leaves its header's time 0)."""
    tar = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar",
                          "--prefix=apmoff-%s/" % version, "HEAD"],
                         check=True, stdout=subprocess.PIPE).stdout
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=out, mtime=0) as z:
        z.write(tar)
    return out.getvalue()


def write(path, data, epoch):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)
    os.chmod(path, 0o644)
    os.utime(path, (epoch, epoch))


def make(out_root):
    version, commit = version_of("version"), version_of("commit")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or version_of("epoch"))
    git = in_git()
    if commit.endswith("-dirty"):
        raise Refused("the tree differs from commit %s (git status): a release's images "
                      "must be built from the commit its tarball holds; commit first"
                      % commit[:-6])
    problems = components.check()
    if problems:
        raise Refused("a bundled component cannot be named as its licence asks:\n  "
                      + "\n  ".join(problems))
    for name, _, _ in IMAGES:
        if not os.path.isfile(os.path.join(BUILD, name)):
            raise Refused("build/%s is missing: make dist builds it (make all)" % name)
    notes = news_section(version)
    if git:
        tags = subprocess.run(["git", "-C", ROOT, "tag", "--points-at", "HEAD"],
                              stdout=subprocess.PIPE, text=True).stdout.split()
        if "v" + version not in tags:
            print("dist: note: HEAD is not tagged v%s: a build to test, not a release "
                  "(docs/release.md)" % version)

    top = "apmoff-%s" % version
    folder = os.path.join(out_root, top)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "licenses"))
    os.chmod(folder, 0o755)
    os.chmod(os.path.join(folder, "licenses"), 0o755)

    for name, suffix, _ in IMAGES:
        with open(os.path.join(BUILD, name), "rb") as f:
            write(os.path.join(folder, top + suffix), f.read(), epoch)
    if git:
        write(os.path.join(folder, top + "-src.tar.gz"), source_tarball(version), epoch)
    else:
        print("dist: not a git checkout: no source tarball (this tree came from one)")
    write(os.path.join(folder, "README"), readme(version), epoch)
    write(os.path.join(folder, "NEWS"), notes, epoch)
    with open(os.path.join(ROOT, "LICENSE")) as f:
        write(os.path.join(folder, "LICENSE"), f.read(), epoch)
    write(os.path.join(folder, "BUILDINFO"), buildinfo(version, commit, epoch), epoch)
    for c in components.COMPONENTS:
        for name, path in sorted(c.licences.items()):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f:
                write(os.path.join(folder, "licenses", name), f.read(), epoch)
        for name, path in c.notes:
            with open(os.path.join(ROOT, path), "rb") as f:
                write(os.path.join(folder, "licenses", name), f.read(), epoch)
    write(os.path.join(folder, "licenses", "SOURCES"), components.sources_text(), epoch)

    sums = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, folder)
            with open(path, "rb") as f:
                sums.append("%s  %s" % (hashlib.sha256(f.read()).hexdigest(), rel))
    write(os.path.join(folder, "SHA256SUMS"), "\n".join(sorted(sums, key=lambda s: s[66:]))
          + "\n", epoch)
    for d in (os.path.join(folder, "licenses"), folder):
        os.utime(d, (epoch, epoch))
    return folder


def listing(folder):
    rows = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rows.append("%10d  %s" % (os.path.getsize(path), os.path.relpath(path, folder)))
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description="make dist: the release folder")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist"),
                    help="where apmoff-<version>/ is written (default dist/)")
    args = ap.parse_args(argv)
    try:
        folder = make(args.out)
    except Refused as e:
        print("dist: refused: %s" % e, file=sys.stderr)
        return 1
    print(listing(folder))
    print("dist: %s" % os.path.relpath(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
