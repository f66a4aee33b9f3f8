"""Drive A:'s type in a machine's CMOS, as 86Box keeps it (nvr/<machine>.nvr: the RTC
CMOS bytes from index 0).

The IBM AT layout every BIOS of the sweep's era keeps: byte 10h holds the floppy
drive types (high nibble A:, low nibble B:; 0 none, 1 360 KB, 2 1.2 MB, 3 720 KB,
4 1.44 MB, 5 2.88 MB), and bytes 2Eh-2Fh (big-endian) the sum of bytes 10h-2Dh, which
the BIOS checks at POST ("CMOS checksum error" when it is wrong). A BIOS that keeps
another checksum over these bytes reloads its defaults after a change; the sweep
sees that as the same prompt again and says so.
"""

import os

FLOPPY_TYPES = 0x10
SUM_FIRST, SUM_LAST, SUM_HIGH = 0x10, 0x2D, 0x2E
TYPE_NAMES = {0: "none", 1: "360 KB", 2: "1.2 MB", 3: "720 KB", 4: "1.44 MB", 5: "2.88 MB"}


def nvr_path(nvr_dir, machine):
    return os.path.join(nvr_dir, machine + ".nvr")


def read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data if len(data) >= 64 else None


def checksum_ok(cmos):
    total = sum(cmos[SUM_FIRST:SUM_LAST + 1])
    return (cmos[SUM_HIGH] << 8 | cmos[SUM_HIGH + 1]) == total & 0xFFFF


def drive_a(cmos):
    """Drive A:'s CMOS type (0-15), or None when the CMOS is missing or its checksum is
    wrong (then the BIOS never wrote its defaults there)."""
    if cmos is None or not checksum_ok(cmos):
        return None
    return cmos[FLOPPY_TYPES] >> 4


def set_drive_a(path, drive_type):
    """Sets drive A:'s type in the NVR file, fixing the checksum; returns the type it
    had, or None when there is no usable CMOS (nothing is written)."""
    cmos = read(path)
    if cmos is None or not checksum_ok(cmos):
        return None
    old = cmos[FLOPPY_TYPES] >> 4
    if old == drive_type:
        return old
    cmos = bytearray(cmos)
    cmos[FLOPPY_TYPES] = (drive_type << 4) | (cmos[FLOPPY_TYPES] & 0x0F)
    total = sum(cmos[SUM_FIRST:SUM_LAST + 1]) & 0xFFFF
    cmos[SUM_HIGH], cmos[SUM_HIGH + 1] = total >> 8, total & 0xFF
    os.chmod(path, 0o644)
    with open(path, "wb") as f:
        f.write(cmos)
    return old


# The standard part of the AT CMOS, as a BIOS's setup writes it (the IBM AT
# Technical Reference's map): what write_standard() puts in bytes 10h-2Dh.
HARD_DISK_TYPES = 0x12      # 0: no hard disk
EQUIPMENT = 0x14            # bit 0 floppy drives present, bits 4-5 display (00: EGA/VGA)
BASE_KB = 0x15              # 15h-16h, little-endian: 640
EXT_KB = 0x17               # 17h-18h, little-endian: KB above 1 MB
EXT_KB_POST = 0x30          # 30h-31h: the same, as POST found it (outside the checksum)


def write_standard(path, drive_type, ext_kb):
    """Writes a standard AT CMOS part into a CMOS the BIOS never set up (86Box's fresh
    CMOS is all FFh: a 1993 AMIBIOS reads drive A: 2.88 MB and hard disk type 255
    there, sums it as it is and boots on with no prompt): drive A: of drive_type,
    no drive B: or hard disk, a VGA, 640 KB and ext_kb of extended memory, the
    checksum right. The bytes outside 10h-2Dh (the vendor's own) are left as they are.
    Returns False when there is no CMOS file to write."""
    data = read(path)
    if data is None:
        return False
    cmos = bytearray(data)
    cmos[SUM_FIRST:SUM_LAST + 1] = bytes(SUM_LAST + 1 - SUM_FIRST)
    cmos[FLOPPY_TYPES] = drive_type << 4
    cmos[HARD_DISK_TYPES] = 0
    cmos[EQUIPMENT] = 0x01
    ext_kb = min(ext_kb, 0xFFFF)
    cmos[BASE_KB:BASE_KB + 2] = (640).to_bytes(2, "little")
    cmos[EXT_KB:EXT_KB + 2] = ext_kb.to_bytes(2, "little")
    cmos[EXT_KB_POST:EXT_KB_POST + 2] = ext_kb.to_bytes(2, "little")
    total = sum(cmos[SUM_FIRST:SUM_LAST + 1]) & 0xFFFF
    cmos[SUM_HIGH], cmos[SUM_HIGH + 1] = total >> 8, total & 0xFF
    os.chmod(path, 0o644)
    with open(path, "wb") as f:
        f.write(cmos)
    return True
