#!/usr/bin/env bash
# Fuzz TabIcons' decode → normalize → encode path with libFuzzer and AddressSanitizer.
#
#   fuzz/run.sh FORMAT SECONDS [libFuzzer options...]     FORMAT: png | jpeg | webp | svg
#   fuzz/run.sh build                                     just build the fuzzer
#   TABICONS_FUZZ_MODE=jail fuzz/run.sh FORMAT SECONDS    through the worker jail (issue 17)
#
# Modes (TABICONS_FUZZ_MODE): `inprocess` (the default) decodes, normalizes and encodes in this
# process; `jail` sends each input through the batch's engine twice, in a jailed worker (a release
# `tabicon` of this tree, built here unless TABICONS_FUZZ_WORKER names one) and in process, and
# holds the two to the same answer (FuzzTarget.swift, JailedFuzzTarget.swift). The jail mode keeps
# its own work corpus (corpus-work/FORMAT-jail/) and reads the in-process one as seeds.
#
# Seeds: TestImages/, ../shared/corpus (override with TABICONS_CORPUS) and the regression
# fixtures of earlier findings, picked by extension for FORMAT. The growing corpus is kept in
# fuzz/corpus-work/FORMAT/ (gitignored) so later runs continue where earlier ones stopped.
# Crashes, leaks, timeouts and OOMs land in fuzz/findings/FORMAT-*; each one is to be fixed
# and then copied to Tests/TabIconsTestSupport/Fixtures/fuzz/ with a test.
#
# The Swift code (TabIcons and the fuzz target) is instrumented for coverage and ASan; the
# system libpng, libjpeg-turbo and libwebp are not (they run, but guide nothing and are
# checked by ASan only through the buffers TabIcons hands them). librsvg likewise: for SVG the
# fuzzer is guided by the screening and size code in Swift, and a Rust panic in librsvg (which
# aborts) shows up as a crash finding.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
export PATH="$PATH:/opt/swift/usr/bin"

format="${1:?usage: fuzz/run.sh png|jpeg|webp|svg SECONDS [libFuzzer options...] | build | formats}"
# The formats the target fuzzes, one per line: what `make fuzz-smoke` iterates over.
if [ "$format" = formats ]; then printf '%s\n' png jpeg webp svg; exit 0; fi

build() {
    # SwiftPM links every executable with its own `main`, so libFuzzer comes in without its
    # `main` (fuzzer_no_main) and FuzzMain calls LLVMFuzzerRunDriver. `-sanitize=fuzzer` would
    # force-link libFuzzer's `main` too, which clashes; the coverage flags below are what it
    # implies for compiling.
    local rt
    rt="$(dirname "$(dirname "$(command -v swift)")")/lib/clang"
    rt="$(ls -d "$rt"/*/lib/linux | head -n 1)/libclang_rt.fuzzer_no_main-x86_64.a"
    (cd "$here" && swift build -c release \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xswiftc -parse-as-library \
        -Xcc -fsanitize=fuzzer-no-link,address \
        -Xlinker "$rt" -Xlinker -lstdc++ 2>&1 | { grep -v -E 'warning:|^\[' || true; })
    binary="$here/.build/release/TabIconsFuzz"
    [ -x "$binary" ] || { echo "fuzz/run.sh: build failed" >&2; exit 1; }
}

mode="${TABICONS_FUZZ_MODE:-inprocess}"
case "$mode" in
    inprocess|jail) ;;
    *) echo "fuzz/run.sh: unknown TABICONS_FUZZ_MODE $mode (inprocess or jail)" >&2; exit 2 ;;
esac
export TABICONS_FUZZ_MODE="$mode"

build
if [ "$mode" = jail ] && [ -z "${TABICONS_FUZZ_WORKER:-}" ]; then
    # The worker: tabicon of this tree, uninstrumented, so its kernel limits apply (a sanitizer
    # runtime's shadow memory would not fit under RLIMIT_DATA: WorkerLimits.memoryLimitApplies).
    (cd "$root" && swift build -c release --product tabicon 2>&1 | { grep -v -E 'warning:|^\[' || true; })
    export TABICONS_FUZZ_WORKER="$root/.build/release/tabicon"
    [ -x "$TABICONS_FUZZ_WORKER" ] || { echo "fuzz/run.sh: building the tabicon worker failed" >&2; exit 1; }
fi
[ "$format" = build ] && exit 0

seconds="${2:?usage: fuzz/run.sh FORMAT SECONDS}"
shift 2
case "$format" in
    png) extensions=(png) ;;
    jpeg) extensions=(jpg jpeg) ;;
    webp) extensions=(webp) ;;
    svg) extensions=(svg svgz) ;;
    *) echo "fuzz/run.sh: unknown format $format (png, jpeg, webp or svg)" >&2; exit 2 ;;
esac

corpus_root="${TABICONS_CORPUS:-$(dirname "$root")/shared/corpus}"
work="$here/corpus-work/$format"
[ "$mode" = jail ] && work="$here/corpus-work/$format-jail"
seeds="$here/corpus-work/$format-seeds"
mkdir -p "$work" "$seeds" "$here/findings"
# The corpus seeds only when it is there: on a clone alone, find would fail on a missing folder.
seed_dirs=("$root/TestImages" "$root/Tests/TabIconsTestSupport/Fixtures")
[ -d "$corpus_root" ] && seed_dirs+=("$corpus_root")
for ext in "${extensions[@]}"; do
    # Seeds above the fuzz target's 1 MiB input limit would only exercise the size check.
    # SVG: librsvg's own regression files (crash, render-crash, errors), its Adwaita reftests
    # and TestImages; the 1,953 Bootstrap Icons are too alike to be worth a seed each.
    find "${seed_dirs[@]}" \
        -path '*/bootstrap-icons' -prune -o \
        -type f -iname "*.$ext" -size -1024k -print0 2>/dev/null |
        while IFS= read -r -d '' file; do
            cp "$file" "$seeds/$(printf '%s' "$file" | md5sum | cut -c1-16).$ext"
        done
done
# Inputs may also arrive as base64 text or a data: URL: a few small seeds in that form too.
for file in "$root"/TestImages/*; do
    case "$file" in *.png|*.jpg|*.webp|*.svg) ;; *) continue ;; esac
    [ "$(wc -c < "$file")" -lt 4096 ] || continue
    mime="image/${file##*.}"; [ "$mime" = image/jpg ] && mime=image/jpeg; [ "$mime" = image/svg ] && mime=image/svg+xml
    { printf 'data:%s;base64,' "$mime"; base64 -w 76 "$file"; } > "$seeds/dataurl-$(basename "$file").txt"
done
# The jail mode also starts from what the in-process runs found (read only).
extra=()
[ "$mode" = jail ] && [ -d "$here/corpus-work/$format" ] && extra+=("$here/corpus-work/$format")
# A jailed worker is given 60 s of wall time (WorkerLimits.wallSeconds) before the jail kills it:
# libFuzzer's own timeout must be longer, or the jail's answer would be reported as a hang.
timeout=20
[ "$mode" = jail ] && timeout=90
echo "fuzz/run.sh: $format ($mode) for ${seconds}s, $(ls "$seeds" | wc -l) seeds, $(ls "$work" | wc -l) in the work corpus"

# detect_leaks: a leak in TabIcons (a png_image or jpeg struct not freed on an error path) is a finding.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
# The suite's LeakSanitizer suppressions: fontconfig's process-lifetime font cache (built the first
# time librsvg lays out text) is the one that matters here; see scripts/lsan.supp.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp}"
log="$here/corpus-work/$format-$mode.log"
set +e
"$binary" "$work" "$seeds" "${extra[@]}" \
    -dict="$here/dict/$format.dict" \
    -max_total_time="$seconds" \
    -rss_limit_mb=2048 \
    -max_len=131072 \
    -timeout="$timeout" \
    -artifact_prefix="$here/findings/$format-$mode-" \
    -print_final_stats=1 \
    "$@" 2>&1 | tee "$log" | grep -E --line-buffered '^#[0-9]+.*(pulse|DONE)|ERROR|Fatal|Test unit written|stat::'
status=${PIPESTATUS[0]}
set -e
echo "fuzz/run.sh: exit $status; corpus now $(ls "$work" | wc -l) files ($(du -sh "$work" | cut -f1)); log in $log"
exit "$status"
