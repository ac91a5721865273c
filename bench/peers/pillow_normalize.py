#!/usr/bin/env python3
"""The Pillow peer of `tabicon normalize` (bench/peers.sh): one process for the whole folder.

Each input is decoded once (JPEG in draft mode, i.e. libjpeg DCT scaling, sized for the largest
rendition) and `thumbnail(LANCZOS)` makes each rendition from a copy of it; Pillow resamples
RGBA premultiplied, so edges stay clean. The renditions are the ones `tabicon` writes under the
SPEC §3 rule, never upscaling: longest side T = round(min(L, 25) × k) for k = 1, 2, 3, skipped
when T > L. Output: default PNG settings (zlib level 6), `name.png`, `name@2x.png`, `name@3x.png`.

usage: pillow_normalize.py OUTDIR INPUT...
"""
import os
import sys

from PIL import Image

BOX = 25
SCALES = (1, 2, 3)


def rint(x):
    return int(x + 0.5)  # halves away from zero (positive values)


def main():
    out, inputs = sys.argv[1], sys.argv[2:]
    for path in inputs:
        stem = os.path.splitext(os.path.basename(path))[0]
        im = Image.open(path)
        w, h = im.size
        longest = max(w, h)
        sides = [rint(min(longest, BOX) * k) for k in SCALES]
        sides = [t for t in sides if t <= longest]
        if im.format == "JPEG":
            im.draft("RGB", (max(sides), max(sides)))
        im.load()
        if im.mode not in ("RGB", "RGBA", "L", "LA"):
            im = im.convert("RGBA")
        for k, t in zip(SCALES, sides):
            r = im.copy()
            r.thumbnail((t, t), Image.LANCZOS)
            suffix = "" if k == 1 else f"@{k}x"
            r.save(os.path.join(out, f"{stem}{suffix}.png"))


if __name__ == "__main__":
    main()
