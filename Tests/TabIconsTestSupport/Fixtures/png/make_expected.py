#!/usr/bin/env python3
"""Expected pixels for the PNG decoder tests: what a correct decoder with libpng's simplified-API
semantics must produce for every valid file of the public PNG corpus.

Run from the package root:  python3 Tests/TabIconsTestSupport/Fixtures/png/make_expected.py
It writes, next to itself:
  expected.json       file -> size, colour model, gamma rule, sha256 of the expected RGBA bytes,
                      tolerance (0 = exact, 1 = within +-1 per channel)
  reference/*.png     for every file with tolerance 1: the expected RGBA as a plain 8-bit RGBA
                      PNG (no gAMA, so any decoder passes it through unchanged); the test checks
                      its decoded bytes against the sha256 above before using it.

Where the numbers come from
---------------------------
1. Pillow (`Image.open(p).convert("RGBA")`) gives the stored samples of every file of 8 bits or
   fewer. For 16-bit files Pillow keeps only the high byte of RGB/RGBA samples, and its
   I;16 -> RGBA conversion clips, so a small pure-Python reader below (zlib + unfiltering +
   Adam7, straight from the PNG specification) supplies the full 16-bit samples. The reader is
   checked against Pillow on every file: identical 8-bit samples; for 16-bit, identical I;16
   values and identical high bytes. If they ever disagree this script stops.
2. Transparency (tRNS) is applied by the PNG rule (the sample equal to the key, compared at the
   file's bit depth, is transparent). Pillow is not used for tRNS alpha on gray files below 8 bits
   or 16-bit files: it compares the raw tRNS key with already-scaled 8-bit samples and so
   misses it (e.g. tbbn0g04, tbbn2c16); everywhere else its alpha is asserted equal.
3. Gamma, as libpng's simplified API does it for 8-bit sRGB output (png_image_finish_read with
   PNG_FORMAT_RGBA): the file gamma is the gAMA value (an sRGB chunk means 45455; no chunk means
   sRGB, also for 16-bit files because the decoder sets PNG_IMAGE_FLAG_16BIT_sRGB). The output
   gamma is libpng's sRGB approximation 2.2 (PNG_GAMMA_sRGB = 220000). libpng corrects only when
   file x output differs from 1 by more than 5% (png_gamma_significant) and then uses the
   exponent png_reciprocal2(file, 220000), rounded to 5 decimals as libpng's fixed point does;
   8-bit samples go through floor(255 * (v/255)^e + 0.5) exactly like png_build_8bit_table.
   PngSuite marks nearly every file gAMA 1.0 (linear), so most of its files come out brighter
   than Pillow's (which ignores gAMA): that is the specified behaviour (SPEC section 2).
   cHRM and iCCP are not colour-managed by the simplified API and not here either.
4. 16-bit samples: v/65535 through the same exponent (or none), scaled to 8 bits with rounding.
   The decoder reads 16-bit files as libpng's 16-bit linear RGBA with associated alpha and
   encodes them itself (PNGLinear16.swift says why), so these files are compared within +-1:
   alpha within +-1 and the premultiplied colour (colour * alpha / 255) within +-1. A pixel of
   alpha 0 has no colour left in associated form and low alpha keeps little of it, so only the
   premultiplied colour, which is what anyone sees, is held to the oracle there.
"""
import base64, hashlib, json, math, os, struct, sys, zlib
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
CORPUS = os.environ.get("TABICONS_CORPUS", os.path.join(os.path.dirname(ROOT), "shared", "corpus"))

# ---------------------------------------------------------------------------------------------
# A plain PNG reader, for the 16-bit samples and the chunk facts Pillow does not expose.

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, info = 8, [], {"plte": None, "trns": None, "gama": None, "srgb": False, "actl": None}
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            (info["width"], info["height"], info["depth"], info["ctype"], _, _,
             info["interlace"]) = struct.unpack(">IIBBBBB", body)
        elif ctype == b"PLTE":
            info["plte"] = [tuple(body[i:i + 3]) for i in range(0, len(body) - 2, 3)]
        elif ctype == b"tRNS":
            info["trns"] = body
        elif ctype == b"gAMA" and len(body) == 4:
            info["gama"] = struct.unpack(">I", body)[0]
        elif ctype == b"sRGB":
            info["srgb"] = True
        elif ctype == b"acTL":
            info["actl"] = struct.unpack(">II", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    raw = zlib.decompressobj().decompress(b"".join(idat))
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[info["ctype"]]
    depth, w, h = info["depth"], info["width"], info["height"]
    bpp = max(1, channels * depth // 8)  # filter byte distance

    def unfilter(raw, off, pw, ph):
        stride = (pw * channels * depth + 7) // 8
        rows, prev = [], bytearray(stride)
        for _ in range(ph):
            ftype, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
            off += 1 + stride
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if ftype == 1: line[i] = (line[i] + a) & 255
                elif ftype == 2: line[i] = (line[i] + b) & 255
                elif ftype == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif ftype == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                elif ftype != 0: raise ValueError("bad filter")
            rows.append(samples(line, pw))
            prev = line
        return rows, off

    def samples(line, pw):
        n = pw * channels
        if depth == 16:
            vals = [line[2 * i] << 8 | line[2 * i + 1] for i in range(n)]
        elif depth == 8:
            vals = list(line[:n])
        else:
            per, mask = 8 // depth, (1 << depth) - 1
            vals = [(line[i // per] >> (8 - depth * (i % per + 1))) & mask for i in range(n)]
        return [tuple(vals[i * channels:(i + 1) * channels]) for i in range(pw)]

    if info["interlace"] == 0:
        pixels, _ = unfilter(raw, 0, w, h)
    else:
        pixels = [[None] * w for _ in range(h)]
        off = 0
        for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                               (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)):
            pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
            if pw == 0 or ph == 0:
                continue
            rows, off = unfilter(raw, off, pw, ph)
            for j, row in enumerate(rows):
                for i, px in enumerate(row):
                    pixels[y0 + j * dy][x0 + i * dx] = px
    info["pixels"] = pixels
    return info


def rgba_samples(info):
    """Per pixel (r, g, b, a) at the file's precision, and that precision's maximum."""
    ctype, depth, trns = info["ctype"], info["depth"], info["trns"]
    maxv = (1 << depth) - 1
    out = []
    if ctype == 3:
        # An index past the palette's end (libpng testpngs/badpal) is opaque black, as libpng
        # (its palette array is zero-filled to 256 entries) and Pillow both give it.
        palette = info["plte"] + [(0, 0, 0)] * (256 - len(info["plte"]))
        alphas = list(trns or b"")
        for row in info["pixels"]:
            out.append([palette[i] + ((alphas[i] if i < len(alphas) else 255),) for (i,) in row])
        return out, 255
    key = None
    if trns is not None and ctype in (0, 2):
        key = struct.unpack(">H", trns[:2])[0] if ctype == 0 else struct.unpack(">HHH", trns[:6])
        key = key & maxv if ctype == 0 else tuple(k & maxv for k in key)
    for row in info["pixels"]:
        line = []
        for px in row:
            if ctype == 0:
                line.append((px[0], px[0], px[0], 0 if key == px[0] else maxv))
            elif ctype == 2:
                line.append(px + (0 if key == px else maxv,))
            elif ctype == 4:
                line.append((px[0], px[0], px[0], px[1]))
            else:
                line.append(px)
        out.append(line)
    return out, maxv

# ---------------------------------------------------------------------------------------------
# libpng's simplified-API gamma rule for 8-bit sRGB output.

PNG_GAMMA_sRGB = 220000

def correction_exponent(info):
    """libpng's gamma correction exponent for this file, or None when it leaves samples alone."""
    file_gamma = 45455 if info["srgb"] else info["gama"]
    if file_gamma is None or file_gamma <= 0:
        return None  # assumed sRGB (8-bit, and 16-bit with PNG_IMAGE_FLAG_16BIT_sRGB)
    product = file_gamma * PNG_GAMMA_sRGB / 1e5  # png_product2, in units of 1e5
    if abs(product - 1e5) <= 5000:
        return None  # png_gamma_significant: within 5%, no correction
    return math.floor(1e15 / file_gamma / PNG_GAMMA_sRGB + 0.5) / 1e5  # png_reciprocal2


def expected_rgba(info):
    px, maxv = rgba_samples(info)
    e = correction_exponent(info)
    def colour(v):
        if e is None:
            return v if maxv == 255 else round(v * 255 / maxv)
        return math.floor(255 * math.pow(v / maxv, e) + 0.5)
    def alpha(a):
        return a if maxv == 255 else round(a * 255 / maxv)
    out = bytearray()
    for row in px:
        for r, g, b, a in row:
            out += bytes((colour(r), colour(g), colour(b), alpha(a)))
    return bytes(out), e

# ---------------------------------------------------------------------------------------------
# The cross-check against Pillow.

def check_against_pillow(path, info):
    im = Image.open(path)
    px, maxv = rgba_samples(info)
    w, h = info["width"], info["height"]
    if info["depth"] == 16:
        if im.mode in ("I;16", "I;16B", "I"):
            vals = list(im.get_flattened_data()) if hasattr(im, "get_flattened_data") else list(im.getdata())
            mine = [p[0] for row in px for p in row]
            assert vals == mine, f"{path}: 16-bit gray differs from Pillow"
        else:
            pil = im.convert("RGBA").tobytes()
            mine = bytes(c >> 8 for row in px for p in row for c in p)
            has_alpha_channel = info["ctype"] in (4, 6)
            for i in range(w * h):
                assert pil[4 * i:4 * i + 3] == mine[4 * i:4 * i + 3], f"{path}: pixel {i} colour high bytes differ"
                if has_alpha_channel:
                    assert pil[4 * i + 3] == mine[4 * i + 3], f"{path}: pixel {i} alpha high byte differs"
        return "16-bit: gray identical / high bytes identical"
    pil = im.convert("RGBA").tobytes()
    scale = 255 // maxv
    mine = bytes(c * scale for row in px for p in row for c in p)
    pillow_trns_bug = info["trns"] is not None and info["ctype"] == 0 and info["depth"] < 8
    for i in range(w * h):
        assert pil[4 * i:4 * i + 3] == mine[4 * i:4 * i + 3], f"{path}: pixel {i} colour differs from Pillow"
        if not pillow_trns_bug:
            assert pil[4 * i + 3] == mine[4 * i + 3], f"{path}: pixel {i} alpha differs from Pillow"
    return "identical to Pillow" + (" (colour; alpha by the tRNS rule)" if pillow_trns_bug else "")

# ---------------------------------------------------------------------------------------------

MODELS = {0: "gray", 2: "rgb", 3: "palette", 4: "grayAlpha", 6: "rgba"}

def entries(folder, names):
    for name in names:
        yield f"{folder}/{name}", os.path.join(CORPUS, folder, name)


def main():
    suite = sorted(n for n in os.listdir(os.path.join(CORPUS, "pngsuite"))
                   if n.endswith(".png") and not n.startswith("x"))
    libsuite = sorted(n for n in os.listdir(os.path.join(CORPUS, "libpng/pngsuite")) if n.endswith(".png"))
    libsuite += sorted("interlaced/" + n for n in os.listdir(os.path.join(CORPUS, "libpng/pngsuite/interlaced"))
                       if n.endswith(".png"))
    testpngs = sorted(n for n in os.listdir(os.path.join(CORPUS, "libpng/testpngs")) if n.endswith(".png"))
    badpal = sorted("badpal/" + n for n in os.listdir(os.path.join(CORPUS, "libpng/testpngs/badpal")))
    refdir = os.path.join(HERE, "reference")
    os.makedirs(refdir, exist_ok=True)
    result = {}
    files = (list(entries("pngsuite", suite)) + list(entries("libpng/pngsuite", libsuite))
             + list(entries("libpng/testpngs", testpngs + badpal)))
    for key, path in files:
        info = read_png(path)
        how = check_against_pillow(path, info)
        rgba, e = expected_rgba(info)
        tolerance = 1 if info["depth"] == 16 else 0
        entry = {
            "width": info["width"], "height": info["height"], "bitDepth": info["depth"],
            "colorModel": MODELS[info["ctype"]],
            "hasAlpha": info["ctype"] in (4, 6) or info["trns"] is not None,
            "gammaExponent": e, "tolerance": tolerance,
            "sha256": hashlib.sha256(rgba).hexdigest(), "oracle": how,
        }
        if tolerance:
            ref = "reference/" + key.replace("/", "__")
            Image.frombytes("RGBA", (info["width"], info["height"]), rgba).save(os.path.join(HERE, ref), optimize=True)
            entry["reference"] = ref
        result[key] = entry
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(result)} files, {sum(1 for e in result.values() if e['tolerance'])} compared within +-1")


if __name__ == "__main__":
    main()
