#!/usr/bin/env bash
# A set of icons through Examples/bazel's rule beside `tabicon normalize` on the same icons
# (SPEC §9, bench/README.md): Bazel's clean build, a fully cached build (another checkout at another
# path, one shared --disk_cache) and a build after one icon changed, each with its wall time and
# the actions it ran (from the execution log); then normalize's first run, rerun and one change.
# Bazel's server is started before each timed build (`bazel info`), so its start-up is not counted.
#
#     bash bench/bazel.sh SET TABICON        (SET: a folder of icons, e.g. bench/inputs/icons)
set -euo pipefail
set_dir=$(cd "$1" && pwd)
tabicon=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "$repo/.build/bench-bazel.XXXXXX")
roots=()
cleanup() {
    for root in "${roots[@]}"; do (cd "$work" && bazel --output_user_root="$root" shutdown >/dev/null 2>&1) || true; done
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

workspace() {  # $1: the copy's folder, with the set's icons and one tabicon_icons target
    mkdir -p "$work/$1/tools" "$work/$1/icons"
    cp "$repo/Examples/bazel/WORKSPACE" "$repo/Examples/bazel/tabicon.bzl" "$work/$1/"
    cp "$repo/Examples/bazel/tools/BUILD" "$work/$1/tools/"
    install -m 755 "$tabicon" "$work/$1/tools/tabicon"
    cp "$set_dir"/* "$work/$1/icons/"
    printf 'load(":tabicon.bzl", "tabicon_icons")\ntabicon_icons(name = "icons", srcs = glob(["icons/*"]), layout = "xcassets")\n' \
        >"$work/$1/BUILD"
}

timed_build() {  # $1 copy, $2 label: prints "label: wall s, N actions run"
    local root="$work/root-$(echo "$1" | tr / -)" log="$work/$2.log"
    roots+=("$root")
    local flags=(--output_user_root="$root" --max_idle_secs=120)
    (cd "$work/$1" && bazel "${flags[@]}" info >/dev/null 2>&1)
    local start end
    start=$(date +%s.%N)
    (cd "$work/$1" && bazel "${flags[@]}" build --disk_cache="$work/cache" --execution_log_json_file="$log" \
        --spawn_strategy=processwrapper-sandbox --noshow_progress //:icons >/dev/null 2>&1)
    end=$(date +%s.%N)
    local ran
    ran=$(python3 - "$log" <<'EOF'
import json, sys
text, decoder, at, ran = open(sys.argv[1]).read(), json.JSONDecoder(), 0, {}
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    if not spawn.get("remoteCacheHit"):
        ran[spawn.get("mnemonic")] = ran.get(spawn.get("mnemonic"), 0) + 1
print(", ".join(f"{n} {m}" for m, n in sorted(ran.items())) or "no action")
EOF
)
    printf '%s: %.2f s wall, ran %s\n' "$2" "$(echo "$end - $start" | bc)" "$ran"
}

timed_normalize() {  # $1 label
    local start end
    start=$(date +%s.%N)
    (cd "$work/n" && "$tabicon" normalize -q --layout xcassets -o out icons/* >/dev/null 2>&1 || true)
    end=$(date +%s.%N)
    printf 'normalize %s: %.2f s wall\n' "$1" "$(echo "$end - $start" | bc)"
}

all=("$set_dir"/*)
echo "${#all[@]} icons from $set_dir; $(nproc) cores; Debian's bazel-bootstrap $(dpkg-query -W -f='${Version}' bazel-bootstrap 2>/dev/null || echo unknown)"
workspace a/workspace
workspace b/elsewhere/workspace
timed_build a/workspace "bazel clean build"
timed_build b/elsewhere/workspace "bazel fully cached (another checkout)"
icons=("$work/b/elsewhere/workspace/icons"/*)
first=$(basename "${icons[0]}")
printf 'x' >>"$work/b/elsewhere/workspace/icons/$first"
timed_build b/elsewhere/workspace "bazel one icon changed"

mkdir -p "$work/n" && cp -R "$work/a/workspace/icons" "$work/n/"
timed_normalize "first run"
timed_normalize "rerun"
printf 'x' >>"$work/n/icons/$first"
timed_normalize "one icon changed"
