#!/usr/bin/env python3
"""How well the set's lints (SPEC §3a) find what they are meant to, on a real icon family.

    python3 bench/set-lints.py TABICON [--family DIR] [--sets 300] [--seed 1]

The family is Bootstrap Icons' outline tab-bar glyphs (bell, bookmark, calendar, ... from
../shared/corpus/svg/bootstrap-icons): one designer, one 1-unit stroke on a 16-unit grid, so a set
of five drawn from them is homogeneous. For random sets of five, `tabicon inspect --json` gives each
icon's lints:

- false positives: the share of untouched icons that a lint flags;
- detection: one icon of a set changed as the issue says, and the share of changed icons the lint
  flags: its stroke 15% heavier (each outline thickened by a stroke of 0.15 units), its optical
  size 1 pt larger (scaled about the centre), or moved 0.5 pt right (0.4 units). Every icon is
  first given a 2-unit margin (a 20-unit artboard), so the moved or grown glyph is not clipped.
"""
import argparse
import json
import os
import random
import re
import subprocess
import tempfile

NAMES = [
    "bell", "bookmark", "calendar", "camera", "cart", "chat", "clock", "compass", "envelope", "folder",
    "gear", "heart", "house", "image", "map", "person", "play", "search", "star",
]
MARGIN = 2  # units added on every side of the 16-unit grid, so a moved or grown glyph is not clipped
UNIT_PT = 25 / (16 + 2 * MARGIN)  # that artboard fitted into the 25 pt box


def svg_body(text):
    """The drawing inside the root <svg> element, and the root's opening tag."""
    opening = re.search(r"<svg[^>]*>", text).group(0)
    return opening, text[text.index(opening) + len(opening):text.rindex("</svg>")]


def with_margin(text):
    """The icon in an artboard MARGIN units larger on every side (every icon of a set alike)."""
    opening, body = svg_body(text)
    side = 16 + 2 * MARGIN
    opening = re.sub(r'viewBox="[^"]*"', f'viewBox="{-MARGIN} {-MARGIN} {side} {side}"', opening)
    opening = re.sub(r'width="16" height="16"', f'width="{side}" height="{side}"', opening)
    return opening + body + "</svg>"


def changed(text, change, size_pt):
    opening, body = svg_body(text)
    if change == "stroke":
        # Every filled outline 0.15 units thicker: a stroke of the fill's colour, half each side.
        opening = opening.replace("<svg", '<svg stroke="currentColor" stroke-width="0.15" stroke-linejoin="round"', 1)
        return opening + body + "</svg>"
    if change == "size":
        k = (size_pt + 1) / size_pt
        return opening + f'<g transform="translate(8 8) scale({k}) translate(-8 -8)">' + body + "</g></svg>"
    if change == "move":
        return opening + f'<g transform="translate({0.5 / UNIT_PT} 0)">' + body + "</g></svg>"
    raise ValueError(change)


def lints(tabicon, icons):
    """{name: set of lint codes} for the icons (name → SVG text) inspected as one run."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in icons.items():
            with open(os.path.join(folder, name + ".svg"), "w") as f:
                f.write(text)
        out = subprocess.run([tabicon, "inspect", "--json", folder], capture_output=True, text=True).stdout
    document = json.loads(out)
    return {icon["name"]: {lint["code"] for lint in icon["lints"]} for icon in document["icons"]}, document


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tabicon")
    parser.add_argument("--family", default=os.path.join(os.path.dirname(__file__), "../../shared/corpus/svg/bootstrap-icons"))
    parser.add_argument("--sets", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    family = {name: with_margin(open(os.path.join(args.family, name + ".svg")).read()) for name in NAMES}
    _, whole = lints(args.tabicon, family)
    sizes = {icon["name"]: icon["measures"]["opticalSize"] for icon in whole["icons"]}

    codes = {"stroke": "stroke-mismatch", "size": "optical-size-mismatch", "move": "off-centre"}
    untouched = {code: 0 for code in codes.values()}
    seen = 0
    found = {change: 0 for change in codes}
    for _ in range(args.sets):
        names = rng.sample(NAMES, 5)
        flagged, _ = lints(args.tabicon, {name: family[name] for name in names})
        for name in names:
            seen += 1
            for code in codes.values():
                untouched[code] += code in flagged[name]
        target = names[0]
        for change, code in codes.items():
            icons = {name: family[name] for name in names}
            icons[target] = changed(family[target], change, sizes[target])
            flagged, _ = lints(args.tabicon, icons)
            found[change] += code in flagged[target]
    print(f"{len(NAMES)} Bootstrap outline glyphs, {args.sets} random sets of 5 (seed {args.seed})")
    print("| lint | untouched icons flagged | changed icons flagged |")
    print("|---|---|---|")
    for change, code in codes.items():
        what = {"stroke": "stroke 15% heavier", "size": "1 pt larger", "move": "moved 0.5 pt"}[change]
        print(f"| `{code}` | {100 * untouched[code] / seen:.1f}% | {100 * found[change] / args.sets:.1f}% ({what}) |")


if __name__ == "__main__":
    main()
