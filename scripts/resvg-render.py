#!/usr/bin/env python3
"""Render SVGs with resvg (pip package resvg-py), an SVG renderer independent of librsvg.

Used by the vector tests (Tests/TabIconsNormalizeTests/Vector/ResvgRenderer.swift) to draw tabicon's
converted vectors with another engine than the one that drew the PNG renditions. Reads a list
file of lines `SVG_PATH WIDTH HEIGHT PNG_PATH` and writes each PNG. Exit 0 when all were written.
"""
import sys

import resvg_py


def main(list_path):
    with open(list_path) as listing:
        for line in listing:
            svg, width, height, png = line.rstrip("\n").split(" ")
            data = resvg_py.svg_to_bytes(svg_path=svg, width=int(width), height=int(height))
            with open(png, "wb") as out:
                out.write(bytes(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
