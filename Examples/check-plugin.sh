#!/usr/bin/env bash
# `make example` (and .ci/run): TabIconsPlugin as a user meets it (SPEC §8), on a copy of
# Examples/TabBarExample in a temporary folder (its dependency on this checkout made absolute):
#   1. a clean `swift build` renders every icon (one command each) and the renditions are the
#      target's resources, nothing else; `swift test` loads each through Bundle.module;
#   2. a second build runs no command (but for SwiftPM's replanning after a clean build: below);
#   3. touching one icon reruns that icon's command only;
#   4. an icon removed while the code names it fails the build at that line;
#   5. an icon that does not decode fails the build naming the file and the reason;
#   6. a raster too small for 3× is upscaled with a warning, a non-icon file skipped with one,
#      and a removed icon's files leave the plugin's work folder;
#   7. (once tabicon reads --config) tabicons.json shapes the pixels, an edit reruns the icons,
#      and it cannot rename the files;
#   8. icons in subfolders of Icons/ render, become resources and get names by their file name
#      alone, pair as twins within their folder, and two giving one resource across folders fail.
# Prints one line per check; exits 1 at the first that fails, with the build log.
set -euo pipefail
export PATH="$PATH:/opt/swift/usr/bin"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tabicons-example.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The sources only: a .build of an in-place build is neither needed nor movable.
tar -C "$root/Examples" --exclude=.build --exclude=.swiftpm -cf - TabBarExample | tar -C "$work" -xf -
package="$work/TabBarExample"
sed -i.orig "s|path: \"../..\"|path: \"$root\"|" "$package/Package.swift"
grep -q "path: \"$root\"" "$package/Package.swift" || { echo "check-plugin: could not point the copy at $root" >&2; exit 1; }
icons="$package/Sources/TabBarExample/Icons"
settings="$package/Sources/TabBarExample/tabicons.json"
# The example's own settings, put back after the checks that replace them.
restore_settings() {
    if [ -f "$work/tabicons.json" ]; then cp "$work/tabicons.json" "$settings"; else rm -f "$settings"; fi
}
[ ! -f "$settings" ] || cp "$settings" "$work/tabicons.json"
log="$work/build.log"
plugin_out="$package/.build/plugins/outputs/tabbarexample/TabBarExample/destination/TabIconsPlugin"

fail() {
    echo "FAIL: $1" >&2
    echo "--- build log" >&2
    cat "$log" >&2
    exit 1
}
pass() { echo "ok: $1"; }

# swift build into $log; its exit status.
build() { swift build --package-path "$package" >"$log" 2>&1; }
# The icons whose command ran in the last build, sorted, one a line.
ran() { sed -n 's/.*TabIcons: normalizing \(.*\)$/\1/p' "$log" | sort | tr '\n' ' ' | sed 's/ $//'; }
# Every file of the resource bundle, sorted.
bundle_files() { (cd "$package/.build/debug/TabBarExample_TabBarExample.resources" && ls | sort | tr '\n' ' ' | sed 's/ $//'); }

expected_icons="bell.png gear-fill.svg gear.svg house-fill.svg house.svg search.svg"
expected_files=""
for stem in bell gear gear-fill house house-fill search; do
    expected_files+="$stem.png $stem@2x.png $stem@3x.png "
done
expected_files=$(echo $expected_files | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')

# 1. A clean build renders every icon, once, and the bundle holds exactly the renditions.
build || fail "the clean build failed"
[ "$(ran)" = "$expected_icons" ] || fail "the clean build ran '$(ran)', not every icon once ('$expected_icons')"
grep -q "TabIcons: naming 6 icons in TabIconAssets.swift" "$log" || fail "the clean build did not write the names"
[ "$(bundle_files)" = "$expected_files" ] || fail "the resource bundle holds '$(bundle_files)', not '$expected_files'"
[ -f "$plugin_out/manifests/house/manifest.json" ] || fail "no manifest in the plugin's work folder"
pass "clean build: 6 icons rendered, 18 renditions in the bundle, manifests in the plugin's work folder"

# 2. Nothing changed: nothing runs. Not from our side (docs/plugin.md "What reruns"): SwiftPM 6.3 plans
# the build again on the first build after a clean one (the clean build never records its
# "PackageStructure" step), every planning builds the plugin's tool (tabicon-tool) through
# plugin-tools.db while the build proper builds the same files through build.db, so each pass
# finds the files the other wrote and compiles and links them again; and SwiftPM makes the tool
# an input of every command a plugin declares. So that second build reruns every icon, and only
# with "Planning build" and tabicon-tool relinked; from then on, nothing runs.
# Those reruns must write nothing: the tool's bytes are the same, so each icon is carried over.
renditions=$(stat -c '%n %Y %i' "$plugin_out"/icons/*/* "$plugin_out/TabIconAssets.swift")
sleep 1
build || fail "the second build failed"
if grep -q "TabIcons:" "$log"; then
    grep -q "Planning build" "$log" && grep -q "Linking tabicon-tool" "$log" \
        || fail "the second build ran commands without SwiftPM planning again and relinking the tool"
    [ "$(stat -c '%n %Y %i' "$plugin_out"/icons/*/* "$plugin_out/TabIconAssets.swift")" = "$renditions" ] \
        || fail "the second build's reruns rewrote renditions or the names"
    ! grep -q "Compiling TabBarExample" "$log" || fail "the second build's reruns recompiled the target"
    pass "second build: SwiftPM planned again and relinked tabicon-tool (its two build databases), so $(grep -c "TabIcons: normalizing" "$log") icons reran, writing nothing"
    build || fail "the third build failed"
fi
! grep -q "TabIcons:\|Linking" "$log" || fail "an unchanged build ran commands: $(grep 'TabIcons:\|Linking' "$log" | tr '\n' ';')"
pass "unchanged build: no command ran, nothing linked"

# 3. One icon touched: that icon only, and the others' renditions untouched.
before=$(stat -c '%n %Y %i' "$plugin_out"/icons/gear/* "$plugin_out"/icons/bell/*)
sleep 1
touch "$icons/house.svg"
build || fail "the build after touching house.svg failed"
[ "$(ran)" = "house.svg" ] || fail "touching house.svg ran '$(ran)', not house.svg alone"
! grep -q "TabIcons: naming" "$log" || fail "touching an icon rewrote the names"
[ "$(stat -c '%n %Y %i' "$plugin_out"/icons/gear/* "$plugin_out"/icons/bell/*)" = "$before" ] || fail "other icons' renditions changed"
pass "touched house.svg: its command alone ran"

# The tests of the example: every rendition through Bundle.module, at its pixel size.
swift test --package-path "$package" >"$log" 2>&1 || fail "swift test failed in the example"
pass "swift test: every rendition loads from Bundle.module at its pixel size"

# 4. An icon the code names, removed: the build fails where the code names it.
mv "$icons/search.svg" "$work/search.svg"
if build; then fail "the build passed without search.svg, which TabBar.swift names"; fi
grep -q "TabBar.swift:[0-9]*:[0-9]*: error: type 'TabIconAssets' has no member 'search'" "$log" \
    || fail "removing search.svg did not fail at TabBar.swift's TabIconAssets.search"
pass "removed search.svg: $(grep -o "TabBar.swift:[0-9]*:[0-9]*: error: type 'TabIconAssets' has no member 'search'" "$log" | head -1)"
mv "$work/search.svg" "$icons/search.svg"

# 5. An icon that does not decode: the build fails naming the file and the reason.
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0' >"$icons/broken.png"
if build; then fail "the build passed with a broken broken.png"; fi
line=$(grep "tabicon: Icons/broken.png: [a-zA-Z]*: " "$log" | head -1)
[ -n "$line" ] || fail "the broken icon's failure does not name the file and the reason"
pass "broken.png: ${line#*tabicon: }"
rm "$icons/broken.png"

# 6. A raster too small for 3× is upscaled for it, with a warning naming it; a file that is not
#    an icon is skipped with a warning.
cp "$root/TestImages/rgba-32.png" "$icons/tiny.png"
echo "not an icon" >"$icons/notes.txt"
build || fail "the build with tiny.png failed"
grep -q "tabicon: warning: Icons/tiny.png: 32×32 px is smaller than its 3× rendition (75×75), which is upscaled" "$log" \
    || fail "tiny.png's upscaled 3× has no warning"
grep -q "warning: .*Icons/notes.txt: not an icon format tabicon reads" "$log" || fail "notes.txt was skipped without a warning"
[ -f "$package/.build/debug/TabBarExample_TabBarExample.resources/tiny@3x.png" ] || fail "tiny@3x.png is not in the bundle"
pass "tiny.png (32 px): 3× upscaled with a warning; notes.txt skipped with a warning"
rm "$icons/tiny.png" "$icons/notes.txt"
build || fail "the build after removing tiny.png failed"
[ ! -e "$plugin_out/icons/tiny" ] && [ ! -e "$plugin_out/manifests/tiny" ] || fail "tiny.png's renditions stayed in the work folder"
pass "tiny.png removed: its renditions and manifest left the plugin's work folder"

# 8. Subfolders: an icon in Icons/tabs/ renders, becomes a resource under its file name alone
#    (no folder in the bundle) and gets its Swift name; twins pair within one folder only
#    (tabs/more/bell-fill.svg is not bell.png's selected twin); a clash across folders fails.
mkdir -p "$icons/tabs/more"
cp "$icons/search.svg" "$icons/tabs/compass.svg"
cp "$icons/house-fill.svg" "$icons/tabs/compass-fill.svg"
cp "$icons/gear.svg" "$icons/tabs/more/bell-fill.svg"
build || fail "the build with icons in Icons/tabs/ failed"
# (the build log names an icon without "/": SwiftPM's progress line cuts a description at its last one)
for icon in "compass.svg in tabs" "compass-fill.svg in tabs" "bell-fill.svg in tabs › more"; do
    grep -q "TabIcons: normalizing $icon\$" "$log" || fail "adding $icon did not run its command (ran '$(ran)')"
done
resources="$package/.build/debug/TabBarExample_TabBarExample.resources"
for file in compass.png compass@2x.png compass@3x.png compass-fill@3x.png bell-fill@3x.png; do
    [ -f "$resources/$file" ] || fail "$file is not in the resource bundle: $(bundle_files)"
done
[ ! -e "$resources/tabs" ] || fail "the folder tabs/ entered the resource bundle"
[ "$(od -An -tu1 -j16 -N8 "$resources/compass@3x.png" | tr -s ' ')" = " 0 0 0 75 0 0 0 75" ] \
    || fail "compass@3x.png is not a 75×75 PNG"
names="$plugin_out/TabIconAssets.swift"
grep -q 'static let compass = TabIconAsset(name: "compass", source: "tabs/compass.svg",' "$names" \
    || fail "tabs/compass.svg has no Swift name compass in TabIconAssets.swift"
grep -A2 'static let compass = ' "$names" | grep -q 'selectedName: "compass-fill", darkName: nil' \
    || fail "tabs/compass-fill.svg is not tabs/compass.svg's selected twin"
grep -A2 'static let bell = ' "$names" | grep -q 'selectedName: nil' || fail "tabs/more/bell-fill.svg became Icons/bell.png's twin"
grep -q 'static let bellFill = TabIconAsset(name: "bell-fill", source: "tabs/more/bell-fill.svg",' "$names" \
    || fail "tabs/more/bell-fill.svg has no Swift name bellFill"
pass "Icons/tabs/compass.svg: rendered (75×75 at 3×), compass*.png in the bundle, TabIconAssets.compass with its twin; ran $(grep -c "TabIcons: normalizing" "$log") commands (SwiftPM planned again)"
cp "$icons/bell.png" "$icons/tabs/bell.png"
if build; then fail "the build passed with Icons/bell.png and Icons/tabs/bell.png"; fi
grep -q 'Icons/bell.png and Icons/tabs/bell.png would both give the resource bell.png; rename one' "$log" \
    || fail "bell.png in two folders was not refused naming both"
pass "Icons/bell.png and Icons/tabs/bell.png: refused, naming both"
rm -r "$icons/tabs"
build || fail "the build after removing Icons/tabs/ failed"
[ ! -e "$plugin_out/icons/compass" ] && [ ! -e "$plugin_out/manifests/compass" ] || fail "compass's files stayed after Icons/tabs/ was removed"
pass "Icons/tabs/ removed: its icons' renditions and manifests left the plugin's work folder"

# A hand-made 2× beside its icon: two icons giving one resource name, refused naming both.
cp "$icons/bell.png" "$icons/bell@2x.png"
if build; then fail "the build passed with bell@2x.png beside bell.png"; fi
grep -q 'Icons/bell.png and Icons/bell@2x.png would both give the resource bell@2x.png' "$log" || fail "bell@2x.png was not refused naming both"
pass "bell@2x.png beside bell.png: refused, naming both"
rm "$icons/bell@2x.png"

# Icons/ declared as resources instead of excluded: refused, saying what to write.
cp "$package/Package.swift" "$work/Package.swift.kept"
sed -i -e 's|exclude: \["Icons"\]|exclude: []|' -e 's|exclude: \["Icons", |exclude: [|' \
    -e 's|^\( *\)plugins: \[.plugin(name: "TabIconsPlugin"|\1resources: [.process("Icons")],\n&|' "$package/Package.swift"
grep -q 'resources: \[.process("Icons")\],' "$package/Package.swift" || fail "could not declare Icons/ as resources in the copy"
if build; then fail "the build passed with Icons/ declared as resources"; fi
grep -q 'in Icons/ is declared as a resource; add `exclude: \["Icons"\]`' "$log" || fail "Icons/ as resources was not refused by name"
pass "Icons/ declared as resources: refused, naming the exclude to write"
cp "$work/Package.swift.kept" "$package/Package.swift"

# 7. tabicons.json (once tabicon reads --config): it shapes the pixels, matches Icons/NAME, is an
#    input of every icon's command (an edit of its content reruns them: no replanning needed),
#    and cannot rename the files (the plugin pins the flat layout's 1x/2x/3x PNGs).
if grep -q '"config"' "$root/Sources/TabIconsCLI/CommandOption+Declarations.swift"; then
    echo '{"options": {"layout": "android", "scales": "1,2"}, "icons": [{"match": "Icons/bell.png", "padding": 4}, {"match": "Icons/typo.svg"}]}' >"$settings"
    build || fail "the build with tabicons.json (layout android, scales 1,2; bell.png padded) failed"
    [ "$(ran)" = "$expected_icons" ] || fail "a new tabicons.json ran '$(ran)', not every icon"
    [ "$(ls "$plugin_out/icons/bell")" = "$(printf 'bell.png\nbell@2x.png\nbell@3x.png')" ] \
        || fail "the options' layout and scales renamed the files: $(ls "$plugin_out/icons/bell" | tr '\n' ' ')"
    grep -q '"padding"' "$plugin_out/manifests/bell/manifest.json" || fail "bell.png's manifest does not record its padding"
    [ "$(grep -c 'matches no' "$log")" = 1 ] && grep -q 'icons\[1\] (match Icons/typo.svg) matches no icon in Icons/' "$log" \
        || fail "the entry matching no icon was not warned about exactly once"
    pass "tabicons.json: Icons/bell.png matched and padded; the options' layout and scales did not rename the files; one warning for Icons/typo.svg"

    bell=$(md5sum <"$plugin_out/icons/bell/bell@3x.png"); gear=$(stat -c '%Y %i' "$plugin_out/icons/gear/gear@3x.png")
    sleep 1
    sed -i 's/"padding": 4/"padding": 1/' "$settings"
    build || fail "the build after editing tabicons.json failed"
    [ "$(ran)" = "$expected_icons" ] || fail "editing tabicons.json ran '$(ran)', not every icon"
    [ "$(md5sum <"$plugin_out/icons/bell/bell@3x.png")" != "$bell" ] || fail "editing bell.png's padding did not change bell@3x.png"
    [ "$(stat -c '%Y %i' "$plugin_out/icons/gear/gear@3x.png")" = "$gear" ] || fail "editing bell.png's padding rewrote gear@3x.png"
    pass "tabicons.json edited: every command reran, bell.png's renditions changed, the others' files untouched"

    echo '{"icons": [{"match": "Icons/bell.png", "format": "webp"}]}' >"$settings"
    if build; then fail "the build passed with bell.png as WebP"; fi
    grep -q "tabicon: Icons/bell.png: the plugin declared bell.png, bell@2x.png, bell@3x.png but tabicon wrote bell.webp" "$log" \
        || fail "a per-icon format was not refused naming both lists"
    pass "tabicons.json giving bell.png another format: the build fails naming the declared and the written files"
    restore_settings
else
    echo "skipped: tabicons.json (this tabicon has no --config yet)"
fi

build || fail "the build after restoring the icons failed"
pass "restored: the build passes again"
