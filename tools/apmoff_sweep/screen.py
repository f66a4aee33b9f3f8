"""What a BIOS screen says: 86Box's screenshot (a PNG, SIGUSR1 with the kit's patch)
read back as lines of text, with the standard library only.

A BIOS in POST draws in a text mode: 80 columns of 8 or 9 pixels, 25 (or 30, 43, 50)
rows of 8, 14 or 16. Each cell is cut out of the picture, its most common colour
taken as the background, and the rest compared bit for bit with the glyphs of a VGA
font of the cell's height: the console fonts Debian ships (console-setup-linux,
Lat15-VGA8/14/16, drawn after IBM's VGA ROM font that the video BIOSes 86Box runs
clone). The nearest glyph within a tolerance is the character; a cell that is
nothing like any glyph (a logo, a box corner) reads as a space, so a prompt's words
still read as words. The video BIOS's own font differs from Debian's by a few pixels
in some glyphs; the tolerance is for that.
"""

import gzip
import itertools
import os
import struct
import zlib

from tools.psf import parse_psf

FONT_DIR = "/usr/share/consolefonts"
FONTS = {8: "Lat15-VGA8.psf.gz", 14: "Lat15-VGA14.psf.gz", 16: "Lat15-VGA16.psf.gz"}
# A cell matches a glyph when at most this share of its 8 x height pixels differ:
# Debian's font against a clone's ROM font differs by a pixel or two a glyph, a
# different character by far more (E and F: 7 of 128 pixels at 8x16).
TOLERANCE = 0.05
# Code page 437's shades, box drawing and blocks (B0h-DFh): a setup's backdrop and its
# windows' frames. They carry no words; a cell drawn with one reads as a blank and
# does not count against the grid (IBM's SurePath setup fills the screen with B1h).
FILLS = range(0xB0, 0xE0)
# Text modes by picture size: (columns, cell height) candidates.
ROW_COUNTS = (25, 30, 43, 50, 60)


class ScreenError(Exception):
    """The picture cannot be read."""


# --- PNG ----------------------------------------------------------------------------

def read_png(path):
    """(width, height, rows) of an 8-bit RGB or RGBA PNG; rows are bytes of RGB."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ScreenError("cannot read %s: %s" % (path, e.strerror))
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ScreenError("%s is not a PNG" % path)
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if not header:
        raise ScreenError("%s has no IHDR" % path)
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ScreenError("%s: PNG of depth %d, colour type %d, interlace %d (86Box writes "
                          "8-bit RGB)" % (path, depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as e:
        raise ScreenError("%s: %s" % (path, e))
    stride = width * bpp
    if len(raw) < (stride + 1) * height:
        raise ScreenError("%s is cut short" % path)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        unfilter(kind, line, prev, bpp)
        rows.append(bytes(line) if bpp == 3 else bytes(
            b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows


def unfilter(kind, line, prev, bpp):
    """PNG's five row filters, undone in place."""
    n = len(line)
    if kind == 0:
        return
    if kind == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xFF
    elif kind == 2:
        if any(prev):
            line[:] = bytes((a + b) & 0xFF for a, b in zip(line, prev))
    elif kind == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    else:
        raise ScreenError("unknown PNG filter %d" % kind)


# --- fonts --------------------------------------------------------------------------

# Video BIOSes of the ROM set whose fonts are IBM's (the clones copy IBM's glyphs), by
# their place in a 86Box ROM directory. A VGA BIOS holds 8x8 and 8x16 fonts and most an
# 8x14 one; one without (Cirrus Logic's GD5446) makes its 14-line glyphs from the
# 16-line ones by leaving out two lines, not the same two in every glyph, so each
# 16-line glyph less any two of its lines is a candidate for a 14-pixel cell.
FONT_ROMS = ("video/cirruslogic/5428.bin", "video/cirruslogic/5446bv.vbi",
             "video/ega/ibm_6277356_ega_card_u44_27128.bin")
# Glyph 1, the smiley, of IBM's fonts: where each font table is found in a ROM.
SMILEY = {16: bytes.fromhex("00007e81a58181bd9981817e00000000"),
          14: bytes.fromhex("00007e81a58181bd99817e000000"),
          8: bytes.fromhex("7e81a581bd99817e")}


# A VGA BIOS's 9-dot alternates (the glyphs of M, T, V, W, X, ... for 720-pixel text
# modes, where the 9th column is the 8th repeated for some): records of a character
# code and its glyph, ended by a 0 code. Found by their M.
NINE_DOT_M = {16: bytes.fromhex("4d0000c3e7ffffdbc3c3c3c3c300000000"),
              14: bytes.fromhex("4d0000c3e7ffdbc3c3c3c3c3000000")}


def nine_dot(data):
    """{height: {character: glyph}} of the 9-dot alternate tables in a video BIOS."""
    out = {}
    for height, m in NINE_DOT_M.items():
        at = data.find(m)
        if at < 0:
            continue
        size = height + 1
        start = at
        while start - size >= 0 and 0 < data[start - size] < data[start]:
            start -= size
        glyphs = {}
        pos = start
        while pos + size <= len(data) and data[pos]:
            if 0x21 <= data[pos] < 0x7F:
                glyphs[chr(data[pos])] = data[pos + 1:pos + size]
            pos += size
        out[height] = glyphs
    return out


def rom_fonts(data):
    """{height: 256 glyphs} of the IBM-style font tables in a video BIOS image: a
    smiley right after an empty glyph 0."""
    out = {}
    for height, smiley in SMILEY.items():
        at = data.find(smiley)
        while at >= 0:
            base = at - height
            if base >= 0 and not any(data[base:at]) and base + 256 * height <= len(data):
                out[height] = [data[base + i * height:base + (i + 1) * height]
                               for i in range(256)]
                break
            at = data.find(smiley, at + 1)
    return out


class Fonts:
    """The glyphs a cell is compared with, by cell height: [(bits, character)], the
    printable ASCII characters of every font found, the ROM set's first, Debian's
    console fonts after them, and last the 14-line glyphs made from 16-line ones."""

    def __init__(self, rom_dir=None, font_dir=FONT_DIR):
        self.by_height = {8: [], 14: [], 16: []}
        self.fills = {8: set(), 14: set(), 16: set()}
        self.derived = []
        self.derived_tall = {}
        self.sources = []
        for rel in FONT_ROMS if rom_dir else ():
            path = os.path.join(rom_dir, rel)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            tables = rom_fonts(data)
            if tables:
                self.sources.append(rel)
            for height, glyphs in sorted(tables.items()):
                self.add(height, {chr(c): glyphs[c] for c in range(0x21, 0x7F)})
                self.add_fills(height, [glyphs[c] for c in FILLS])
            for height, glyphs in sorted(nine_dot(data).items()):
                self.add(height, glyphs, derive=False)
        for height, name in sorted(FONTS.items()):
            try:
                with gzip.open(os.path.join(font_dir, name)) as f:
                    glyphs, glyph_height, table = parse_psf(f.read())
            except OSError:
                continue
            except ValueError as e:
                raise ScreenError("%s: %s" % (name, e))
            if glyph_height != height:
                continue
            self.sources.append(name)
            self.add(height, {chr(c): glyphs[table.get(c, c)] for c in range(0x21, 0x7F)
                              if table.get(c, c) < len(glyphs)}, derive=False)
        if not any(self.by_height.values()):
            raise ScreenError("no font to read screens with: neither a video BIOS of %s "
                              "in the ROM directory nor %s (package console-setup-linux)"
                              % (", ".join(FONT_ROMS), FONT_DIR))
        self.native16 = list(self.by_height[16])
        self._stretched = {}
        self.by_height[14] += self.derived
        for tall, glyphs in self.derived_tall.items():
            self.by_height[tall] += glyphs

    def add(self, height, glyphs, derive=True):
        for ch, glyph in glyphs.items():
            self.by_height[height].append((int.from_bytes(glyph, "big"), ch))
            if height == 16 and derive:
                self.derived.extend((int.from_bytes(g, "big"), ch) for g in shorter(glyph))
            if height == 8 and derive:
                # AMI's WinBIOS setup loads 8x8 glyphs into a 14-line mode, a few lines
                # down in each cell.
                for tall in (14, 16):
                    self.derived_tall.setdefault(tall, []).extend(
                        (int.from_bytes(bytes(top) + glyph + bytes(tall - 8 - top), "big"), ch)
                        for top in range(tall - 7))

    def add_fills(self, height, glyphs):
        """Each as drawn and inverted: in a cell half lit (B1h), which colour is the
        background is a toss-up."""
        every = (1 << 8 * height) - 1
        for glyph in glyphs:
            bits = int.from_bytes(glyph, "big")
            self.fills[height].update((bits, bits ^ every))
        self.fills[height].discard(0)

    def glyphs(self, height):
        return self.by_height.get(height) or []

    def stretched(self, height):
        """The 16-line glyphs drawn `height` lines high, each line repeated where it
        falls (two phases: which lines a font designer doubled is not known)."""
        if height not in self._stretched:
            out = []
            for bits, ch in self.native16:
                lines = [bits >> (8 * (15 - r)) & 0xFF for r in range(16)]
                for phase in STRETCH_PHASES:
                    out.append((int.from_bytes(bytes(
                        lines[min(15, int((i + phase) * 16 / height))]
                        for i in range(height)), "big"), ch))
            self._stretched[height] = out
        return self._stretched[height]


def shorter(glyph):
    """A 16-line glyph made 14 lines high the way a VGA BIOS without an 8x14 font does
    it: two lines left out, each a blank one or the same as the line above it (so the
    shape stays: an O does not lose its top and become a U)."""
    droppable = [k for k in range(16) if not glyph[k] or (k and glyph[k] == glyph[k - 1])]
    return {bytes(b for k, b in enumerate(glyph) if k not in (i, j))
            for i, j in itertools.combinations(droppable, 2)}


# --- reading the text ---------------------------------------------------------------

def grid(width, height):
    """(columns, rows, cell width, cell height) of a text mode this picture can be,
    or None (a graphics mode: a full-screen logo)."""
    for columns in (80, 40):
        if width % columns or width // columns not in (8, 9, 16, 18):
            continue
        for rows in ROW_COUNTS:
            if height % rows == 0 and height // rows in FONTS:
                return columns, rows, width // columns, height // rows
    return None


def cell_bits(rows, x0, y0, cell_w, cell_h):
    """(bits, lit pixels) of one cell: 1 where the pixel is not the cell's most common
    colour. Only the first 8 columns: the 9th of a 9-dot font is the gap."""
    counts = {}
    step = max(1, cell_w // 8) * 3
    for y in range(y0, y0 + cell_h):
        row = rows[y]
        for x in range(x0 * 3, (x0 + 8 * (step // 3)) * 3, step):
            px = row[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    background = max(counts, key=counts.get)
    bits = lit = 0
    for y in range(y0, y0 + cell_h):
        row = rows[y]
        for x in range(x0 * 3, (x0 + 8 * (step // 3)) * 3, step):
            bits <<= 1
            if row[x:x + 3] != background:
                bits |= 1
                lit += 1
    return bits, lit


def read_text(path, fonts):
    """The screen in the picture as a list of lines (trailing spaces stripped); []
    when nothing on it reads as text (a full-screen logo).

    First as a text mode's grid (80 columns of 8 or 9 pixels, 25 to 60 rows of 8, 14
    or 16). When too few of its cells read as characters, the lines are found where
    they are (read_bands): some BIOSes (Intel's boards, Phoenix 4.0 with a logo) write
    in a 640x480 mode with a font of 19 or 20 lines, which no grid fits."""
    width, height, rows = read_png(path)
    shape = grid(width, height)
    lines, read, lit = read_grid(rows, shape, fonts) if shape else ([], 0, 0)
    if lit and read >= GRID_TRUST * lit:
        return lines
    cell_w = 9 if width % 9 == 0 and width // 9 in (40, 80) else 8
    band_lines, band_read, band_lit = read_bands(rows, width, height, cell_w, fonts)
    if band_lit and (not lit or band_read / band_lit > read / lit):
        return band_lines
    return lines


# The share of lit cells a text grid must read as characters to be trusted: a text
# screen reads nearly whole (its logo's cells do not), a misaligned one hardly at all.
GRID_TRUST = 0.7
BAND_GAP = 2            # blank pixel rows a line of text may have inside it (":", "i")
BAND_MAX = 24           # a band taller than this is a picture, not a line
BAND_TOLERANCE = 0.08   # a stretched glyph is a rougher copy: more pixels may differ
STRETCH_PHASES = (0.0, 0.25, 0.5, 0.75)


def read_line(rows, top, columns, cell_w, cell_h, glyphs, limit, memo, fills=()):
    """(text, cells read, cells lit) of one line of cells whose top is pixel row top."""
    chars, read, lit = [], 0, 0
    for c in range(columns):
        bits, on = cell_bits(rows, c * cell_w, top, cell_w, cell_h)
        if not on or bits in fills:
            chars.append(" ")
            continue
        lit += 1
        if bits not in memo:
            memo[bits] = nearest(bits, glyphs, limit)
        ch = memo[bits]
        read += ch != " "
        chars.append(ch)
    return "".join(chars).rstrip(), read, lit


def read_grid(rows, shape, fonts):
    columns, nrows, cell_w, cell_h = shape
    glyphs = fonts.glyphs(cell_h)
    limit = int(8 * cell_h * TOLERANCE)
    memo, lines, read, lit = {}, [], 0, 0
    for r in range(nrows):
        text, n_read, n_lit = read_line(rows, r * cell_h, columns, cell_w, cell_h, glyphs,
                                        limit, memo, fonts.fills.get(cell_h, ()))
        lines.append(text)
        read, lit = read + n_read, lit + n_lit
    return lines, read, lit


def read_bands(rows, width, height, cell_w, fonts):
    """Lines found as bands of pixel rows with something on them. Their pitch (the
    most common distance between two lines' tops) is the font's height; a 19- or
    20-line font is matched as the 16-line glyphs stretched to it (Fonts.stretched),
    each line at the cell top, a few rows above its first lit row, where most of it
    reads."""
    blank = most_common(rows, width, height) * width
    ink = [rows[y] != blank for y in range(height)]
    bands, y = [], 0
    while y < height:
        if not ink[y]:
            y += 1
            continue
        top = y
        while y < height and any(ink[y:y + BAND_GAP + 1]):
            y += 1
        if y - top <= BAND_MAX:
            bands.append(top)
    steps = [b - a for a, b in zip(bands, bands[1:]) if 14 <= b - a <= BAND_MAX]
    pitch = max(set(steps), key=steps.count) if steps else 16
    glyphs = fonts.glyphs(pitch) if pitch in FONTS else fonts.stretched(pitch)
    limit = int(8 * pitch * BAND_TOLERANCE)
    columns = width // cell_w
    memo, lines, read, lit, done = {}, [], 0, 0, -1
    for band in bands:
        if band < done:
            continue            # inside the line read last
        best = None
        for top in range(max(0, band - pitch // 4 - 1), band + 1):
            if top + pitch > height:
                break
            found = read_line(rows, top, columns, cell_w, pitch, glyphs, limit, memo)
            if best is None or found[1] > best[0][1]:
                best = (found, top)
        if best is None:
            continue
        (text, n_read, n_lit), top = best
        lines.append(text)
        read, lit, done = read + n_read, lit + n_lit, top + pitch
    return lines, read, lit


def most_common(rows, width, height):
    """The picture's most common colour (sampled): its background."""
    counts = {}
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width * 3, 12):
            px = row[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    return max(counts, key=counts.get)


def nearest(bits, glyphs, limit):
    best, char = limit + 1, " "
    for glyph, ch in glyphs:
        d = (bits ^ glyph).bit_count()
        if d < best:
            best, char = d, ch
    return char
