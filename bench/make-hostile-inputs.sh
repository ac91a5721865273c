#!/usr/bin/env bash
# Makes the hostile and large-but-legal inputs of issue 17's raster-memory table (bench/README.md,
# "Memory follows the limits") into bench/inputs/hostile/ (gitignored: regenerate, never commit).
# Written with Python's zlib and struct only, row by row, so the script needs a few MiB and gives
# the same bytes everywhere. The animated WebP is TestImages/animated.webp with its VP8X canvas
# widened to 9999×9999 (its frames stay small).
#
#   bench/make-hostile-inputs.sh
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p inputs/hostile
python3 - inputs/hostile ../TestImages/animated.webp <<'PY'
import struct, sys, zlib
out, animated = sys.argv[1], sys.argv[2]

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def ihdr(w, h, depth, colour, interlace):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, interlace))

SIG = b"\x89PNG\r\n\x1a\n"
tiny_idat = chunk(b"IDAT", zlib.compress(b"\0\0"))          # one row of a 1×1 grey image
def tiny(extra):
    return SIG + ihdr(1, 1, 8, 0, 0) + extra + tiny_idat + chunk(b"IEND", b"")

# Text chunks each under libpng's 8 MB per-chunk cap, piling up (attacker's finding 1).
bomb = zlib.compress(b"a" * 7_900_000, 9)   # under the 8,000,000-byte cap; not NUL (text stops there)
open(f"{out}/ztxt-250x8MB.png", "wb").write(tiny(b"".join(chunk(b"zTXt", b"k%d\0\0" % i + bomb) for i in range(250))))
open(f"{out}/itxt-400x8MB.png", "wb").write(tiny(b"".join(chunk(b"iTXt", b"k%d\0\1\0\0\0" % i + bomb) for i in range(400))))
open(f"{out}/text-900x60KB.png", "wb").write(tiny(b"".join(chunk(b"tEXt", b"k%d\0" % i + b"x" * 60000) for i in range(900))))

# Headers claiming large images over a few bytes of data (finding 2).
for name, (w, h, depth, colour, interlace) in {
    "header-10000-g16-adam7.png": (10000, 10000, 16, 0, 1),
    "header-10000-rgba16-adam7.png": (10000, 10000, 16, 6, 1),
    "header-10000-rgba16.png": (10000, 10000, 16, 6, 0),
    "header-9999-rgba8-adam7.png": (9999, 9999, 8, 6, 1),
}.items():
    open(f"{out}/{name}", "wb").write(SIG + ihdr(w, h, depth, colour, interlace) + tiny_idat + chunk(b"IEND", b""))

# Legal large files (finding 3): a horizontal gradient, every row after the first filtered Up
# (zero bytes), so they are small on disk.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
def legal(path, size, depth, colour, interlace):
    channels = {0: 1, 2: 3, 6: 4}[colour]
    z = zlib.compressobj(6)
    idat = bytearray()
    def pixel(x):
        v = x * 65535 // max(1, size - 1)
        sample = struct.pack(">H", v) if depth == 16 else bytes([v >> 8])
        px = sample * min(channels, 3)
        if channels == 4:
            px += struct.pack(">H", 0xC000) if depth == 16 else b"\xc0"
        return px
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs = range(x0, size, dx)
        rows = len(range(y0, size, dy))
        if not xs or not rows:
            continue
        first = b"\0" + b"".join(pixel(x) for x in xs)
        idat += z.compress(first)
        up = b"\2" + b"\0" * (len(first) - 1)
        for _ in range(rows - 1):
            idat += z.compress(up)
    idat += z.flush()
    with open(path, "wb") as f:
        f.write(SIG + ihdr(size, size, depth, colour, interlace))
        for i in range(0, len(idat), 1 << 20):
            f.write(chunk(b"IDAT", bytes(idat[i:i + (1 << 20)])))
        f.write(chunk(b"IEND", b""))
legal(f"{out}/legal-9000-rgb16.png", 9000, 16, 2, 0)
legal(f"{out}/legal-9000-rgba8-adam7.png", 9000, 8, 6, 1)
legal(f"{out}/legal-9000-rgba16-adam7.png", 9000, 16, 6, 1)
legal(f"{out}/legal-6000-g16-adam7.png", 6000, 16, 0, 1)

# An animated WebP whose small frames sit on a 9999×9999 canvas.
webp = bytearray(open(animated, "rb").read())
assert webp[12:16] == b"VP8X"
webp[24:27] = (9999 - 1).to_bytes(3, "little")
webp[27:30] = (9999 - 1).to_bytes(3, "little")
open(f"{out}/anim-canvas-9999.webp", "wb").write(bytes(webp))
webp[24:27] = (4000 - 1).to_bytes(3, "little")
webp[27:30] = (4000 - 1).to_bytes(3, "little")
open(f"{out}/anim-canvas-4000.webp", "wb").write(bytes(webp))
PY
ls -l inputs/hostile
