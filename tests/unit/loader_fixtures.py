#!/usr/bin/env python3
"""The files the loader's host tests read (tests/unit/test_loader_*.c), made by the
tools that make the real floppy, so the tests judge loader/ against them and not
against our own idea of the formats:

    tests/unit/loader_fixtures.py OUTDIR KERNEL.elf

    OUTDIR/fat/fd2880.img ... fd360.img   mformat's five diskette formats, with 5
                            reserved sectors as iso/mkfloppy.sh makes them; each holds
                            /boot/menu.cfg, /boot/kernel.bin, /boot/sub/, /many/ (40
                            files: a directory of several clusters), 20 more files in
                            the root (a root directory of several sectors), a long
                            name (LFN entries before its 8.3 one), an empty file
    OUTDIR/fat/frag.img     1.44 MB; BIG.BIN written into the holes two deleted files
                            left; frag.runs: its clusters as mshowfat lists them
    OUTDIR/fat/small.img    32 KiB, 64 sectors (the fuzz target's seed)
    OUTDIR/files/           what was copied onto the images
    OUTDIR/lz4/index.txt    "FRAME PAYLOAD" lines: every payload (empty, one byte,
                            text, random, zeros, a repeated pattern, the kernel)
                            packed by Debian's lz4 with every frame option iso/mkfloppy.sh
                            or a user could use; small*.lz4: short frames of several
                            1 KiB blocks; legacy.lz4: lz4 -l (not a frame)
    OUTDIR/xxh/N.lz4        the first N bytes of the random payload, N = 0..40, 63-65,
                            1000: lz4's content checksum is an XXH32 computed by lz4
    OUTDIR/kernel/          apmoff.elf, apmoff-stripped.elf (objcopy --strip-all) and
                            apmoff.lz4 (lz4 -12 --content-size): iso/mkfloppy.sh's steps
    OUTDIR/mbload/          elf.bin, aout.bin: small multiboot kernels (fuzz seeds)

Deterministic: the payloads come from a seeded generator. Exits non-zero, saying why,
when a tool is missing or does not make what the tests rely on (a file that is not
fragmented, say).
"""

import os
import random
import re
import shutil
import struct
import subprocess
import sys

FORMATS = (2880, 1440, 1200, 720, 360)
RESERVED = 5
SERIAL = "0a9d0ff0"
WORDS = ("power off apm acpi bios int 15h 5307h connect real mode interface "
         "protected 16-bit 32-bit version engaged cpu idle busy standby suspend "
         "floppy loader kernel multiboot segment cluster sector track head").split()


def die(message):
    sys.exit("loader_fixtures: %s" % message)


def run(*args, **kw):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", TZ="UTC")
    proc = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kw)
    if proc.returncode:
        die("%s: %s" % (" ".join(args), proc.stderr.decode(errors="replace").strip()))
    return proc.stdout.decode(errors="replace")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def text(rng, size):
    out = []
    n = 0
    while n < size:
        w = rng.choice(WORDS)
        out.append(w)
        n += len(w) + 1
    return (" ".join(out) + "\n").encode()[:size]


def payloads(rng, kernel):
    random_bytes = bytes(rng.getrandbits(8) for _ in range(70000))
    chunk = bytes(rng.getrandbits(8) for _ in range(3000))
    return {
        "empty": b"",
        "one": b"x",
        "text": text(rng, 20000),
        "random": random_bytes,
        "zeros": bytes(300000),
        "pattern": (chunk * 67)[:200000],
        "kernel": kernel,
    }


# lz4's frame options: name, arguments.
VARIANTS = (
    ("default", []),
    ("size", ["--content-size"]),
    ("bx", ["-BX"]),
    ("b4", ["-B4"]),
    ("b4d", ["-B4", "-BD"]),
    ("b4x-size", ["-B4", "-BX", "--content-size"]),
    ("nocrc", ["--no-frame-crc"]),
    ("b4dx-nocrc", ["-B4", "-BD", "-BX", "--no-frame-crc"]),
    ("floppy", ["-12", "--content-size"]),      # iso/mkfloppy.sh's
)


def lz4(src, dst, args):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    run("lz4", "-q", "-f", *args, src, dst)


def make_lz4(out, files):
    index = []
    for name, data in files.items():
        src = os.path.join(out, "files", "lz4-" + name)
        write(src, data)
        for variant, args in VARIANTS:
            frame = os.path.join(out, "lz4", "%s.%s.lz4" % (name, variant))
            lz4(src, frame, args)
            index.append("%s %s" % (os.path.relpath(frame, out), os.path.relpath(src, out)))
    # Short frames of several 1 KiB blocks: linked, with block checksums and the size;
    # and plain. What the tests cut at every byte.
    small = os.path.join(out, "files", "lz4-small")
    write(small, files["text"][:3000])
    for variant, args in (("small", ["-B1024", "-BD", "-BX", "--content-size"]),
                          ("small-plain", ["-B1024"])):
        frame = os.path.join(out, "lz4", variant + ".lz4")
        lz4(small, frame, args)
        index.append("%s %s" % (os.path.relpath(frame, out), os.path.relpath(small, out)))
    lz4(small, os.path.join(out, "lz4", "legacy.lz4"), ["-l"])
    write(os.path.join(out, "lz4", "index.txt"), ("\n".join(index) + "\n").encode())

    rnd = files["random"]
    for n in list(range(41)) + [63, 64, 65, 1000]:
        src = os.path.join(out, "files", "xxh-%d" % n)
        write(src, rnd[:n])
        lz4(src, os.path.join(out, "xxh", "%d.lz4" % n), [])


def mtools(img, *cmds):
    for cmd in cmds:
        run(cmd[0], "-i", img, *cmd[1:])


def make_fat(out, rng):
    files = os.path.join(out, "files")
    fat = os.path.join(out, "fat")
    os.makedirs(fat, exist_ok=True)
    menu = b"timeout 5\r\ntitle apmoff: power off\r\nwords action=off\r\n"
    write(os.path.join(files, "menu.cfg"), menu)
    write(os.path.join(files, "kernel.bin"), bytes(rng.getrandbits(8) for _ in range(40000)))
    write(os.path.join(files, "readme.txt"), text(rng, 700))
    write(os.path.join(files, "empty.txt"), b"")
    for i in range(40):
        write(os.path.join(files, "many", "F%02d.TXT" % i), b"file %d\n" % i)

    for fmt in FORMATS:
        img = os.path.join(fat, "fd%d.img" % fmt)
        if os.path.exists(img):
            os.remove(img)
        run("mformat", "-i", img, "-C", "-f", str(fmt), "-R", str(RESERVED), "-v",
            "APMOFF", "-N", SERIAL, "::")
        mtools(img, ("mmd", "::/boot", "::/boot/sub", "::/many"),
               ("mcopy", os.path.join(files, "menu.cfg"), "::/boot/menu.cfg"),
               ("mcopy", os.path.join(files, "kernel.bin"), "::/boot/kernel.bin"),
               ("mcopy", os.path.join(files, "readme.txt"), "::/boot/sub/readme.txt"),
               ("mcopy", os.path.join(files, "readme.txt"), "::/Long File Name.txt"),
               ("mcopy", os.path.join(files, "empty.txt"), "::/EMPTY.TXT"))
        many = sorted(os.listdir(os.path.join(files, "many")))
        mtools(img, ("mcopy", *[os.path.join(files, "many", f) for f in many], "::/many/"))
        for i in range(20):
            mtools(img, ("mcopy", os.path.join(files, "empty.txt"), "::/R%02d.TXT" % i))
        mtools(img, ("mcopy", os.path.join(files, "readme.txt"), "::/LAST.TXT"))

    # A fragmented file: BIG.BIN fills the holes B.BIN and D.BIN leave.
    img = os.path.join(fat, "frag.img")
    if os.path.exists(img):
        os.remove(img)
    run("mformat", "-i", img, "-C", "-f", "1440", "-R", str(RESERVED), "-N", SERIAL, "::")
    for name, size in (("A", 3000), ("B", 1000), ("C", 3000), ("D", 1500), ("E", 600)):
        write(os.path.join(files, name + ".BIN"), bytes(rng.getrandbits(8) for _ in range(size)))
        mtools(img, ("mcopy", os.path.join(files, name + ".BIN"), "::/%s.BIN" % name))
    write(os.path.join(files, "BIG.BIN"), bytes(rng.getrandbits(8) for _ in range(20000)))
    mtools(img, ("mdel", "::/B.BIN"), ("mdel", "::/D.BIN"),
           ("mcopy", os.path.join(files, "BIG.BIN"), "::/BIG.BIN"))
    shown = run("mshowfat", "-i", img, "::/BIG.BIN")
    runs = re.findall(r"<(\d+)-(\d+)>", shown)
    if len(runs) < 3:
        die("BIG.BIN is not in three or more pieces: %s" % shown.strip())
    write(os.path.join(fat, "frag.runs"),
          "".join("%s %s\n" % r for r in runs).encode())

    img = os.path.join(fat, "small.img")
    if os.path.exists(img):
        os.remove(img)
    run("mformat", "-i", img, "-C", "-t", "2", "-h", "2", "-s", "16", "-c", "1", "-r", "1",
        "::")
    mtools(img, ("mmd", "::/boot"),
           ("mcopy", os.path.join(files, "menu.cfg"), "::/boot/menu.cfg"),
           ("mcopy", os.path.join(files, "readme.txt"), "::/boot/apmoff.lz4"))


def elf_kernel(entry_offset=0x20, load=0x200000):
    """A 32-bit x86 ELF executable of one PT_LOAD segment with a multiboot header."""
    flags = 0x00000003
    mb = struct.pack("<III", 0x1BADB002, flags, (-(0x1BADB002 + flags)) & 0xFFFFFFFF)
    body = mb + bytes(entry_offset - len(mb)) + b"\xF4\xEB\xFD"      # hlt; jmp $-1
    off = 0x60
    ehdr = (b"\x7fELF\x01\x01\x01" + bytes(9) +
            struct.pack("<HHIIIIIHHHHHH", 2, 3, 1, load + entry_offset, 52, 0, 0, 52, 32,
                        1, 40, 0, 0))
    phdr = struct.pack("<IIIIIIII", 1, off, load, load, len(body), len(body) + 0x1000, 7,
                       0x1000)
    image = ehdr + phdr
    return image + bytes(off - len(image)) + body


def aout_kernel(load=0x100000):
    flags = 0x00010003
    header_at = 0x10
    head = struct.pack("<III", 0x1BADB002, flags, (-(0x1BADB002 + flags)) & 0xFFFFFFFF)
    head += struct.pack("<IIIII", load + header_at, load, 0, load + 0x2000,
                        load + header_at + 32)
    return bytes(header_at) + head + b"\xF4\xEB\xFD" + bytes(61)


def main():
    if len(sys.argv) != 3:
        die("usage: loader_fixtures.py OUTDIR KERNEL.elf")
    out, elf = sys.argv[1], sys.argv[2]
    for tool in ("mformat", "mcopy", "mmd", "mdel", "mshowfat", "lz4", "objcopy"):
        if not shutil.which(tool):
            die("%s is not installed (scripts/deps.sh installs mtools, lz4, binutils)" % tool)
    os.makedirs(out, exist_ok=True)
    rng = random.Random(0xA9D0FF0)

    kdir = os.path.join(out, "kernel")
    os.makedirs(kdir, exist_ok=True)
    shutil.copyfile(elf, os.path.join(kdir, "apmoff.elf"))
    stripped = os.path.join(kdir, "apmoff-stripped.elf")
    run("objcopy", "--strip-all", elf, stripped)
    lz4(stripped, os.path.join(kdir, "apmoff.lz4"), ["-12", "--content-size"])
    with open(stripped, "rb") as f:
        kernel = f.read()

    make_fat(out, rng)
    make_lz4(out, payloads(rng, kernel))
    write(os.path.join(out, "mbload", "elf.bin"), elf_kernel())
    write(os.path.join(out, "mbload", "aout.bin"), aout_kernel())


if __name__ == "__main__":
    main()
