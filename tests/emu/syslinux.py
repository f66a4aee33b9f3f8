"""ISOLINUX images from Debian's syslinux packages: the second multiboot loader the
tests boot apmoff with (mboot.c32), and make bench's yardstick (poweroff.c32)."""

import os
import shutil
import subprocess
import tempfile

ISOLINUX_BIN = "/usr/lib/ISOLINUX/isolinux.bin"
ISOHYBRID_MBR = "/usr/lib/ISOLINUX/isohdpfx.bin"
SYSLINUX_MODULES = "/usr/lib/syslinux/modules/bios"


def newer(target, *sources):
    """True when target exists and is at least as new as every source."""
    return os.path.exists(target) and all(
        os.path.getmtime(target) >= os.path.getmtime(s) for s in sources)


def build_syslinux_iso(out, kernel=None, options="action=off"):
    """ISOLINUX whose only entry runs poweroff.c32, or with a kernel, boots it with
    mboot.c32 and these options. Rebuilt only when an input is newer."""
    module = "mboot.c32" if kernel else "poweroff.c32"
    modules = [os.path.join(SYSLINUX_MODULES, m)
               for m in ("ldlinux.c32", "libcom32.c32", module)]
    stamp = out + ".options"
    same_options = os.path.exists(stamp) and open(stamp).read() == options
    if same_options and newer(out, ISOLINUX_BIN, *modules + ([kernel] if kernel else [])):
        return out
    with tempfile.TemporaryDirectory() as stage:
        boot = os.path.join(stage, "isolinux")
        os.makedirs(boot)
        for f in [ISOLINUX_BIN] + modules:
            shutil.copy(f, boot)
        entry = "  COM32 %s\n" % module
        if kernel:
            os.makedirs(os.path.join(stage, "boot"))
            shutil.copy(kernel, os.path.join(stage, "boot", "apmoff.elf"))
            entry += "  APPEND /boot/apmoff.elf %s\n" % options
        with open(os.path.join(boot, "isolinux.cfg"), "w") as f:
            f.write("DEFAULT off\nPROMPT 0\nTIMEOUT 0\nLABEL off\n" + entry)
        subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-o", out + ".tmp",
                        "-b", "isolinux/isolinux.bin", "-c", "isolinux/boot.cat",
                        "-no-emul-boot", "-boot-load-size", "4", "-boot-info-table",
                        "-isohybrid-mbr", ISOHYBRID_MBR, stage],
                       check=True, stderr=subprocess.DEVNULL)
    os.replace(out + ".tmp", out)
    with open(stamp, "w") as f:
        f.write(options)
    return out
