"""A screenshot of the QR screen made to look like a phone's photo of a CRT, one way
at a time, with Pillow (Debian's python3-pil): smaller, blurred, turned, seen at an
angle, JPEG-compressed, noisy, and all of those mildly at once. The survey's QR pages
must still read back from every variant (tests/emu/judges.py, QrDecodes(photos=True))."""

import os
import random

from PIL import Image, ImageFilter

GREY = 200      # what a CRT's white looks like on a photo, against the paper-white margin


def _perspective(im):
    """The screen seen from below and to the left: a keystone of about 8 %."""
    w, h = im.size
    dx, dy = w * 0.08, h * 0.05
    # Coefficients mapping output to input corners (Pillow's PERSPECTIVE transform).
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(dx, dy), (w - dx / 2, 0), (w, h), (0, h - dy)]
    return im.transform((w, h), Image.PERSPECTIVE, _coeffs(dst, src),
                        Image.BICUBIC, fillcolor=255)


def _coeffs(pa, pb):
    """Solves the 8 perspective coefficients that take points pb to pa."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(pa, pb):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    # Gaussian elimination on the 8x8 system (no numpy in the standard library).
    n = 8
    m = [row + [r] for row, r in zip(rows, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _noise(im, amount=40, seed=1):
    rnd = random.Random(seed)
    px = im.load()
    w, h = im.size
    for y in range(h):
        for x in range(w):
            px[x, y] = max(0, min(255, px[x, y] + rnd.randint(-amount, amount)))
    return im


VARIANTS = {
    "half-size": lambda im: im.resize((im.width // 2, im.height // 2), Image.BILINEAR),
    "blur-1.5px": lambda im: im.filter(ImageFilter.GaussianBlur(1.5)),
    "rotated-5deg": lambda im: im.rotate(5, Image.BICUBIC, expand=True, fillcolor=255),
    "perspective": _perspective,
    "jpeg-q40": None,           # written as JPEG, below
    "noise": lambda im: _noise(im),
    "all-mild": lambda im: _noise(_perspective(im.rotate(3, Image.BICUBIC, expand=True,
                                                          fillcolor=255))
                                  .filter(ImageFilter.GaussianBlur(1)), 20),
}


def degrade(picture, out_dir):
    """{variant name: path of the degraded picture} for one screenshot."""
    base = os.path.splitext(os.path.basename(picture))[0]
    with Image.open(picture) as im:
        grey = im.convert("L")
    # A margin of "paper" around the screen, as a photo has, so turning the picture
    # does not cut the symbol's quiet zone.
    framed = Image.new("L", (grey.width + 80, grey.height + 80), 255)
    framed.paste(grey, (40, 40))
    out = {}
    for name, make in VARIANTS.items():
        if make is None:
            path = os.path.join(out_dir, "%s-%s.jpg" % (base, name))
            framed.save(path, "JPEG", quality=40)
        else:
            path = os.path.join(out_dir, "%s-%s.png" % (base, name))
            make(framed.copy()).save(path)
        out[name] = path
    return out
