#!/usr/bin/env python3
"""Expected values for the WebP decoder tests, from an independent decoder: Pillow.

Run from anywhere:  python3 Tests/TabIconsTestSupport/Fixtures/webp/make_expected.py [CORPUS]
(CORPUS defaults to ../shared/corpus beside the package, as Tests/TabIconsTestSupport/Fixtures.swift finds
it). Writes expected.json beside this script.

For every file under CORPUS/webp/ and every file under CORPUS/bad/ that starts like WebP
(RIFF....WEBP), it records what Pillow (with its own bundled libwebp) makes of it:
  - width, height, mode, frame count, EXIF orientation;
  - the first frame as 8-bit RGBA, after ImageOps.exif_transpose (so the orientation is applied, as
    TabIcons applies it), fingerprinted twice: sha256 (for people and other tools) and XXH3-128
    (`xxh3`, in ContentHash's "xxh3-128:<hex>" form, what the Swift tests compare: it is cheap in
    an unoptimized test build, where a Swift SHA-256 of the 24-megapixel bryce.webp takes seconds);
  - or the error Pillow raised.
For the libwebp-test-data files, `libwebpReference` says whether that RGBA agrees with the MD5 of
dwebp's PAM output listed in the corpus's libwebp_tests.md5 (libwebp's own reference decode):
a second, independent oracle for the same pixels, lossy ones included.

For the shrink-on-load tests it also records Pillow's BOX (area-average) downscale of
pillow/flower.webp (HPND) to 75x56, the size TabIcons asks libwebp's scaler for, as hex RGBA, and
the mean R, G, B of the whole of bryce.webp (a libwebp-test-data file, which carries no licence:
so only a statistic of it is kept here, never its pixels).
"""
import glob
import hashlib
import json
import os
import sys

import ctypes

import PIL
from PIL import Image, ImageOps, ImageStat, features

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, "../../../.."))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(PACKAGE, "../shared/corpus"))


class _XXH128(ctypes.Structure):
    _fields_ = [("low64", ctypes.c_uint64), ("high64", ctypes.c_uint64)]


# The fingerprint only: libxxhash is the library the package itself links (pkg-config libxxhash).
_xxhash = ctypes.CDLL("libxxhash.so.0")
_xxhash.XXH3_128bits.restype = _XXH128
_xxhash.XXH3_128bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
assert _xxhash.XXH3_128bits(b"abc", 3).high64 == 0x06B05AB6733A6185  # the published test vector


def xxh3_128(data):
    digest = _xxhash.XXH3_128bits(data, len(data))
    return "xxh3-128:%016x%016x" % (digest.high64, digest.low64)


def is_webp(path):
    with open(path, "rb") as f:
        head = f.read(12)
    return len(head) == 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP"


def pam_md5(rgba):
    header = b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % rgba.size
    return hashlib.md5(header + rgba.tobytes()).hexdigest()


def reference_md5s():
    refs = {}
    path = os.path.join(CORPUS, "webp/libwebp_tests.md5")
    with open(path) as f:
        for line in f:
            digest, name = line.split()
            if name.endswith(".webp.pam"):
                refs[name[: -len(".pam")]] = digest
    return refs


def describe(path, refs):
    rel = os.path.relpath(path, CORPUS)
    entry = {"path": rel}
    try:
        with Image.open(path) as im:
            im.load()
            entry["mode"] = im.mode
            entry["frames"] = getattr(im, "n_frames", 1)
            entry["orientation"] = im.getexif().get(0x0112, 1)
            rgba = ImageOps.exif_transpose(im).convert("RGBA")
    except Exception as error:  # noqa: BLE001 - any failure is an expected outcome here
        entry["pillowError"] = f"{type(error).__name__}: {error}"
        return entry
    entry["width"], entry["height"] = rgba.size
    pixels = rgba.tobytes()
    entry["sha256"] = hashlib.sha256(pixels).hexdigest()
    entry["xxh3"] = xxh3_128(pixels)
    reference = refs.get(os.path.basename(path)) if rel.count("/") == 1 else None
    if reference is not None:
        entry["libwebpReference"] = "agrees" if reference == pam_md5(rgba) else "differs"
    return entry


def main():
    refs = reference_md5s()
    paths = sorted(glob.glob(os.path.join(CORPUS, "webp/**/*.webp"), recursive=True))
    paths += sorted(p for p in glob.glob(os.path.join(CORPUS, "bad/**/*"), recursive=True)
                    if os.path.isfile(p) and is_webp(p))
    files = [describe(p, refs) for p in paths]

    with Image.open(os.path.join(CORPUS, "webp/pillow/flower.webp")) as im:
        flower = im.convert("RGBA").resize((75, 56), Image.Resampling.BOX)
    with Image.open(os.path.join(CORPUS, "webp/bryce.webp")) as im:
        bryce_mean = [round(v, 3) for v in ImageStat.Stat(im.convert("RGB")).mean]

    out = {
        "generator": "make_expected.py",
        "pillow": PIL.__version__,
        "pillowLibwebp": features.version("webp"),
        "files": files,
        "flowerBox75x56": flower.tobytes().hex(),
        "bryceMeanRGB": bryce_mean,
    }
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    agree = sum(1 for e in files if e.get("libwebpReference") == "agrees")
    differ = [e["path"] for e in files if e.get("libwebpReference") == "differs"]
    print(f"{len(files)} files; libwebp reference agrees on {agree}, differs on {differ}")


if __name__ == "__main__":
    main()
