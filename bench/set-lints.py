#!/usr/bin/env python3
"""How well the set's lints (SPEC §3a) find what they are meant to, on a real icon family.

    python3 bench/set-lints.py TABICON [--kind bootstrap|feather] [--family DIR] [--sets 300] [--seed 1]

Two families, each one designer's: Bootstrap Icons' outline tab-bar glyphs (bell, bookmark,
calendar, ... from ../shared/corpus/svg/bootstrap-icons): filled outlines of a 1-unit line on a
16-unit grid, measured from the rendition; and Feather's (`--kind feather --family
feather/icons`, from https://github.com/feathericons/feather, MIT): strokes of width 2 on a
24-unit grid with a 2-unit margin, measured from the drawing. For random sets of five,
`tabicon inspect --json` gives each icon's lints:

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

NAMES = {
    "bootstrap": [
        "bell", "bookmark", "calendar", "camera", "cart", "chat", "clock", "compass", "envelope", "folder",
        "gear", "heart", "house", "image", "map", "person", "play", "search", "star",
    ],
    "feather": [
        "bell", "bookmark", "calendar", "camera", "shopping-cart", "message-circle", "clock", "compass", "mail",
        "folder", "settings", "heart", "home", "image", "map", "user", "play-circle", "search", "star", "inbox",
    ],
}
MARGIN = 2  # units added on every side of Bootstrap's 16-unit grid, so a moved or grown glyph is not clipped
# Points per unit once the artboard is fitted into the 25 pt box, and the artboard's centre.
UNIT_PT = {"bootstrap": 25 / (16 + 2 * MARGIN), "feather": 25 / 24}
CENTRE = {"bootstrap": 8, "feather": 12}


def svg_body(text):
    """The drawing inside the root <svg> element, and the root's opening tag."""
    opening = re.search(r"<svg[^>]*>", text).group(0)
    return opening, text[text.index(opening) + len(opening):text.rindex("</svg>")]


def with_margin(text, kind):
    """A Bootstrap icon in an artboard MARGIN units larger on every side (every icon of a set
    alike); Feather's have their margin."""
    if kind == "feather":
        return text
    opening, body = svg_body(text)
    side = 16 + 2 * MARGIN
    opening = re.sub(r'viewBox="[^"]*"', f'viewBox="{-MARGIN} {-MARGIN} {side} {side}"', opening)
    opening = re.sub(r'width="16" height="16"', f'width="{side}" height="{side}"', opening)
    return opening + body + "</svg>"


def changed(text, change, size_pt, kind):
    opening, body = svg_body(text)
    if change == "stroke":
        if kind == "feather":
            # The stroke 15% wider.
            return opening.replace('stroke-width="2"', 'stroke-width="2.3"') + body + "</svg>"
        # Every filled outline 0.15 units thicker: a stroke of the fill's colour, half each side.
        opening = opening.replace("<svg", '<svg stroke="currentColor" stroke-width="0.15" stroke-linejoin="round"', 1)
        return opening + body + "</svg>"
    c = CENTRE[kind]
    if change == "size":
        k = (size_pt + 1) / size_pt
        # Feather's strokes keep their width (the group's stroke-width undoes the scale), as a
        # designer drawing the glyph larger would.
        if kind == "feather":
            return (opening + f'<g transform="translate({c} {c}) scale({k}) translate({-c} {-c})" stroke-width="{2 / k}">'
                    + body + "</g></svg>")
        return opening + f'<g transform="translate({c} {c}) scale({k}) translate({-c} {-c})">' + body + "</g></svg>"
    if change == "move":
        return opening + f'<g transform="translate({0.5 / UNIT_PT[kind]} 0)">' + body + "</g></svg>"
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
    parser.add_argument("--kind", choices=sorted(NAMES), default="bootstrap")
    parser.add_argument("--family", default=os.path.join(os.path.dirname(__file__), "../../shared/corpus/svg/bootstrap-icons"))
    parser.add_argument("--sets", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names_of = NAMES[args.kind]
    family = {name: with_margin(open(os.path.join(args.family, name + ".svg")).read(), args.kind) for name in names_of}
    _, whole = lints(args.tabicon, family)
    sizes = {icon["name"]: icon["measures"]["opticalSize"] for icon in whole["icons"]}

    codes = {"stroke": "stroke-mismatch", "size": "optical-size-mismatch", "move": "off-centre"}
    untouched = {code: 0 for code in codes.values()}
    seen = 0
    found = {change: 0 for change in codes}
    for _ in range(args.sets):
        names = rng.sample(names_of, 5)
        flagged, _ = lints(args.tabicon, {name: family[name] for name in names})
        for name in names:
            seen += 1
            for code in codes.values():
                untouched[code] += code in flagged[name]
        target = names[0]
        for change, code in codes.items():
            icons = {name: family[name] for name in names}
            icons[target] = changed(family[target], change, sizes[target], args.kind)
            flagged, _ = lints(args.tabicon, icons)
            found[change] += code in flagged[target]
    print(f"{len(names_of)} {args.kind} glyphs, {args.sets} random sets of 5 (seed {args.seed})")
    print("| lint | untouched icons flagged | changed icons flagged |")
    print("|---|---|---|")
    for change, code in codes.items():
        what = {"stroke": "stroke 15% heavier", "size": "1 pt larger", "move": "moved 0.5 pt"}[change]
        print(f"| `{code}` | {100 * untouched[code] / seen:.1f}% | {100 * found[change] / args.sets:.1f}% ({what}) |")


if __name__ == "__main__":
    main()
