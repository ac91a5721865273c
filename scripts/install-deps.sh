#!/usr/bin/env bash
# Installs the C libraries TabIcons builds against, only those that are missing.
# Debian/Ubuntu: libpng, libjpeg(-turbo), libwebp (with demux), xxHash, libdeflate, librsvg (with cairo).
# Runs apt-get as root, or through sudo when there is one. Safe to run again: it does nothing when
# all are present.
# With --test-tools (CI; --browser is its older name), also what the tests that check outputs with
# outside tools need, each unless already there (those tests skip without it): headless Chromium
# for the preview's browser tests, and aapt2 with Android's framework resources, which compile and
# link the res/ an android layout writes. With --bazel, Debian's Bazel (bazel-bootstrap, 4.2, with
# the JDK it needs) for Examples/bazel, unless a bazel is on PATH.
set -euo pipefail

# librsvg2-dev for the benchmark's direct-call baseline (CRSVG) and the SVG tests; tabicon itself
# opens librsvg (librsvg2-2) only when it meets an SVG, and needs nothing of it for rasters.
packages=(libpng-dev libjpeg-dev libwebp-dev libxxhash-dev libdeflate-dev librsvg2-dev pkg-config)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${1:-}" = "--test-tools" ] || [ "${1:-}" = "--browser" ]; then
    if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
        missing+=(chromium)
    fi
    command -v aapt2 >/dev/null 2>&1 || missing+=(aapt)
    [ -f /usr/share/android-framework-res/framework-res.apk ] || missing+=(android-framework-res)
fi
if [ "${1:-}" = "--bazel" ]; then
    command -v bazel >/dev/null 2>&1 || missing+=(bazel-bootstrap)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "tabicons: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q "${missing[@]}"
