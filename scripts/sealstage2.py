#!/usr/bin/env python3
"""Seals the floppy loader's second stage for its boot sector (loader/bootsect.asm):
pads it to whole sectors and fills in its header's length in sectors (offset 4) and
the checksum word (offset 6) that makes all its 16-bit words add up to 0.

    scripts/sealstage2.py IN.bin OUT.bin
"""

import struct
import sys

MAGIC = b"AOL2"
SECTOR = 512


def seal(data):
    if data[:4] != MAGIC:
        raise ValueError("the second stage does not start with %r" % MAGIC)
    data = bytearray(data + bytes(-len(data) % SECTOR))
    struct.pack_into("<HH", data, 4, len(data) // SECTOR, 0)
    total = sum(struct.unpack("<%dH" % (len(data) // 2), data)) & 0xFFFF
    struct.pack_into("<H", data, 6, -total & 0xFFFF)
    return bytes(data)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    try:
        sealed = seal(data)
    except ValueError as e:
        print("sealstage2: %s" % e, file=sys.stderr)
        return 1
    with open(argv[2], "wb") as f:
        f.write(sealed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
