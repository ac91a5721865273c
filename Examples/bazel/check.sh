#!/usr/bin/env bash
# The Bazel example's checks (SPEC §9), run by `make bazel-example`: Examples/bazel/check.sh TABICON
#
# 1. Two copies of this workspace at different paths, one shared --disk_cache: the first builds
#    every render and assemble action; the second executes none (every one a cache hit).
# 2. One icon's bytes changed in the second copy: exactly one render and one assemble run.
# 3. What Bazel built is what `tabicon normalize` writes for the same icons, file for file and
#    byte for byte (xcassets and android).
# 4. An icon that is no image fails its render action with normalize's message.
# Counts come from Bazel's execution log (--execution_log_json_file: each spawn's mnemonic and
# whether it was a cache hit). Everything lives in a fresh folder under .build/, removed at the end.
set -euo pipefail
tabicon=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d "$repo/.build/bazel-example.XXXXXX")
roots=()
cleanup() {
    for root in "${roots[@]}"; do (cd "$work" && bazel --output_user_root="$root" shutdown >/dev/null 2>&1) || true; done
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

copy() {  # a copy of the workspace at $work/$1, with this tabicon in tools/
    mkdir -p "$work/$1"
    cp -R "$here/." "$work/$1"
    rm -f "$work/$1/check.sh"
    install -m 755 "$tabicon" "$work/$1/tools/tabicon"
}

build() {  # build in copy $1 (log $2) the targets after them; its own output root, the shared cache
    local ws=$1 log=$2 root="$work/root-$(echo "$1" | tr / -)"
    shift 2
    roots+=("$root")
    (cd "$work/$ws" && bazel --output_user_root="$root" --max_idle_secs=60 build --disk_cache="$work/cache" \
        --execution_log_json_file="$log" --spawn_strategy=processwrapper-sandbox --noshow_progress \
        --local_cpu_resources=2 "$@")
}

executed() {  # how many spawns of mnemonic $2 in log $1 ran (were not cache hits)
    python3 - "$1" "$2" <<'EOF'
import json, sys
text, decoder, at, count = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    if spawn.get("mnemonic") == sys.argv[2] and not spawn.get("remoteCacheHit"):
        count += 1
print(count)
EOF
}

expect() {  # expect NAME ACTUAL WANTED
    if [ "$2" != "$3" ]; then
        echo "bazel-example: $1: $2, expected $3" >&2
        exit 1
    fi
    echo "bazel-example: $1: $2"
}

icons=$(cd "$here" && ls icons | wc -l | tr -d ' ')
targets=(//:tab_icons //:tab_icons_android)

copy a/workspace
copy b/somewhere/else/workspace
build a/workspace "$work/a.log" "${targets[@]}"
expect "first copy, renders run" "$(executed "$work/a.log" TabiconRender)" $((icons * 2))
expect "first copy, assemblies run" "$(executed "$work/a.log" TabiconAssemble)" 2

build b/somewhere/else/workspace "$work/b.log" "${targets[@]}"
expect "second copy at another path, renders run" "$(executed "$work/b.log" TabiconRender)" 0
expect "second copy at another path, assemblies run" "$(executed "$work/b.log" TabiconAssemble)" 0

cp "$repo/TestImages/heart.png" "$work/b/somewhere/else/workspace/icons/profile.png"
build b/somewhere/else/workspace "$work/b2.log" //:tab_icons
expect "one icon changed, renders run" "$(executed "$work/b2.log" TabiconRender)" 1
expect "one icon changed, assemblies run" "$(executed "$work/b2.log" TabiconAssemble)" 1

# What normalize writes for the same icons (spelled as Bazel spells them, in path order).
ws="$work/b/somewhere/else/workspace"
build b/somewhere/else/workspace "$work/b3.log" //:tab_icons_android
for target in tab_icons:xcassets tab_icons_android:android; do
    name=${target%%:*}
    layout=${target##*:}
    config=()
    [ "$layout" = android ] && config=(--config lints.json)  # as BUILD gives that target
    (cd "$ws" && "$tabicon" normalize -q --layout "$layout" "${config[@]}" -o "$work/normalized/$name" \
        --manifest "$work/normalized/$name.manifest.json" icons/*)
    diff -r "$ws/bazel-bin/$name" "$work/normalized/$name"
    cmp "$ws/bazel-bin/$name.manifest.json" "$work/normalized/$name.manifest.json"
    expect "$name equals normalize's output, files" "$(cd "$ws/bazel-bin/$name" && find . -type f | wc -l | tr -d ' ')" \
        "$(cd "$work/normalized/$name" && find . -type f | wc -l | tr -d ' ')"
done

# A broken icon fails its action, with the line normalize prints for it.
if output=$(build b/somewhere/else/workspace "$work/broken.log" //:broken_icons 2>&1); then
    echo "bazel-example: //:broken_icons built, expected its render to fail" >&2
    exit 1
fi
wanted=$(cd "$ws" && "$tabicon" normalize -q -o "$work/broken-out" broken/not-an-icon.png 2>&1 | grep "not-an-icon" || true)
if [ -z "$wanted" ] || ! grep -qF -- "$wanted" <<<"$output"; then
    echo "bazel-example: the failed action did not say normalize's \"$wanted\":" >&2
    echo "$output" >&2
    exit 1
fi
echo "bazel-example: a broken icon fails its render action: $wanted"
echo "bazel-example: all checks passed"
