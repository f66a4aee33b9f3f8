#!/usr/bin/python3
"""The floppy images hold what apmoff's loader reads, where it reads it.

For each image (build/apmoff*.img, every format and its automation twin), without an
emulator:
  - the BPB is the format's own geometry (the loader trusts it over the drive's);
  - the reserved sectors hold the second stage, whole: its magic, a length the
    reserved count covers, and a checksum that adds up, as the boot sector checks them
    (loader/bootsect.asm);
  - /boot/menu.cfg is what iso/mkmenu.py makes of the menu the image was built from;
  - /boot/apmoff.lz4 unpacks (Debian's lz4) to the kernel without its symbols, lies in
    one run of clusters, and ends inside the disk's first DISK_MIRROR_SECTORS sectors,
    which the loader reads a cylinder at a time and uses where they lie (loader/disk.h).
It also makes sure a kernel that outgrows a format fails the build, leaving no image.

usage: check_floppy.py [BUILD_DIR]     (default build/); exit status 1 on a failure
"""

import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MTOOLS_ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")

# image suffix: (cylinders, sectors a track, the menu the Makefile builds it from)
FORMATS = {"": (80, 18), "-1200": (80, 15), "-720": (80, 9), "-360": (40, 9)}
HEADS = 2
SECTOR = 512
STAGE2_MAGIC = b"AOL2"


def mirror_sectors():
    with open(os.path.join(ROOT, "loader", "disk.h")) as f:
        return int(re.search(r"#define DISK_MIRROR_SECTORS (\d+)", f.read()).group(1))


def mtools(*args):
    return subprocess.run(list(args), check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=MTOOLS_ENV).stdout


def check_image(image, cylinders, spt, menu_cfg, stripped):
    problems = []
    with open(image, "rb") as f:
        disk = f.read()
    if len(disk) != cylinders * HEADS * spt * SECTOR:
        return ["%d bytes, not the format's %d" % (len(disk), cylinders * HEADS * spt * SECTOR)]
    (bps, cluster, reserved, fats, root_entries, total, media, fat_sectors, bpb_spt,
     heads) = struct.unpack_from("<HBHBHHBHHH", disk, 11)
    if (bps, total, bpb_spt, heads) != (SECTOR, cylinders * HEADS * spt, spt, HEADS):
        problems.append("BPB geometry %d sectors of %d bytes, %d a track, %d heads: not the "
                        "format's" % (total, bps, bpb_spt, heads))
    if disk[510:512] != b"\x55\xaa":
        problems.append("no boot signature")

    stage2 = disk[SECTOR:reserved * SECTOR]
    length = struct.unpack_from("<H", stage2, 4)[0] if len(stage2) >= 8 else 0
    if stage2[:4] != STAGE2_MAGIC:
        problems.append("the reserved sectors do not start with the second stage's magic")
    elif not 0 < length < reserved:
        problems.append("the second stage's length (%d sectors) is not inside the %d "
                        "reserved" % (length, reserved))
    elif sum(struct.unpack("<%dH" % (length * SECTOR // 2),
                           stage2[:length * SECTOR])) & 0xFFFF:
        problems.append("the second stage's words do not add up to 0 (its checksum)")

    if mtools("mtype", "-i", image, "::/boot/menu.cfg") != menu_cfg:
        problems.append("/boot/menu.cfg is not what iso/mkmenu.py makes of the menu")

    with tempfile.TemporaryDirectory() as tmp:
        packed = os.path.join(tmp, "apmoff.lz4")
        mtools("mcopy", "-n", "-i", image, "::/boot/apmoff.lz4", packed)
        unpacked = subprocess.run(["lz4", "-d", "-c", packed], stdout=subprocess.PIPE)
        if unpacked.returncode or unpacked.stdout != stripped:
            problems.append("/boot/apmoff.lz4 does not unpack to the kernel without symbols")
    chain = mtools("mshowfat", "-i", image, "::/boot/apmoff.lz4").decode()
    runs = [(a, b or a) for a, b in re.findall(r"<(\d+)(?:-(\d+))?>", chain)]
    if len(runs) != 1:
        problems.append("/boot/apmoff.lz4 is not one run of clusters: %s" % chain.strip())
    else:
        data = reserved + fats * fat_sectors + root_entries * 32 // SECTOR
        last = data + (int(runs[0][1]) - 1) * cluster
        if last >= mirror_sectors():
            problems.append("the kernel ends at sector %d, past the loader's mirror of the "
                            "first %d" % (last, mirror_sectors()))
    return problems


def check_outgrown(build):
    """A kernel too big for the loader (and the 360 KB format): the build fails, says
    so, leaves nothing. The kernel with 250 KiB of random bytes in a section: LZ4
    cannot shrink them."""
    with tempfile.TemporaryDirectory() as tmp:
        kernel, out = os.path.join(tmp, "big.elf"), os.path.join(tmp, "apmoff-360.img")
        junk = os.path.join(tmp, "junk.bin")
        with open(junk, "wb") as f:
            f.write(os.urandom(250 * 1024))
        subprocess.run(["objcopy", "--add-section", ".junk=" + junk,
                        os.path.join(build, "apmoff.elf"), kernel], check=True)
        proc = subprocess.run([os.path.join(ROOT, "iso", "mkfloppy.sh"), out, kernel,
                               os.path.join(ROOT, "iso", "grub.cfg"), "360"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = proc.stdout.decode(errors="replace")
        good = proc.returncode != 0 and not os.path.exists(out) and "does not fit" in text
        return good, ["%s mkfloppy with a 250 KiB larger kernel for 360 KB: %s" % (
            "PASS" if good else "FAIL", text.strip().splitlines()[-1] if text.strip()
            else "exit %d, no message" % proc.returncode)]


def check(build):
    messages, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "apmoff.elf")
        subprocess.run(["objcopy", "--strip-all", os.path.join(build, "apmoff.elf"), path],
                       check=True)
        with open(path, "rb") as f:
            stripped = f.read()
    menus = {}
    for base, cfg in (("apmoff", "grub.cfg"), ("apmoff-auto", "grub-auto.cfg")):
        menus[base] = subprocess.run([os.path.join(ROOT, "iso", "mkmenu.py"),
                                      os.path.join(build, cfg), "/boot/apmoff.lz4"],
                                     check=True, stdout=subprocess.PIPE).stdout
    for suffix, (cylinders, spt) in FORMATS.items():
        for base in ("apmoff", "apmoff-auto"):
            image = os.path.join(build, base + suffix + ".img")
            if not os.path.exists(image):
                ok = False
                messages.append("FAIL %s: missing (make)" % image)
                continue
            problems = check_image(image, cylinders, spt, menus[base], stripped)
            ok &= not problems
            messages.append("%s %s: %s" % ("FAIL" if problems else "PASS",
                                          os.path.basename(image), "; ".join(problems) or
                                          "BPB, second stage, menu and kernel as the loader "
                                          "reads them"))
    good, lines = check_outgrown(build)
    return ok and good, messages + lines


if __name__ == "__main__":
    ok, messages = check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    print("\n".join(messages))
    sys.exit(0 if ok else 1)
