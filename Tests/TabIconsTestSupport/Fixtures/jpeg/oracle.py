#!/usr/bin/env python3
"""Expected JPEG decodes for JPEGDecoderTests, from Pillow (an independent libjpeg-turbo user).

Run from the package root with the public corpus beside the checkout (../shared/corpus, or
TABICONS_CORPUS):

    python3 Tests/TabIconsTestSupport/Fixtures/jpeg/oracle.py

For each corpus file below it writes what Pillow shows a user:
`ImageOps.exif_transpose(Image.open(f)).convert("RGB")` (grey files stay "L") as a binary PPM/PGM
under expected/, one file per distinct result (several corpus files decode to the same pixels:
testimgint, testimgari and testimgp are the same picture coded three ways), and expected.json
mapping each corpus file to its size, EXIF orientation, Pillow mode and expected pixels.

Pillow 13 bundles libjpeg-turbo 3.x; TabIcons links the system libjpeg-turbo 2.1. Both use the
accurate integer IDCT and fancy upsampling by default, so the tests allow ±2 per channel for IDCT
and SIMD differences between versions, and note the largest difference they see.
"""
import hashlib
import json
import os
import sys

from PIL import Image, ImageOps, features

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get(
    "TABICONS_CORPUS",
    os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "corpus"),
)

FILES = [
    "jpeg/pillow/hopper_orientation_2.jpg",
    "jpeg/pillow/hopper_orientation_3.jpg",
    "jpeg/pillow/hopper_orientation_4.jpg",
    "jpeg/pillow/hopper_orientation_5.jpg",
    "jpeg/pillow/hopper_orientation_6.jpg",
    "jpeg/pillow/hopper_orientation_7.jpg",
    "jpeg/pillow/hopper_orientation_8.jpg",
    "jpeg/testorig.jpg",          # baseline, 4:2:0
    "jpeg/testimgint.jpg",        # restart intervals
    "jpeg/testimgari.jpg",        # arithmetic coding
    "jpeg/history/testimgp.jpg",  # progressive
    "jpeg/history/testimggray.jpg",
    "jpeg/pillow/pil_sample_cmyk.jpg",  # Adobe YCCK, inverted CMYK
]

# Larger or odder files, checked by an 8×8 grid of sampled pixels and the mean colour rather than
# by every pixel (to keep the fixtures small).
SAMPLED = [
    "bad/pillow/jpeg_ff00_header.jpg",        # "4 extraneous bytes before marker 0xdb"
    "bad/pillow/junk_jpeg_header.jpg",        # "5 extraneous bytes before marker 0xdb"
    "bad/pillow/photoshop-200dpi-broken.jpg", # "16 extraneous bytes before marker 0xe1"
    "bad/pillow/truncated_app14.jpg",         # "1 extraneous bytes before marker 0xdb"
    "bad/pillow/truncated_jpeg.jpg",          # lacks only its final byte (the D9 of EOI)
    "jpeg/pillow/flower2.jpg",                # restart intervals
    "jpeg/pillow/hopper_gray.jpg",
    "jpeg/pillow/exif-72dpi-int.jpg",
    "jpeg/image-rs/portrait_2.jpg",           # 113×150, orientation 2
    "jpeg/image-rs/progressive_cat.jpg",
    "jpeg/image-rs/progressive_3.jpg",
]

# truncated_jpeg.jpg is a complete progressive file minus the last byte of its EOI marker: with
# 0xD9 appended Pillow decodes it without complaint, and that is the picture it must give.
REPAIR = {"bad/pillow/truncated_jpeg.jpg": b"\xd9"}


def shown(rel):
    """What Pillow shows for a corpus file: oriented, RGB (grey stays L)."""
    import io
    with open(os.path.join(CORPUS, rel), "rb") as f:
        data = f.read() + REPAIR.get(rel, b"")
    with Image.open(io.BytesIO(data)) as im:
        orientation = im.getexif().get(0x0112, 1)
        source_mode = im.mode
        adobe = "adobe" in im.info
        out = ImageOps.exif_transpose(im)
        out = out if out.mode == "L" else out.convert("RGB")
    return out, orientation, source_mode, adobe


def samples(image):
    """An 8×8 grid of [x, y, r, g, b] at the centres of a 16×16 division, and the mean colour."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    grid = []
    for j in range(8):
        for i in range(8):
            x, y = (2 * i + 1) * w // 16, (2 * j + 1) * h // 16
            grid.append([x, y, *rgb.getpixel((x, y))])
    data = rgb.tobytes()
    mean = [round(sum(data[c::3]) / (w * h), 3) for c in range(3)]
    return grid, mean


def main():
    out_dir = os.path.join(HERE, "expected")
    os.makedirs(out_dir, exist_ok=True)
    by_hash = {}
    entries = {}
    for rel in FILES:
        shown_image, orientation, source_mode, adobe = shown(rel)
        data = shown_image.tobytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest not in by_hash:
            stem = os.path.splitext(os.path.basename(rel))[0]
            name = stem + (".pgm" if shown_image.mode == "L" else ".ppm")
            magic = b"P5" if shown_image.mode == "L" else b"P6"
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(magic + b"\n%d %d\n255\n" % shown_image.size + data)
            by_hash[digest] = name
        entries[rel] = {
            "width": shown_image.size[0],
            "height": shown_image.size[1],
            "orientation": orientation,
            "sourceMode": source_mode,
            "adobe": adobe,
            "pixels": by_hash[digest],
            "sha256": digest,
        }
    sampled = {}
    for rel in SAMPLED:
        shown_image, orientation, source_mode, adobe = shown(rel)
        grid, mean = samples(shown_image)
        sampled[rel] = {
            "width": shown_image.size[0],
            "height": shown_image.size[1],
            "orientation": orientation,
            "sourceMode": source_mode,
            "adobe": adobe,
            "samples": grid,
            "mean": mean,
            "sha256": hashlib.sha256(shown_image.convert("RGB").tobytes()).hexdigest(),
        }
    oracle = {
        "generator": "Tests/TabIconsTestSupport/Fixtures/jpeg/oracle.py",
        "pillow": Image.__version__,
        "libjpeg-turbo": features.version("libjpeg_turbo"),
        "files": entries,
        "sampled": sampled,
    }
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(oracle, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{len(entries)} files, {len(by_hash)} distinct expected images, {len(sampled)} sampled",
          file=sys.stderr)


if __name__ == "__main__":
    main()
