#!/usr/bin/env bash
# bench/peers.sh DIR...: `tabicon normalize` against Pillow, vipsthumbnail and ImageMagick on the
# same inputs, in one run, side by side: wall time, CPU time (user + sys), peak RSS, files and
# output bytes, with ratios to tabicon. Also tabicon with --jobs 1 and Pillow-SIMD (see
# `extra_peers`). A folder of .svg files (and no rasters) gets the SVG batch instead, against resvg
# (PyPI resvg-py, in-process), cairosvg (PyPI), vipsthumbnail (librsvg inside libvips) and
# rsvg-convert (librsvg's CLI, one process per file and size).
#
# Every tool writes the same renditions, the ones `tabicon` writes under SPEC §3 with the default
# 25 pt box, never upscaling: longest side 25, 50 and 75 px, a size skipped when it is larger
# than the source (a source under 25 px gets one rendition at its own size). PNG output, each
# tool's default compression. How each runs (one process per folder where the tool allows it):
#   tabicon      `tabicon normalize -q -o OUT DIR`: one process, --jobs = all cores; it also
#                hashes every input and output and writes manifest.json.
#   Pillow       bench/peers/pillow_normalize.py: one python process; one decode per input (JPEG
#                in draft mode, i.e. DCT scaling), `thumbnail(LANCZOS)` per rendition; single-threaded.
#   vipsthumbnail  one process per rendition size over every input that size applies to
#                (`--size SxS>`: shrink only); shrink-on-load for JPEG; libvips' own threads.
#   ImageMagick  `mogrify -filter Lanczos -thumbnail SxS>` likewise, one process per size, with
#                `-define jpeg:size=` for DCT scaling; ImageMagick 6 (Debian's).
# The SVG batch: square icons (e.g. every 6th Bootstrap icon:
#   mkdir -p bench/inputs/svg && ls ../shared/corpus/svg/bootstrap-icons/*.svg | awk 'NR % 6 == 1' |
#   xargs cp -t bench/inputs/svg), each tool asked for 25, 50 and 75 px: tabicon as above;
# resvg and cairosvg through bench/peers/svg_render.py (one python process each, single-threaded);
# vipsthumbnail one process per size (`--size S`); rsvg-convert `-w S -h S` per file and size.
# Each tool runs REPEAT times (default 3), the tools interleaved round by round so they share the
# machine's load alike; the table shows each tool's median wall and CPU and its largest peak RSS.
# Measured with /usr/bin/time (RSS: the largest single process of the tool's run). Outputs are
# written under /dev/shm when it exists (PEERS_TMP=DIR to choose), for every tool alike.
#
# Installs what is missing with apt (libvips-tools, imagemagick, python3-pil, time) and builds
# tabicon in release mode with the Swift runtime linked statically (`--static-swift-stdlib`, into
# .build/static). Environment: REPEAT=N, TABICON=path/to/tabicon, BASELINE=path/to/an/older/tabicon
# (also run, as `before` and `before-j1`: a change's before and after in one run), KEEP=1 keeps outputs,
# PEERS_JSON=FILE also writes the figures as JSON (what bench/charts.py draws):
#   {"machine", "tools", "repeat", "sets": [{"inputs", "files", "results": [{"tool", "wallSeconds",
#    "cpuSeconds", "peakMiB", "files", "bytes"}]}]}
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
(($#)) || { echo "usage: bench/peers.sh DIR..." >&2; exit 2; }
REPEAT=${REPEAT:-3}

need=()
command -v vipsthumbnail >/dev/null || need+=(libvips-tools)
[ -x /usr/bin/mogrify ] || need+=(imagemagick)
python3 -c 'import PIL' 2>/dev/null || need+=(python3-pil)
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
[ -x /usr/bin/time ] || need+=(time)
if ((${#need[@]})); then
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
    echo "installing ${need[*]}" >&2
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ -z "${TABICON:-}" ]; then
    # The release build as shipped: Swift's runtime and Foundation linked statically (faster
    # start, 7 MB less resident than the shared libraries), in its own scratch folder.
    swift build -c release --static-swift-stdlib --product tabicon --scratch-path .build/static >&2
    TABICON=$(swift build -c release --static-swift-stdlib --scratch-path .build/static --show-bin-path)/tabicon
fi

# Pillow-SIMD (PyPI `pillow-simd`: Pillow's API with SSE4/AVX2 resampling and conversions), built
# from source with CC="cc -mavx2" into its own virtual environment, since it replaces the `PIL`
# package Pillow installs. Built once (a few minutes; needs python3-venv, python3-dev, zlib1g-dev,
# libjpeg-dev), then reused: PILLOW_SIMD_VENV=DIR to choose where, PILLOW_SIMD=0 to leave it out.
pillow_simd_python() {
    local venv=${PILLOW_SIMD_VENV:-$root/.build/pillow-simd}
    if ! "$venv/bin/python" -c 'import PIL' 2>/dev/null; then
        echo "building Pillow-SIMD into $venv (once)" >&2
        python3 -m venv "$venv" >&2
        CC="cc -mavx2" "$venv/bin/pip" install -q --no-cache-dir --no-binary pillow-simd pillow-simd >&2
    fi
    echo "$venv/bin/python"
}
simd_python=""
[ "${PILLOW_SIMD:-1}" = 0 ] || simd_python=$(pillow_simd_python)

# Outputs go to a tmpfs when there is one, so the figures measure the tools and not this
# machine's disk (file creation on a busy ext4 cost some runs seconds of system time).
out_root=${PEERS_TMP:-}
if [ -z "$out_root" ]; then
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then out_root=/dev/shm; else out_root=${TMPDIR:-/tmp}; fi
fi
work=$(mktemp -d "$out_root/tabicon-peers.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $cpu, $(nproc) cores, $(. /etc/os-release; echo "$PRETTY_NAME"), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tools: $("$TABICON" --version); Pillow $(python3 -c 'import PIL; print(PIL.__version__)');" \
     "$(vipsthumbnail --version); $(/usr/bin/mogrify -version | head -1 | cut -d' ' -f2-3)"
echo "repeat: $REPEAT (median wall and CPU, largest peak RSS); outputs under $out_root"
[ -z "${simd_python:-}" ] || echo "Pillow-SIMD $("$simd_python" -c 'import PIL; print(PIL.__version__)') (CC=\"cc -mavx2\", $simd_python)"
if [ -n "${PEERS_JSON:-}" ]; then
    python3 - "$PEERS_JSON" "$cpu, $(nproc) cores, $(. /etc/os-release; echo "$PRETTY_NAME")" \
        "$("$TABICON" --version); Pillow $(python3 -c 'import PIL; print(PIL.__version__)'); $(vipsthumbnail --version); $(/usr/bin/mogrify -version | head -1 | cut -d' ' -f2-3)" \
        "$REPEAT" <<'EOF'
import json, sys
path, machine, tools, repeat = sys.argv[1:]
with open(path, "w") as f:
    json.dump({"machine": machine, "tools": tools, "repeat": int(repeat), "sets": []}, f, indent=2)
EOF
fi

# One timed run: LABEL OUTDIR -- COMMAND...; appends "label wall cpu rss" to $work/times.
timed() {
    local label=$1 out=$2; shift 3
    mkdir -p "$out"
    /usr/bin/time -o "$work/t" -f '%e %U %S %M' "$@" >/dev/null 2>"$work/err" || {
        echo "$label failed:" >&2; cat "$work/err" >&2; return 1; }
    read -r wall user sys rss < "$work/t"
    local files bytes
    files=$(find "$out" -name '*.png' | wc -l)
    bytes=$(find "$out" -name '*.png' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    echo "$label $wall $(awk "BEGIN {print $user + $sys}") $rss $files $bytes" >> "$work/times"
}

# The peers beside the main four (issue 12): tabicon on one core (`--jobs 1`, for the CPU and
# --jobs comparisons) and Pillow-SIMD with the same script as Pillow, in its own environment.
extra_peers() {
    timed "tabicon-j1" "$1/tabicon-j1" -- "$TABICON" normalize -q --jobs 1 -o "$1/tabicon-j1" "$dir"
    if [ -n "${BASELINE:-}" ]; then
        timed before "$1/before" -- "$BASELINE" normalize -q -o "$1/before" "$dir"
        timed before-j1 "$1/before-j1" -- "$BASELINE" normalize -q --jobs 1 -o "$1/before-j1" "$dir"
    fi
    [ -z "${simd_python:-}" ] ||
        timed Pillow-SIMD "$1/pillow-simd" -- "$simd_python" "$root/bench/peers/pillow_normalize.py" "$1/pillow-simd" "${inputs[@]}"
}

# The table of one folder's runs: `summary ALL JSON INPUTS COUNT TOOL...`, the first tool the
# baseline, tools with no runs left out; with JSON (a file) not empty, the set is also appended to
# that document (what bench/charts.py draws).
summary() {
    python3 - "$@" <<'EOF'
import json, statistics, sys
all_runs, json_path, inputs, count = sys.argv[1:5]
runs = {}
for line in open(all_runs):
    name, wall, cpu, rss, files, size = line.split()
    runs.setdefault(name, []).append((float(wall), float(cpu), int(rss), int(files), int(size)))
def figures(name):
    r = runs[name]
    return (statistics.median(x[0] for x in r), statistics.median(x[1] for x in r),
            max(x[2] for x in r) / 1024, r[-1][3], r[-1][4])
tools = [t for t in sys.argv[5:] if t in runs]
base = figures(tools[0])
print(f"{'tool':<14}{'wall s':>8}{'CPU s':>8}{'peak MiB':>10}{'files':>7}{'PNG KiB':>9}"
      f"{'wall ×':>8}{'CPU ×':>7}{'RSS ×':>7}{'size ×':>8}")
for name in tools:
    w, c, m, n, b = figures(name)
    print(f"{name:<14}{w:>8.2f}{c:>8.2f}{m:>10.1f}{n:>7}{b / 1024:>9.0f}"
          f"{w / base[0]:>8.2f}{c / base[1]:>7.2f}{m / base[2]:>7.2f}{b / base[4]:>8.2f}")
print("(× = the tool's figure divided by tabicon's: above 1 means tabicon is faster / smaller)")
if json_path:
    with open(json_path) as f:
        document = json.load(f)
    results = []
    for name in tools:
        w, c, m, n, b = figures(name)
        results.append({"tool": name, "wallSeconds": w, "cpuSeconds": c, "peakMiB": round(m, 1), "files": n, "bytes": b})
    document["sets"].append({"inputs": inputs, "files": int(count), "results": results})
    with open(json_path, "w") as f:
        json.dump(document, f, indent=2)
        f.write("\n")
EOF
}

# Adds up the rows of a tool's several processes: `merge NAME TIMES KEPT` appends one row NAME to
# KEPT with the summed wall and CPU, the largest RSS, and the summed files and bytes.
merge() {
    python3 - "$@" <<'EOF'
import sys
name, extra, kept = sys.argv[1], [l.split() for l in open(sys.argv[2])], sys.argv[3]
v = [name, 0.0, 0.0, 0, 0, 0]
for e in extra:
    v[1] += float(e[1]); v[2] += float(e[2]); v[3] = max(v[3], int(e[3])); v[4] += int(e[4]); v[5] += int(e[5])
with open(kept, "a") as f:
    f.write(f"{name} {v[1]:.2f} {v[2]:.2f} {v[3]} {v[4]} {v[5]}\n")
EOF
}

# The SVG batch of one folder (see the header).
svg_batch() {
    local dir=$1; shift
    local svgs=("$@")
    python3 -c 'import resvg_py, cairosvg' 2>/dev/null || {
        echo "the SVG batch needs resvg-py and cairosvg: pip install resvg-py cairosvg" >&2; exit 2; }
    echo
    echo "== $dir: ${#svgs[@]} SVG icons, $(du -sh "$dir" | cut -f1); renditions 25/50/75 px each =="
    echo "tools: resvg-py $(python3 -c 'import importlib.metadata as m; print(m.version("resvg-py"))');" \
         "cairosvg $(python3 -c 'import cairosvg; print(cairosvg.__version__)'); $(rsvg-convert --version)"
    for ((r = 1; r <= REPEAT; r++)); do
        local o=$work/r$r
        : > "$work/times"
        timed tabicon "$o/tabicon" -- "$TABICON" normalize -q -o "$o/tabicon" "$dir"
        timed tabicon-j1 "$o/tabicon-j1" -- "$TABICON" normalize -q --jobs 1 -o "$o/tabicon-j1" "$dir"
        if [ -n "${BASELINE:-}" ]; then
            timed before "$o/before" -- "$BASELINE" normalize -q -o "$o/before" "$dir"
            timed before-j1 "$o/before-j1" -- "$BASELINE" normalize -q --jobs 1 -o "$o/before-j1" "$dir"
        fi
        timed resvg-py "$o/resvg" -- python3 "$root/bench/peers/svg_render.py" resvg "$o/resvg" "${svgs[@]}"
        timed cairosvg "$o/cairosvg" -- python3 "$root/bench/peers/svg_render.py" cairosvg "$o/cairosvg" "${svgs[@]}"
        mv "$work/times" "$work/times.keep"; : > "$work/times"
        for s in 25 50 75; do
            timed "v$s" "$o/vips$s" -- vipsthumbnail --size "$s" -o "$o/vips$s/%s-$s.png" "${svgs[@]}"
        done
        merge vipsthumbnail "$work/times" "$work/times.keep"
        : > "$work/times"
        mkdir -p "$o/rsvg"
        timed rsvg "$o/rsvg" -- bash -c 'out=$1; shift; for f in "$@"; do n=$(basename "$f" .svg)
            for s in 25 50 75; do rsvg-convert -w $s -h $s -o "$out/$n-$s.png" "$f" || exit 1; done; done' _ "$o/rsvg" "${svgs[@]}"
        merge rsvg-convert "$work/times" "$work/times.keep"
        cat "$work/times.keep" >> "$work/all"
        rm -f "$work/times.keep"
        rm -rf "$o"
    done
    summary "$work/all" "" "" 0 tabicon tabicon-j1 before before-j1 resvg-py cairosvg vipsthumbnail rsvg-convert
    rm -f "$work/all"
}

for dir in "$@"; do
    [ -d "$dir" ] || { echo "not a folder: $dir" >&2; exit 2; }
    : > "$work/times"
    mapfile -t svgs < <(find "$dir" -type f -iname '*.svg' | LC_ALL=C sort)
    if ((${#svgs[@]})) && [ -z "$(find "$dir" -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.webp' \) -print -quit)" ]; then
        svg_batch "$dir" "${svgs[@]}"
        continue
    fi
    mapfile -t inputs < <(find "$dir" -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.webp' \) | LC_ALL=C sort)
    # Which inputs get the 50 and 75 px renditions (longest side at least that): read once, untimed.
    python3 - "$work" "${inputs[@]}" <<'EOF'
import sys
from PIL import Image
work, paths = sys.argv[1], sys.argv[2:]
for size in (25, 50, 75):
    with open(f"{work}/list{size}", "w") as f:
        for p in paths:
            if size == 25 or max(Image.open(p).size) >= size:
                f.write(p + "\n")
EOF
    mapfile -t l25 < "$work/list25"; mapfile -t l50 < "$work/list50"; mapfile -t l75 < "$work/list75"
    echo
    echo "== $dir: ${#inputs[@]} inputs, $(du -sh "$dir" | cut -f1); renditions 25/50/75 px: ${#l25[@]}/${#l50[@]}/${#l75[@]} =="

    for ((r = 1; r <= REPEAT; r++)); do
        o=$work/r$r
        timed tabicon "$o/tabicon" -- "$TABICON" normalize -q -o "$o/tabicon" "$dir"
        timed Pillow "$o/pillow" -- python3 "$root/bench/peers/pillow_normalize.py" "$o/pillow" "${inputs[@]}"
        extra_peers "$o"
        timed vipsthumbnail "$o/vips" -- vipsthumbnail --size "25x25>" -o "$o/vips/%s.png" "${l25[@]}"
        # vips: three processes; time each and add them up (RSS: the largest).
        mv "$work/times" "$work/times.keep"
        timed v50 "$o/vips50" -- vipsthumbnail --size "50x50>" -o "$o/vips50/%s@2x.png" "${l50[@]}"
        timed v75 "$o/vips75" -- vipsthumbnail --size "75x75>" -o "$o/vips75/%s@3x.png" "${l75[@]}"
        python3 - "$work/times" "$work/times.keep" <<'EOF'
import sys
extra = [l.split() for l in open(sys.argv[1])]
rows = [l.split() for l in open(sys.argv[2])]
v = rows[-1]
assert v[0] == "vipsthumbnail"
for e in extra:
    v[1] = f"{float(v[1]) + float(e[1]):.2f}"; v[2] = f"{float(v[2]) + float(e[2]):.2f}"
    v[3] = str(max(int(v[3]), int(e[3]))); v[4] = str(int(v[4]) + int(e[4])); v[5] = str(int(v[5]) + int(e[5]))
with open(sys.argv[1], "w") as f:
    f.writelines(" ".join(r) + "\n" for r in rows)
EOF
        rm -f "$work/times.keep"
        mv "$work/times" "$work/times.keep"
        for s in 25 50 75; do
            list=l$s[@]
            timed "im$s" "$o/im$s" -- /usr/bin/mogrify -path "$o/im$s" -format png -define "jpeg:size=$((s * 2))x$((s * 2))" \
                -filter Lanczos -thumbnail "${s}x${s}>" "${!list}"
        done
        python3 - "$work/times" "$work/times.keep" <<'EOF'
import sys
extra = [l.split() for l in open(sys.argv[1])]
rows = [l.split() for l in open(sys.argv[2])]
v = ["ImageMagick", "0", "0", "0", "0", "0"]
for e in extra:
    v[1] = f"{float(v[1]) + float(e[1]):.2f}"; v[2] = f"{float(v[2]) + float(e[2]):.2f}"
    v[3] = str(max(int(v[3]), int(e[3]))); v[4] = str(int(v[4]) + int(e[4])); v[5] = str(int(v[5]) + int(e[5]))
rows.append(v)
with open(sys.argv[1], "w") as f:
    f.writelines(" ".join(r) + "\n" for r in rows)
EOF
        rm -f "$work/times.keep"
        cat "$work/times" >> "$work/all"
        : > "$work/times"
        rm -rf "$o"
    done

    summary "$work/all" "${PEERS_JSON:-}" "$dir" "${#inputs[@]}" tabicon tabicon-j1 before before-j1 Pillow Pillow-SIMD vipsthumbnail ImageMagick
    rm -f "$work/all"
done
