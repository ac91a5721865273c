"""bench/peers.sh's SVG peers in Python: `svg_render.py resvg|cairosvg OUT FILE...` renders every
SVG at 25, 50 and 75 px (the square icons of the SVG batch: each asked for S×S) to OUT/NAME.png,
NAME@2x.png and NAME@3x.png, in one process, single-threaded, reading each file once."""
import os
import sys

tool, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(out, exist_ok=True)
if tool == "resvg":
    import resvg_py

    def render(markup, size):
        return bytes(resvg_py.svg_to_bytes(svg_string=markup, width=size, height=size))
elif tool == "cairosvg":
    import cairosvg

    def render(markup, size):
        return cairosvg.svg2png(bytestring=markup.encode(), output_width=size, output_height=size)
else:
    sys.exit(f"unknown tool {tool}")

for path in paths:
    name = os.path.splitext(os.path.basename(path))[0]
    with open(path, encoding="utf-8") as f:
        markup = f.read()
    for size, suffix in ((25, ""), (50, "@2x"), (75, "@3x")):
        with open(os.path.join(out, f"{name}{suffix}.png"), "wb") as f:
            f.write(render(markup, size))
