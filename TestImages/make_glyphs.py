"""Draws TabIcons' own tab-bar glyphs (home, search, heart, bell, profile; outline and filled).

Run from this folder: python3 make_glyphs.py. Needs Pillow. The glyphs are drawn at 4x and reduced
with a box filter, so their edges are anti-aliased, on fully transparent black: the case where
resampling without premultiplied alpha shows dark fringes. Released under CC0 by the TabIcons
authors.
"""
from PIL import Image, ImageDraw

SIZE = 96          # 96 px: decode scale 3.84 in the 25-point box
SS = 4             # supersampling factor
INK = (20, 20, 20, 255)


def canvas():
    return Image.new("RGBA", (SIZE * SS, SIZE * SS), (0, 0, 0, 0))


def finish(im, name, fmt="PNG", **kw):
    im = im.resize((SIZE, SIZE), Image.BOX)
    im.save(name, fmt, **kw)


def s(*v):
    return [x * SS for x in v]


def home(filled):
    im = canvas(); d = ImageDraw.Draw(im)
    roof = [tuple(s(48, 10)), tuple(s(88, 46)), tuple(s(8, 46))]
    d.polygon(roof, fill=INK if filled else None, outline=INK, width=7 * SS)
    d.rectangle(s(20, 44, 76, 88), fill=INK if filled else None, outline=INK, width=7 * SS)
    if not filled:
        d.rectangle(s(40, 60, 56, 88), fill=INK)
    return im


def search(filled):
    im = canvas(); d = ImageDraw.Draw(im)
    d.ellipse(s(10, 10, 62, 62), fill=INK if filled else None, outline=INK, width=8 * SS)
    d.line(s(56, 56, 86, 86), fill=INK, width=12 * SS)
    return im


def heart(filled):
    im = canvas(); d = ImageDraw.Draw(im)
    w = 0 if filled else 7 * SS
    d.ellipse(s(8, 14, 50, 56), fill=INK if filled else None, outline=INK, width=w or 1)
    d.ellipse(s(46, 14, 88, 56), fill=INK if filled else None, outline=INK, width=w or 1)
    d.polygon([tuple(s(11, 44)), tuple(s(85, 44)), tuple(s(48, 86))], fill=INK)
    if not filled:
        d.polygon([tuple(s(24, 46)), tuple(s(72, 46)), tuple(s(48, 72))], fill=(0, 0, 0, 0))
        d.ellipse(s(15, 21, 43, 49), fill=(0, 0, 0, 0))
        d.ellipse(s(53, 21, 81, 49), fill=(0, 0, 0, 0))
    return im


def bell(filled):
    im = canvas(); d = ImageDraw.Draw(im)
    d.pieslice(s(18, 12, 78, 76), 180, 360, fill=INK if filled else None, outline=INK, width=7 * SS)
    d.rectangle(s(18, 44, 78, 70), fill=INK if filled else None, outline=INK, width=7 * SS)
    d.rectangle(s(10, 68, 86, 76), fill=INK)
    d.ellipse(s(40, 78, 56, 92), fill=INK)
    return im


def profile(filled):
    im = canvas(); d = ImageDraw.Draw(im)
    d.ellipse(s(30, 8, 66, 44), fill=INK if filled else None, outline=INK, width=7 * SS)
    d.chord(s(10, 52, 86, 128), 180, 360, fill=INK if filled else None, outline=INK, width=7 * SS)
    return im


if __name__ == "__main__":
    for name, draw in [("home", home), ("search", search), ("heart", heart), ("bell", bell), ("profile", profile)]:
        finish(draw(False), f"{name}.png")
        if name in ("heart", "bell"):
            finish(draw(True), f"{name}-filled.webp", "WEBP", lossless=True, exact=False)
        else:
            finish(draw(True), f"{name}-filled.png")
