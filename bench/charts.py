#!/usr/bin/env python3
"""Draws bench/README.md's charts from the benchmarks' JSON: bench/results/*.json -> bench/charts/*.svg.

    python3 bench/charts.py            # redraw the SVGs from bench/results/
    python3 bench/charts.py --measure  # first rerun the benchmarks into bench/results/, then draw

--measure runs `swift run -c release tabicon-bench rebuild-every-frame --json` and, when
bench/inputs/ exists (bench/fetch-inputs.sh), `bench/peers.sh bench/inputs/icons bench/inputs/photos`
with PEERS_JSON. Plain SVG written by hand (no plotting library): the same JSON gives the same
bytes. Colours are one per strategy or tool, the same in every chart.
"""
import json
import math
import os
import subprocess
import sys
from html import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
CHARTS = os.path.join(ROOT, "bench", "charts")
FONT = "font-family=\"-apple-system, system-ui, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif\""
INK, MUTED, GRID = "#1c1c1e", "#6b6b73", "#e3e4e8"
STRATEGY_COLOURS = {"IconTable": "#0a84ff", "identity": "#8e8e93", "byteCompare": "#f29900", "decodeEveryFrame": "#c5221f"}
TOOL_COLOURS = {"tabicon": "#0a84ff", "tabicon-j1": "#64b5f6", "Pillow": "#00796b", "Pillow-SIMD": "#4db6ac",
                "vipsthumbnail": "#7a4fc9", "ImageMagick": "#f29900"}
FRAME_120HZ_NS = 1e9 / 120


def measure():
    os.makedirs(RESULTS, exist_ok=True)
    bench = subprocess.run(["swift", "run", "-c", "release", "tabicon-bench", "rebuild-every-frame", "--json"],
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout
    json.loads(bench)
    with open(os.path.join(RESULTS, "rebuild-every-frame.json"), "w") as f:
        f.write(bench if bench.endswith("\n") else bench + "\n")
    inputs = os.path.join(ROOT, "bench", "inputs")
    if os.path.isdir(os.path.join(inputs, "icons")) and os.path.isdir(os.path.join(inputs, "photos")):
        env = dict(os.environ, PEERS_JSON=os.path.join(RESULTS, "peers.json"))
        subprocess.run(["bash", "bench/peers.sh", "bench/inputs/icons", "bench/inputs/photos"], cwd=ROOT, env=env, check=True)
    else:
        print("bench/inputs/ missing (bench/fetch-inputs.sh): peers.json left as it is", file=sys.stderr)


def text(x, y, words, size=12, colour=INK, anchor="start", weight="400"):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{escape(words)}</text>')


def svg(width, height, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" {FONT}>\n'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>\n' + "\n".join(body) + "\n</svg>\n")


def nanoseconds(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def rebuild_chart(document):
    """Median ns per frame, log scale, per strategy, for each flavour and bar count; 120 Hz line."""
    results = document["results"]
    strategies = [s for s in STRATEGY_COLOURS if any(r["strategy"] == s for r in results)]
    flavours = [f for f in ("same", "fresh") if any(r["flavour"] == f for r in results)]
    bars = sorted({r["bars"] for r in results})
    lookup = {(r["strategy"], r["flavour"], r["bars"]): r for r in results}
    low = 10 ** math.floor(math.log10(min(r["nsPerFrameMedian"] for r in results)))
    high = 10 ** math.ceil(math.log10(max(max(r["nsPerFrameMedian"] for r in results), FRAME_120HZ_NS) * 1.01))
    panel_w, label_w, bar_h, gap, room = 340, 84, 16, 14, 170
    group_h = len(strategies) * bar_h + gap
    top = 110
    height = top + len(bars) * group_h + 64
    width = 28 + len(flavours) * (label_w + panel_w + room)
    body = [text(28, 32, "rebuild-every-frame: median time per frame", 17, weight="650"),
            text(28, 52, f"{document['machine']} · log scale · the red line is a whole 120 Hz frame (8.33 ms)", 11, MUTED)]
    x_legend = 28
    for s in strategies:
        body.append(f'<rect x="{x_legend}" y="62" width="10" height="10" rx="2" fill="{STRATEGY_COLOURS[s]}"/>')
        body.append(text(x_legend + 14, 71, s, 11))
        x_legend += 24 + 7 * len(s)

    def scale(ns, x0):
        return x0 + panel_w * (math.log10(ns) - math.log10(low)) / (math.log10(high) - math.log10(low))

    for p, flavour in enumerate(flavours):
        x0 = 28 + p * (label_w + panel_w + room) + label_w
        body.append(text(x0, top - 10, "same buffers each frame" if flavour == "same" else "fresh copies each frame", 12, weight="600"))
        decade = low
        while decade <= high:
            x = scale(decade, x0)
            body.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + len(bars) * group_h - gap}" stroke="{GRID}"/>')
            body.append(text(x, top + len(bars) * group_h + 6, nanoseconds(decade), 10, MUTED, "middle"))
            decade *= 10
        frame_x = scale(FRAME_120HZ_NS, x0)
        body.append(f'<line x1="{frame_x:.1f}" y1="{top - 2}" x2="{frame_x:.1f}" y2="{top + len(bars) * group_h - gap}" stroke="#c5221f" stroke-dasharray="3 3"/>')
        for g, count in enumerate(bars):
            y = top + g * group_h
            body.append(text(x0 - 10, y + group_h / 2 - 2, f"{count} bar{'s' if count != 1 else ''}", 12, anchor="end", weight="600"))
            for i, s in enumerate(strategies):
                r = lookup.get((s, flavour, count))
                if not r:
                    continue
                ns = r["nsPerFrameMedian"]
                yb = y + i * bar_h
                w = max(1.0, scale(ns, x0) - x0)
                body.append(f'<rect x="{x0}" y="{yb + 1}" width="{w:.1f}" height="{bar_h - 3}" rx="2" fill="{STRATEGY_COLOURS[s]}"/>')
                share = r["frameShare120Hz"] * 100
                label = f"{nanoseconds(ns)} · {share:.3g}% of a frame" if share < 100 else f"{nanoseconds(ns)} · {share / 100:.3g} frames"
                body.append(text(x0 + w + 4, yb + bar_h - 4, label, 10, MUTED))
    body.append(text(28, height - 14, "Source: bench/results/rebuild-every-frame.json (tabicon-bench rebuild-every-frame --json); redraw: python3 bench/charts.py", 10, MUTED))
    return svg(width, height, body)


def peers_chart(document):
    """Per input set: wall and CPU seconds per tool, and peak memory."""
    sets = document["sets"]
    label_w, time_w, mem_w, bar_h, row_gap = 104, 330, 170, 11, 10
    row_h = 2 * bar_h + row_gap
    set_heights = [34 + len(group["results"]) * row_h + 18 for group in sets]
    top = 84
    height = top + sum(set_heights) + 36
    width = 28 + label_w + time_w + 70 + mem_w + 60
    body = [text(28, 32, "tabicon against its peers: the same renditions, one batch", 17, weight="650"),
            text(28, 52, f"{document['machine']} · median of {document['repeat']} runs · shorter is better", 11, MUTED)]
    body.append(f'<rect x="28" y="62" width="10" height="10" rx="2" fill="#5f6368"/>')
    body.append(text(42, 71, "wall time", 11))
    body.append(f'<rect x="104" y="62" width="10" height="10" rx="2" fill="#5f6368" fill-opacity="0.35"/>')
    body.append(text(118, 71, "CPU time (user + sys)", 11))
    for n, group in enumerate(sets):
        y0 = top + sum(set_heights[:n])
        results = group["results"]
        base = next(r for r in results if r["tool"] == "tabicon")
        max_s = max(max(r["wallSeconds"], r["cpuSeconds"]) for r in results)
        max_m = max(r["peakMiB"] for r in results)
        x_time = 28 + label_w
        x_mem = x_time + time_w + 70
        name = os.path.basename(group["inputs"].rstrip("/"))
        body.append(text(28, y0 + 14, f"{group['files']} {name} ({group['inputs']})", 13, weight="600"))
        body.append(text(x_time, y0 + 30, "seconds", 10, MUTED))
        body.append(text(x_mem, y0 + 30, "peak memory (MiB)", 10, MUTED))
        for i, r in enumerate(results):
            y = y0 + 36 + i * row_h
            colour = TOOL_COLOURS.get(r["tool"], "#5f6368")
            body.append(text(x_time - 10, y + bar_h + 3, r["tool"], 12, anchor="end", weight="600" if r["tool"] == "tabicon" else "400"))
            # The longest bar leaves room for its label before the memory column.
            wall_w = max(1.0, (time_w - 110) * r["wallSeconds"] / max_s)
            cpu_w = max(1.0, (time_w - 110) * r["cpuSeconds"] / max_s)
            body.append(f'<rect x="{x_time}" y="{y}" width="{wall_w:.1f}" height="{bar_h}" rx="2" fill="{colour}"/>')
            body.append(f'<rect x="{x_time}" y="{y + bar_h + 1}" width="{cpu_w:.1f}" height="{bar_h - 2}" rx="2" fill="{colour}" fill-opacity="0.35"/>')
            ratio = "" if r is base else f" (×{r['wallSeconds'] / base['wallSeconds']:.1f})"
            body.append(text(x_time + wall_w + 4, y + bar_h - 2, f"{r['wallSeconds']:.2f} s{ratio}", 10, INK))
            body.append(text(x_time + cpu_w + 4, y + 2 * bar_h - 1, f"{r['cpuSeconds']:.2f} s CPU", 9, MUTED))
            mem_bar = max(1.0, (mem_w - 30) * r["peakMiB"] / max_m)
            body.append(f'<rect x="{x_mem}" y="{y + 4}" width="{mem_bar:.1f}" height="{bar_h + 2}" rx="2" fill="{colour}" fill-opacity="0.8"/>')
            body.append(text(x_mem + mem_bar + 4, y + bar_h + 3, f"{r['peakMiB']:.0f}", 10, INK))
    body.append(text(28, height - 14, "Source: bench/results/peers.json (PEERS_JSON=… bench/peers.sh); redraw: python3 bench/charts.py", 10, MUTED))
    return svg(width, height, body)


def main():
    if "--measure" in sys.argv[1:]:
        measure()
    os.makedirs(CHARTS, exist_ok=True)
    charts = (("rebuild-every-frame.json", "rebuild-every-frame.svg", rebuild_chart), ("peers.json", "peers.svg", peers_chart))
    for source, target, draw in charts:
        with open(os.path.join(RESULTS, source)) as f:
            document = json.load(f)
        with open(os.path.join(CHARTS, target), "w") as f:
            f.write(draw(document))
        print(f"bench/charts/{target} from bench/results/{source}")


if __name__ == "__main__":
    main()
