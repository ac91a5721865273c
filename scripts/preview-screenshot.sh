#!/usr/bin/env bash
# Remakes docs/preview.png, the README's screenshot of `tabicon preview -o … TestImages`, with the
# same headless Chromium the browser tests use (network off, device scale factor 1).
# Usage: scripts/preview-screenshot.sh [WIDTH HEIGHT]  (default 1280 1900)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
width=${1:-1280} height=${2:-1900}
browser=$(command -v chromium || command -v chromium-browser) || { echo "needs chromium (apt-get install chromium)" >&2; exit 1; }
swift build --product tabicon >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$(swift build --show-bin-path)/tabicon" preview -q -o "$work/preview.html" TestImages
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --host-resolver-rules="MAP * ~NOTFOUND" --disable-background-networking --disable-component-update \
    --no-first-run --user-data-dir="$work/profile" --window-size="$width,$height" \
    --screenshot="$PWD/docs/preview.png" "file://$work/preview.html" 2>/dev/null
echo "wrote docs/preview.png (${width}×${height})"
