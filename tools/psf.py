"""PSF console fonts (PSF1 and PSF2, as Debian's console-setup ships them): the
glyphs, their height, and which glyph draws each Unicode code point. Read by the
kernel's font build (scripts/mkfont.py) and by apmoff-sweep's screen reader.
"""

import struct


def parse_psf(data):
    """(glyphs, height, {code point: glyph index}) of a PSF1 or PSF2 font; ValueError
    for anything else (a PSF2 font must be 8 pixels wide)."""
    if data[:2] == b"\x36\x04":                       # PSF1
        mode, height = data[2], data[3]
        count = 512 if mode & 1 else 256
        glyphs = [data[4 + i * height:4 + (i + 1) * height] for i in range(count)]
        table = {}
        if mode & 2:                                  # Unicode table: u16 lists, FFFF-ended
            pos = 4 + count * height
            for index in range(count):
                while pos + 2 <= len(data):
                    (u,) = struct.unpack_from("<H", data, pos)
                    pos += 2
                    if u == 0xFFFF:
                        break
                    if u != 0xFFFE:
                        table.setdefault(u, index)
        return glyphs, height, table
    if len(data) < 32:
        raise ValueError("not a PSF font")
    magic, _, header, flags, count, size, height, width = struct.unpack_from("<8I", data)
    if magic != 0x864AB572 or width != 8:
        raise ValueError("not an 8-pixel-wide PSF font")
    glyphs = [data[header + i * size:header + (i + 1) * size] for i in range(count)]
    table = {}
    if flags & 1:                                     # UTF-8 sequences, FF-ended
        pos = header + count * size
        for index in range(count):
            end = data.index(b"\xff", pos)
            for ch in data[pos:end].split(b"\xfe")[0].decode("utf-8", "replace"):
                table.setdefault(ord(ch), index)
            pos = end + 1
    return glyphs, height, table
