#!/usr/bin/env bash
# Makes the two large PNGs of the memory targets (issue 12) into bench/inputs/large/ (gitignored):
#
#   bitmap-9000.png   9000×9000, 1-bit greyscale (81 MP, legal): a black disc on white
#   rgba-9990.png     9990×9990, 8-bit RGBA (99.8 MP, just inside the 100 MP limit): a disc of
#                     colour gradients on a transparent ground, with a soft (graded-alpha) rim
#
# Written row by row with Python's zlib (no imaging library, a few MiB of memory), so the same
# script gives the same bytes everywhere. Non-interlaced: the files streamed normalization takes.
#   bench/make-large-inputs.sh
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p inputs/large
python3 - inputs/large <<'PY'
import math, struct, sys, zlib
out = sys.argv[1]

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def write(path, width, height, bit_depth, colour_type, rows):
    z = zlib.compressobj(6)
    idat = bytearray()
    for row in rows:
        idat += z.compress(b"\0" + row)          # filter type 0 (none) on every row
    idat += z.flush()
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)))
        for i in range(0, len(idat), 1 << 20):
            f.write(chunk(b"IDAT", bytes(idat[i:i + (1 << 20)])))
        f.write(chunk(b"IEND", b""))

def disc_span(y, size, radius):
    """The [x0, x1) columns inside a disc of `radius` centred in a size×size square, on row y."""
    d = (y + 0.5) - size / 2
    if abs(d) >= radius:
        return 0, 0
    half = math.sqrt(radius * radius - d * d)
    return max(0, int(size / 2 - half)), min(size, int(size / 2 + half))

def bitmap_rows(size=9000):
    for y in range(size):
        x0, x1 = disc_span(y, size, size * 0.4)
        bits = bytearray(b"\xff" * ((size + 7) // 8))    # 1 is white
        for x in range(x0, x1):
            bits[x >> 3] &= ~(0x80 >> (x & 7)) & 0xFF
        yield bytes(bits)

def rgba_rows(size=9990):
    reds = bytes(x * 255 // (size - 1) for x in range(size))
    for y in range(size):
        row = bytearray(size * 4)
        row[0::4] = reds
        row[1::4] = bytes([y * 255 // (size - 1)]) * size
        row[2::4] = bytes([128]) * size
        x0, x1 = disc_span(y, size, size * 0.45)
        if x1 > x0:
            alpha = bytearray(size)
            alpha[x0:x1] = b"\xff" * (x1 - x0)
            rim = min(64, (x1 - x0) // 2)            # graded edge, 64 px wide
            for i in range(rim):
                a = (i + 1) * 255 // (rim + 1)
                alpha[x0 + i] = a
                alpha[x1 - 1 - i] = a
            row[3::4] = alpha
        yield bytes(row)

write(f"{out}/bitmap-9000.png", 9000, 9000, 1, 0, bitmap_rows())
write(f"{out}/rgba-9990.png", 9990, 9990, 8, 6, rgba_rows())
PY
ls -l inputs/large
