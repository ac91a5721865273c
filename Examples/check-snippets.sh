#!/usr/bin/env bash
# `make example` (and .ci/run): every Swift snippet of the documents compiles as it is written,
# and the build tool of docs/library.md runs. The snippets are taken from the Markdown at each
# run (nothing is copied into the repository) into a package in a temporary folder:
#   - docs/library.md's Package.swift arguments and docs/plugin.md's are the package's targets
#     (their URL pointed at this checkout);
#   - docs/library.md's program is IconTool's main.swift, built and run from a folder holding
#     icons/: exit 0 over good icons, 1 once an input fails (the result's failures checked);
#   - docs/library.md's `TabIcons` example is a file of its own target;
#   - docs/plugin.md's lines naming TabIconAssets are the body of a function in the App target,
#     whose Icons/ (home.svg, home-filled.svg) the plugin renders.
# A ```swift block this script does not place fails it: a new snippet must be added here.
# Prints one line per check; exits 1 at the first that fails, with the build log.
set -euo pipefail
export PATH="$PATH:/opt/swift/usr/bin"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tabicons-snippets.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/build.log"
: >"$log"

fail() {
    echo "FAIL: $1" >&2
    echo "--- log" >&2
    cat "$log" >&2
    exit 1
}
pass() { echo "ok: $1"; }

# The Nth ```swift block of a document (from 1), without its fences, its indentation removed
# (a block inside a list item is indented as the item).
block() {
    awk -v want="$2" '
        /^ *```swift *$/ { n++; if (n == want) { match($0, /^ */); indent = RLENGTH; inside = 1 }; next }
        inside && /^ *``` *$/ { exit }
        inside { print substr($0, indent + 1) }
    ' "$1"
}
count() { grep -c '^ *```swift *$' "$1" || true; }

# Every document's Swift blocks, and how many of them this script places.
expected="docs/library.md:3 docs/plugin.md:2"
for doc in "$root"/README.md "$root"/docs/*.md "$root"/Examples/TabBarExample/README.md; do
    relative=${doc#"$root"/}
    n=$(count "$doc")
    want=0
    for entry in $expected; do [ "${entry%%:*}" = "$relative" ] && want=${entry##*:}; done
    [ "$n" = "$want" ] || fail "$relative has $n Swift blocks; this script places $want (add the new one here)"
done

package="$work/Snippets"
mkdir -p "$package/Sources/IconTool" "$package/Sources/LibrarySnippet" "$package/Sources/App/Icons"
dependency=".package(name: \"TabIcons\", path: \"$root\")"
point() { sed "s|\.package(url: \"https://…/TabIcons.git\", from: \"[0-9.]*\")|$dependency|"; }
library_arguments=$(block "$root/docs/library.md" 1 | point)
plugin_arguments=$(block "$root/docs/plugin.md" 1 | point)
grep -qF "$dependency" <<<"$library_arguments" || fail "docs/library.md's Package.swift arguments name no TabIcons URL to point at the checkout"
grep -qF "$dependency" <<<"$plugin_arguments" || fail "docs/plugin.md's Package.swift arguments name no TabIcons URL to point at the checkout"
cat >"$package/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

/// The arguments each document gives its Package(name:...), as written.
func arguments(dependencies: [Package.Dependency], targets: [Target]) -> (dependencies: [Package.Dependency], targets: [Target]) {
    (dependencies, targets)
}
let library = arguments(
$library_arguments
)
let plugin = arguments(
$plugin_arguments
)
let package = Package(
    name: "Snippets",
    dependencies: library.dependencies,
    targets: library.targets + plugin.targets + [
        .target(name: "LibrarySnippet", dependencies: [.product(name: "TabIcons", package: "TabIcons")])
    ]
)
EOF
block "$root/docs/library.md" 3 >"$package/Sources/IconTool/main.swift"
block "$root/docs/library.md" 2 >"$package/Sources/LibrarySnippet/Example.swift"
{
    echo "import Foundation"
    echo ""
    echo "// docs/plugin.md, as written:"
    echo "func pluginSnippet() {"
    block "$root/docs/plugin.md" 2
    echo "}"
} >"$package/Sources/App/Snippet.swift"
cp "$root/TestImages/house.svg" "$package/Sources/App/Icons/home.svg"
cp "$root/TestImages/house-fill.svg" "$package/Sources/App/Icons/home-filled.svg"

swift build --package-path "$package" >"$log" 2>&1 || fail "the snippets do not compile"
grep -q "TabIcons: naming 2 icons in TabIconAssets.swift" "$log" || fail "the plugin did not name App's icons"
pass "every Swift snippet compiles: docs/library.md (Package.swift, TabIcons, the IconTool program), docs/plugin.md (Package.swift, TabIconAssets)"

# The build tool, run as the document says: from a folder holding icons/.
tool="$(swift build --package-path "$package" --show-bin-path)/IconTool"
run="$work/run"
mkdir -p "$run/icons"
cp "$root/TestImages/bell.png" "$root/TestImages/house.svg" "$run/icons/"
(cd "$run" && "$tool") >"$log" 2>&1 || fail "IconTool over good icons exited $?"
[ -f "$run/Generated/Icons/icons/bell.imageset/Contents.json" ] && [ -f "$run/Generated/Icons/manifest.json" ] \
    || fail "IconTool wrote no image set or manifest under Generated/Icons"
pass "IconTool over good icons: exit 0, image sets and manifest in Generated/Icons"
printf 'not a png' >"$run/icons/broken.png"
status=0
(cd "$run" && "$tool") >"$log" 2>&1 || status=$?
[ "$status" = 1 ] || fail "IconTool with a broken icon exited $status, not 1"
grep -q "error: icons/broken.png: " "$log" || fail "IconTool did not name the broken icon"
pass "IconTool with a broken icon: exit 1, $(grep -m1 'error: icons/broken.png' "$log")"
