"""Makes a stranger's picture one zbarimg can read: grey, at most SIDE pixels on its
longer side, as PNG. Run by pictures.py as a child process under an address-space
cap (limits.zbar_memory), so a decoder that a picture drives wild takes only this
process down; it imports nothing of the collector.

    python3 -I scale.py OUT.png SIDE PIXELS < PICTURE

Why: a phone takes 50-200 megapixel photos, which ImageMagick (inside zbarimg) holds
at 8 bytes a pixel, past its resource policy or the memory a collector may use; a
smaller picture of the same code reads as well. A JPEG is decoded at 1/2, 1/4 or 1/8
of its size (libjpeg's own scaling, Pillow's draft()), so a 200-megapixel photo is
never held whole; any other picture, and a progressive JPEG (whose coefficients are
held whole), must have at most PIXELS pixels.

Exit status: 0 written; 3 more than PIXELS pixels to decode (stderr: WxH); 2 the
picture cannot be read (stderr: why); 4 Pillow is missing.
"""

import sys

TOO_LARGE, UNREADABLE, NO_PILLOW = 3, 2, 4


def decoded_size(im, side):
    """The size the picture will be decoded at. A JPEG asks libjpeg for grey (one
    byte a pixel) at the smallest scale that keeps its longer side at `side` or more;
    a progressive one still holds the coefficients of the whole picture."""
    w, h = im.size
    if im.format in ("JPEG", "MPO"):
        scale = max(1.0, max(w, h) / side)
        im.draft("CMYK" if im.mode == "CMYK" else "L",
                 (max(1, int(w / scale)), max(1, int(h / scale))))
        if im.info.get("progressive") or im.info.get("progression"):
            return w, h
    return im.size


def grey(im):
    """The picture as 8-bit grey, at its decoded size: made now, so the decoded picture
    (up to 4 bytes a pixel) can be let go before the reduction, which holds a copy
    of its own."""
    if im.mode.startswith("I"):
        return deep_grey(im)
    return im.convert("L")


def deep_grey(im):
    """16-bit grey (Pillow holds it as 32-bit "I") scaled to 0-255 through a table of
    every 16-bit value: a plain convert("L") clips at 255 and makes most such pictures
    white, and arithmetic on the pixels would hold another 32-bit copy."""
    top = max(1, min(im.getextrema()[1], 0xFFFF))
    return im.point([min(255, v * 255 // top) for v in range(0x10000)], "L")


def main(argv):
    out, side, pixels = argv[1], int(argv[2]), int(argv[3])
    try:
        from PIL import Image
    except ImportError:
        print("Pillow is not installed (Debian package python3-pil, scripts/deps.sh)",
              file=sys.stderr)
        return NO_PILLOW
    Image.MAX_IMAGE_PIXELS = None       # judged below, against PIXELS, once decoded_size
    try:
        with Image.open(sys.stdin.buffer) as im:
            w, h = decoded_size(im, side)
            if w * h > pixels:
                print("%dx%d" % (w, h), file=sys.stderr)
                return TOO_LARGE
            small = grey(im)
        small.thumbnail((side, side))           # the decoded picture is closed by now
        small.save(out, "PNG", compress_level=1)
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError,
            Image.DecompressionBombError) as e:
        print(str(e) or type(e).__name__, file=sys.stderr)
        return UNREADABLE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
