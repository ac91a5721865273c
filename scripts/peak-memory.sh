#!/usr/bin/env bash
# Peak memory of the release CLI on hostile inputs (SPEC §2 limits): runs `tabicon inspect` and
# `tabicon normalize` on every file in ../shared/corpus/bad (override with TABICONS_CORPUS) and on
# decompression bombs made here, reads the peak RSS from GNU time, and fails if any run passes
# LIMIT_MIB (default 256). Then the large-PNG targets (`large_targets` below), and the figure for
# `tabicon inspect --json` over the whole corpus.
#
#   scripts/peak-memory.sh            (make peak-memory builds the release CLI first)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="$PATH:/opt/swift/usr/bin"
corpus="${TABICONS_CORPUS:-$(dirname "$root")/shared/corpus}"
limit_kib=$(( ${LIMIT_MIB:-256} * 1024 ))
tabicon="$(cd "$root" && swift build -c release --show-bin-path)/tabicon"
[ -x "$tabicon" ] || { echo "peak-memory: build the release CLI first (make build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "peak-memory: needs GNU time (apt-get install time)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Bombs that are not in the corpus: a zTXt and an iCCP chunk inflating to 1 GiB, a PNG header
# of 32768×32768 (inside the side limit, past the pixel limit), a WebP header of 16383×16383 and
# a JPEG header of 65500×65500, each with almost no data. Hostile SVG (SvgBombs below): billion
# laughs, one 50 KB entity referenced 5,000 times, a 30000² data: PNG, a million elements, a
# .svgz inflating to 1 GiB, deep nesting, a <use> bomb and cycle, blur/morphology/turbulence
# bombs, 19,000 filtered elements, file:/// and ../ references, and the largest SVG the limits
# let through (3,000 overlapping translucent stroked circles), 9,990 masked elements.
mkdir -p "$work/bombs"
python3 - "$work/bombs" <<'PY'
import struct, sys, zlib
out = sys.argv[1]
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
def png(w, h, extra=b""):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0" * (w + 1) if w < 4096 else b"\0" * 16)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
z = zlib.compressobj(9)
bomb = b"".join(z.compress(b"\0" * (1 << 24)) for _ in range(64)) + z.flush()  # 1 GiB of zeros
open(f"{out}/ztxt-bomb.png", "wb").write(png(2, 1, chunk(b"zTXt", b"Comment\0\0" + bomb)))
open(f"{out}/iccp-bomb.png", "wb").write(png(2, 1, chunk(b"iCCP", b"icc\0\0" + bomb)))
open(f"{out}/huge-ihdr.png", "wb").write(png(32768, 32768))
vp8l = b"\x2f" + (((16383 - 1) | ((16383 - 1) << 14) | (1 << 28))).to_bytes(4, "little") + b"\0" * 8
open(f"{out}/huge.webp", "wb").write(b"RIFF" + struct.pack("<I", 4 + 8 + len(vp8l)) + b"WEBP" + b"VP8L" + struct.pack("<I", len(vp8l)) + vp8l)
sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 65500, 65500, 3) + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
open(f"{out}/huge.jpg", "wb").write(b"\xff\xd8" + sof + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + b"\0" * 64 + b"\xff\xd9")

# SvgBombs
import base64, gzip, io
ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
def svg(name, body, attrs='viewBox="0 0 16 16"', prolog=""):
    open(f"{out}/{name}", "w").write(f'{prolog}<svg {ns} {attrs}>{body}</svg>')
laughs = '<!ENTITY a "lollollollol">' + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcdefghi", "bcdefghij"))
svg("billion-laughs.svg", "<text>&j;</text>", prolog=f"<!DOCTYPE svg [{laughs}]>")
svg("big-entity.svg", "<desc>" + "&e;" * 5000 + "</desc>", prolog='<!DOCTYPE svg [<!ENTITY e "' + "x" * 50000 + '">]>')
svg("data-png.svg", f'<image width="16" height="16" href="data:image/png;base64,{base64.b64encode(png(30000, 30000)).decode()}"/>')
svg("million-elements.svg", "<g/>" * 1_100_000)
buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
    f.write(f'<svg {ns} viewBox="0 0 16 16"><!--'.encode())
    for _ in range(64): f.write(b" " * (1 << 24))
    f.write(b"--></svg>")
open(f"{out}/bomb.svgz", "wb").write(buf.getvalue())
svg("deep-nesting.svg", "<g>" * 100000 + "</g>" * 100000)
levels = '<rect id="l0" width="1" height="1"/>' + "".join(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 10))
svg("use-bomb.svg", f"<defs>{levels}</defs><use href=\"#l9\"/>")
svg("use-cycle.svg", '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>')
for name, primitive in [("blur", '<feGaussianBlur stdDeviation="1e9"/>'), ("morphology", '<feMorphology radius="1e6"/>'),
                        ("turbulence", '<feTurbulence baseFrequency="0.9" numOctaves="1000000"/>')]:
    svg(f"{name}-bomb.svg", f'<filter id="f">{primitive}</filter><rect width="8" height="8" filter="url(#f)"/>')
svg("filtered-many.svg", '<filter id="f"><feGaussianBlur stdDeviation="3"/></filter>' + '<circle cx="8" cy="8" r="8" filter="url(#f)"/>' * 19000)
svg("external-refs.svg", '<image width="16" height="16" href="file:///etc/passwd"/><image width="16" height="16" href="../canary.png"/>')
svg("at-the-limits.svg", '<g opacity="0.5"><circle cx="8" cy="8" r="8" fill="red" stroke="blue"/></g>' * 3000)
svg("masks-many.svg", '<mask id="m"><rect width="8" height="8" fill="white"/></mask>' + '<circle r="8" cx="8" cy="8" mask="url(#m)"/>' * 9990)
PY

# Peak RSS in KiB and CPU seconds (user + system) of one command, "KIB CPU" (its exit status is
# not the point: bad inputs exit 1).
measure() {
    { /usr/bin/time -v "$@" 2>&1 >/dev/null || true; } | awk -F': ' '
        /Maximum resident set size/ {kib = $2} /User time/ {cpu += $2} /System time/ {cpu += $2}
        END {printf "%d %.2f\n", kib, cpu}'
}
peak() { measure "$@" | cut -d' ' -f1; }

# Issue 17's raster inputs (bench/make-hostile-inputs.sh, made when missing): piled-up text
# chunks, headers claiming 10000² 16-bit Adam7 over a few bytes, legal 16-bit and Adam7 PNGs
# near 9000², animations of small frames on large canvases.
hostile="$root/bench/inputs/hostile"
[ -f "$hostile/ztxt-250x8MB.png" ] || "$root/bench/make-hostile-inputs.sh" >/dev/null

worst=0 worst_run="" failures=0 runs=0 worst_cpu=0 worst_cpu_run=""
while IFS= read -r -d '' file; do
    for command in inspect normalize; do
        if [ "$command" = inspect ]; then
            read -r kib cpu < <(measure "$tabicon" inspect "$file")
        else
            rm -rf "$work/out"
            read -r kib cpu < <(measure "$tabicon" normalize -q "$file" -o "$work/out")
        fi
        if awk -v a="$cpu" -v b="$worst_cpu" 'BEGIN {exit !(a > b)}'; then worst_cpu=$cpu worst_cpu_run="$command ${file#"$corpus"/}"; fi
        runs=$((runs + 1))
        if [ "$kib" -gt "$worst" ]; then worst=$kib worst_run="$command ${file#"$corpus"/}"; fi
        if [ "$kib" -gt "$limit_kib" ]; then
            echo "peak-memory: FAIL $command $file: $((kib / 1024)) MiB" >&2
            failures=$((failures + 1))
        fi
    done
done < <(find "$corpus/bad" "$work/bombs" "$hostile" -type f -print0 | sort -z)

# The streamed-decoding targets (a PNG read row by row holds its renditions, never its pixels): `tabicon normalize` on the 9000×9000 1-bit PNG and the
# 9990×9990 RGBA PNG of bench/make-large-inputs.sh (made when missing) stays under
# LARGE_LIMIT_MIB (default 64) each. The same files with --trim, which keeps the whole-image path,
# are shown beside them for comparison, not held to it (since the decode-memory limit they are refused as
# tooLarge: their RGBA passes the 256 MiB decode-memory limit).
large_targets() {
    local large="$root/bench/inputs/large" file kib
    [ -f "$large/bitmap-9000.png" ] && [ -f "$large/rgba-9990.png" ] || "$root/bench/make-large-inputs.sh" >/dev/null
    for file in "$large/bitmap-9000.png" "$large/rgba-9990.png"; do
        rm -rf "$work/out"
        kib=$(peak "$tabicon" normalize -q "$file" -o "$work/out")
        echo "peak-memory: tabicon normalize ${file#"$root"/}: $((kib / 1024)) MiB ($kib KiB); target ${LARGE_LIMIT_MIB:-64} MiB"
        if [ "$kib" -gt $(( ${LARGE_LIMIT_MIB:-64} * 1024 )) ]; then
            echo "peak-memory: FAIL ${file#"$root"/} over ${LARGE_LIMIT_MIB:-64} MiB" >&2
            failures=$((failures + 1))
        fi
        rm -rf "$work/out"
        kib=$(peak "$tabicon" normalize -q --trim "$file" -o "$work/out")
        echo "peak-memory: tabicon normalize --trim ${file#"$root"/} (whole-image path): $((kib / 1024)) MiB ($kib KiB)"
    done
}
large_targets

echo "peak-memory: $runs runs on $(find "$corpus/bad" "$work/bombs" "$hostile" -type f | wc -l) files; highest peak $((worst / 1024)) MiB ($worst KiB) for $worst_run; limit ${LIMIT_MIB:-256} MiB"
echo "peak-memory: most CPU time ${worst_cpu} s for $worst_cpu_run (reported, not judged: the machine may be shared)"
whole=$(peak "$tabicon" inspect --json "$corpus")
echo "peak-memory: tabicon inspect --json over the whole corpus ($(find "$corpus" -type f | wc -l) files): $((whole / 1024)) MiB ($whole KiB)"
[ "$failures" -eq 0 ]
