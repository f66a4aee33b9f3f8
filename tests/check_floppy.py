#!/usr/bin/python3
"""The floppy images load GRUB's core in every drive that takes their disk.

GRUB's boot sector (boot.S) turns LBAs into cylinder/head/sector with the geometry
INT 13h AH=08h gives, and for a diskette that is the drive's largest format; it keeps
it at 7C04h-7C0Eh for diskboot.S, which reads the block lists with it. This check
models that read path (not GRUB's code: what it does with the kept geometry, and
what a diskette answers for a sector its track lacks) for each image and each drive
that takes its disk, and the core that arrives at 8000h must be /boot/grub/core.img.
It also makes sure a kernel that outgrows a format fails the build, leaving no image.

usage: check_floppy.py [BUILD_DIR]     (default build/); exit status 1 on a failure
"""

import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# image suffix: (tracks, sectors a track, [(drive, AH=08h sectors, AH=08h cylinders)])
FORMATS = {
    "": (80, 18, [("3.5\" 1.44 MB", 18, 80)]),
    "-1200": (80, 15, [("5.25\" 1.2 MB", 15, 80)]),
    "-720": (80, 9, [("3.5\" 720 KB", 9, 80), ("3.5\" 1.44 MB", 18, 80),
                     ("3.5\" 2.88 MB", 36, 80)]),
    "-360": (40, 9, [("5.25\" 360 KB", 9, 40), ("5.25\" 1.2 MB", 15, 80)]),
}
HEADS = 2
KERNEL_SECTOR = 0x5C            # boot.img: LBA of the core's first sector
KEPT = 0x7C04                   # mode, sectors (4), heads (4), cylinders (2)
FIRST_LIST = 0x8000 + 0x1F4     # diskboot.img's first block list; the next 12 bytes lower


class ReadError(Exception):
    pass


def load_core(disk, tracks, spt, drive_spt, drive_cyls):
    """The memory a boot leaves from 7C00h up: boot.S keeps the drive's geometry and
    loads one sector to 8000h, diskboot.S follows its lists (each read at most up to
    the end of a track, as the kept geometry has it)."""
    mem = bytearray(0x80000)

    def read(lba, count):
        s_all, h_all = mem[KEPT + 1:KEPT + 5], mem[KEPT + 5:KEPT + 9]
        kept_spt, kept_heads = struct.unpack("<I", s_all)[0], struct.unpack("<I", h_all)[0]
        kept_cyls = struct.unpack("<H", mem[KEPT + 9:KEPT + 11])[0]
        sector, head = lba % kept_spt, lba // kept_spt % kept_heads
        cyl = lba // kept_spt // kept_heads
        if cyl >= kept_cyls:
            raise ReadError("Geom Error at LBA %d" % lba)
        count = min(count, kept_spt - sector)
        if cyl >= tracks or sector + count > spt:   # the diskette has no such sector
            raise ReadError("Read Error at LBA %d (C%d H%d S%d, %d sectors)"
                            % (lba, cyl, head, sector + 1, count))
        at = ((cyl * HEADS + head) * spt + sector) * 512
        return disk[at:at + count * 512], count

    mem[0x7C00:0x7E00] = disk[:512]
    mem[KEPT:KEPT + 11] = struct.pack("<BIIH", 0, drive_spt, HEADS, drive_cyls)
    data, _ = read(struct.unpack_from("<Q", disk, KERNEL_SECTOR)[0], 1)
    mem[0x8000:0x8200] = data
    lists = FIRST_LIST
    while True:
        lba, count, seg = struct.unpack_from("<QHH", mem, lists)
        if count == 0:
            return mem
        while count:
            data, n = read(lba, count)
            mem[seg * 16:seg * 16 + len(data)] = data
            lba, count, seg = lba + n, count - n, seg + n * 32
        lists -= 12


def core_file(image):
    out = subprocess.run(["mtype", "-i", image, "::/boot/grub/core.img"], check=True,
                         stdout=subprocess.PIPE, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return out.stdout


def check_image(image, tracks, spt, drives):
    messages, ok = [], True
    with open(image, "rb") as f:
        disk = f.read()
    name = os.path.basename(image)
    if len(disk) != tracks * HEADS * spt * 512 or disk[510:512] != b"\x55\xaa":
        return False, ["FAIL %s: not a %d-byte image with a boot signature" % (name, len(disk))]
    core = core_file(image)
    for drive, drive_spt, drive_cyls in drives:
        try:
            mem = load_core(disk, tracks, spt, drive_spt, drive_cyls)
            good = mem[0x8000:0x8000 + len(core)] == core
            why = "core.img at 8000h" if good else "8000h does not hold core.img"
        except ReadError as e:
            good, why = False, str(e)
        ok &= good
        messages.append("%s %s in a %s drive (AH=08h: %d sectors a track): %s" %
                        ("PASS" if good else "FAIL", name, drive, drive_spt, why))
    return ok, messages


def check_outgrown(build):
    """A kernel too big for the 360 KB format: the build fails, says so, leaves nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        kernel, out = os.path.join(tmp, "big.elf"), os.path.join(tmp, "apmoff-360.img")
        with open(kernel, "wb") as f:
            f.write(os.urandom(200 * 1024))          # random: LZMA cannot shrink it
        proc = subprocess.run([os.path.join(ROOT, "iso", "mkfloppy.sh"), out, kernel,
                               os.path.join(ROOT, "iso", "grub.cfg"), "360"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = proc.stdout.decode(errors="replace")
        good = proc.returncode != 0 and not os.path.exists(out) and "does not fit" in text
        return good, ["%s mkfloppy with a 200 KiB kernel for 360 KB: %s" % (
            "PASS" if good else "FAIL", text.strip().splitlines()[-1] if text.strip()
            else "exit %d, no message" % proc.returncode)]


def check(build):
    messages, ok = [], True
    for suffix, (tracks, spt, drives) in FORMATS.items():
        for base in ("apmoff", "apmoff-auto"):
            image = os.path.join(build, base + suffix + ".img")
            if not os.path.exists(image):
                ok = False
                messages.append("FAIL %s: missing (make)" % image)
                continue
            good, lines = check_image(image, tracks, spt, drives)
            ok &= good
            messages += lines
    good, lines = check_outgrown(build)
    return ok and good, messages + lines


if __name__ == "__main__":
    ok, messages = check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    print("\n".join(messages))
    sys.exit(0 if ok else 1)
