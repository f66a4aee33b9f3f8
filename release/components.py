"""What apmoff's images carry that apmoff did not write, and under which licence.

A binary release must name each bundled component's licence and say where its
corresponding source is. Each component here names the files of this machine it
comes from (so the check knows it really is what the build used), the Debian package
that installed them (whose source package and version are the source pointer), and
the licence texts that go into dist/licenses/. check() fails, naming what is missing,
when a licence text or a source pointer cannot be found: `make dist` stops there.

    python3 -m release.components      the components and their sources; exit 1 if any
                                       licence or source pointer is missing
"""

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Component:
    def __init__(self, name, what, evidence, licences, notes=()):
        self.name = name
        self.what = what            # how it is in the images
        self.evidence = evidence    # files the build reads, each from a Debian package
        self.licences = licences    # {name in dist/licenses/: file on this machine}
        self.notes = notes          # (name in dist/licenses/, text or repository file)


COMPONENTS = (
    Component(
        "GRUB 2", "the ISO's boot loader: the El Torito core and boot_hybrid.img MBR, "
        "BOOTX64.EFI and BOOTIA32.EFI in its EFI partition (the floppies boot through "
        "apmoff's own loader); GPL-3.0-or-later",
        ("/usr/lib/grub/i386-pc/relocator.mod", "/usr/lib/grub/x86_64-efi/normal.mod",
         "/usr/lib/grub/i386-efi/normal.mod"),
        {"GRUB-COPYING": "/usr/share/common-licenses/GPL-3",
         "GRUB-copyright": "/usr/share/doc/grub-pc-bin/copyright"},
        (("GRUB-relocator-patch.py", "iso/grub-no-cr4.py"),
         ("GRUB-relocator-patch.txt", "release/relocator-patch.txt"))),
    Component(
        "Lat15-VGA16 console font", "the kernel's framebuffer font (build/font8x16.c, "
        "scripts/mkfont.py), from console-setup's fonts; permissive licence of its source "
        "BDF font",
        ("/usr/share/consolefonts/Lat15-VGA16.psf.gz",),
        {"font-copyright": "/usr/share/doc/console-setup-linux/copyright.fonts.gz"}),
    Component(
        "mtools", "the boot sector mformat writes into the ISO's EFI partition (FAT) "
        "image; GPL-3.0-or-later",
        ("/usr/bin/mformat",),
        {"mtools-COPYING": "/usr/share/common-licenses/GPL-3",
         "mtools-copyright": "/usr/share/doc/mtools/copyright"}),
)


def debian_release():
    """"Debian 12", "Debian 13": the release whose packages the images are built from
    (/etc/os-release's VERSION_ID; the whole PRETTY_NAME elsewhere)."""
    fields = {}
    try:
        with open("/etc/os-release") as f:
            for line in f:
                key, _, value = line.strip().partition("=")
                fields[key] = value.strip('"')
    except OSError:
        return "an unknown system"
    if fields.get("ID") == "debian" and fields.get("VERSION_ID"):
        return "Debian " + fields["VERSION_ID"]
    return fields.get("PRETTY_NAME", "an unknown system")


def package_of(path):
    """The Debian package that installed path, or None."""
    proc = subprocess.run(["dpkg-query", "-S", path], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    if proc.returncode != 0 or ":" not in proc.stdout:
        return None
    return proc.stdout.split(":", 1)[0].split(",")[0].strip()


def source_of(package):
    """(source package, version) of an installed binary package, or None."""
    proc = subprocess.run(["dpkg-query", "-W", "-f", "${source:Package} ${source:Version}",
                           package], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
    words = proc.stdout.split()
    return tuple(words) if proc.returncode == 0 and len(words) == 2 else None


def sources(component):
    """[(binary package, source package, version)] of the component's files; raises
    LookupError naming a file no package owns."""
    found = []
    for path in component.evidence:
        package = package_of(path)
        src = source_of(package) if package else None
        if not src:
            raise LookupError("%s: no Debian package says it installed %s, so its source "
                              "cannot be named" % (component.name, path))
        if (package,) + src not in found:
            found.append((package,) + src)
    return found


def check(components=COMPONENTS, root=ROOT):
    """[problem] for every missing licence text, note or source pointer ([] when the
    release can name them all)."""
    problems = []
    for c in components:
        for name, path in c.licences.items():
            if not os.path.isfile(path):
                problems.append("%s: licence text %s (%s) is missing" % (c.name, name, path))
        for name, path in c.notes:
            if not os.path.isfile(os.path.join(root, path)):
                problems.append("%s: %s (%s) is missing" % (c.name, name, path))
        try:
            sources(c)
        except LookupError as e:
            problems.append(str(e))
    return problems


def sources_text(components=COMPONENTS):
    """dist/licenses/SOURCES: each component, its licence files, and where its
    corresponding source is."""
    out = ["Components of the apmoff images that apmoff did not write, and where their",
           "corresponding source is. apmoff's own source is apmoff-<version>-src.tar.gz.", ""]
    for c in components:
        out += textwrap.wrap("%s: %s." % (c.name, c.what), 78)
        out.append("  licence: %s" % ", ".join(sorted(c.licences) + [n for n, _ in c.notes]))
        by_source = {}
        for package, src, version in sources(c):
            by_source.setdefault((src, version), []).append(package)
        for (src, version), packages in by_source.items():
            out.append("  from %s's %s, source package %s %s:"
                       % (debian_release(), ", ".join(packages), src, version))
            out.append("    apt-get source %s=%s" % (src, version))
            out.append("    https://snapshot.debian.org/package/%s/%s/" % (src, version))
        out.append("")
    return "\n".join(out)


def main():
    problems = check()
    for p in problems:
        print("missing: " + p)
    if not problems:
        print(sources_text(), end="")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
