"""Whether a ROM dump is the ROM file an emulator was given, as the emulator maps it
(#52): the test suite's judge for the 86Box kit's boards and apmoff-sweep's "ROM dump"
column both ask this.

The file is compared where the machine shows it whole: the flash block below 4 GiB
(action=dump finds it on a machine with PCI; the file's last byte at FFFFFFFFh), or
else the F-segment (and the E-segment before it) as the CPU reads it, which is the
file's last 64 KiB (128 KiB) unless the BIOS runs from shadow RAM it wrote to.
Differences are counted and placed by 4 KiB piece of the file, since what a BIOS
writes to its own flash goes into whole erase blocks (the ESCD and DMI parameter
blocks of an Award BIOS: 1C000h-1DFFFh of a 128 KiB Intel 28F001BX-T, as 86Box's
intel_flash.c keeps them) and what it writes to shadow RAM is a few bytes; the verdict
names where, never hides it.
"""

from dataclasses import dataclass, field

FOUR_GIB = 1 << 32
SEGMENT = 0x10000
PIECE = 0x1000
FLASH_FROM = FOUR_GIB - (16 << 20)


@dataclass
class Agreement:
    where: str                  # "the flash at FFFE0000h", "F0000h-FFFFFh"
    compared: int               # bytes compared
    differing: int              # of those, how many differ
    pieces: list = field(default_factory=list)     # file offsets of 4 KiB pieces that differ
    file_name: str = ""

    @property
    def equal(self):
        return self.compared > 0 and self.differing == 0

    def ranges(self):
        """The differing pieces as (start, end) file offsets, adjacent ones joined."""
        out = []
        for p in self.pieces:
            if out and out[-1][1] + 1 == p:
                out[-1] = (out[-1][0], p + PIECE - 1)
            else:
                out.append((p, p + PIECE - 1))
        return out

    def text(self):
        if not self.compared:
            return "no block where the file is mapped"
        if self.equal:
            return "%s equals %s (%d KiB)" % (self.where, self.file_name or "the file",
                                             self.compared >> 10)
        return "%s differs from %s in %d of %d bytes, in %s" % (
            self.where, self.file_name or "the file", self.differing, self.compared,
            ", ".join("%Xh-%Xh" % r for r in self.ranges()))

    def only_in(self, start, length):
        """Whether every differing byte lies in file offsets [start, start + length)."""
        return all(start <= p and p + PIECE <= start + length for p in self.pieces)


def compare(where, data, truth, file_offset, file_name=""):
    diff = [i for i, (x, y) in enumerate(zip(data, truth)) if x != y]
    pieces = sorted({(file_offset + i) // PIECE * PIECE for i in diff})
    return Agreement(where, min(len(data), len(truth)), len(diff), pieces, file_name)


def candidates(files):
    """The images a machine's ROM files can make: each file as it is (a machine whose
    BIOS is a choice names every variant's); two of one size also as the halves of a
    16-bit bus (even and odd bytes, either way round) and one after the other."""
    out = list(files)
    if len(files) == 2 and len(files[0]) == len(files[1]):
        a, b = files
        out += [bytes(x for pair in zip(a, b) for x in pair),
                bytes(x for pair in zip(b, a) for x in pair), a + b, b + a]
    return out


def agree(roms, truth, file_name=""):
    """roms: {address: bytes} of a dump's whole rom blocks; truth: the file's image.
    The flash block of the file's size when there is one, else the F-segment and
    E-segment as mapped."""
    flash = sorted(a for a in roms if a >= FLASH_FROM)
    for addr in flash:
        data = roms[addr]
        if len(data) >= len(truth):
            # A part larger than the file: 86Box mirrors a small file through the
            # chip's window, so the file is the flash's top.
            top = data[-len(truth):]
            return compare("the flash at %08Xh" % (FOUR_GIB - len(truth)), top, truth, 0,
                           file_name)
        return compare("the flash at %08Xh" % addr, data, truth[-len(data):],
                       len(truth) - len(data), file_name)
    data, start = b"", 0x100000
    for addr in (0xF0000, 0xE0000):
        if addr not in roms or len(truth) < 0x100000 - addr:
            break
        data, start = roms[addr] + data, addr
    if not data:
        return Agreement("F0000h-FFFFFh", 0, 0, [], file_name)
    where = "%05Xh-FFFFFh" % start
    return compare(where, data, truth[-len(data):], len(truth) - len(data), file_name)


def best(roms, files):
    """The agreement of the image that the files ({name: bytes}) make which the dump is
    nearest to; None without files."""
    names = list(files)
    found = []
    for i, image in enumerate(candidates([files[n] for n in names])):
        name = names[i] if i < len(names) else " and ".join(names)
        found.append(agree(roms, image, name))
    return min(found, key=lambda a: (not a.compared, a.differing)) if found else None
