#!/usr/bin/env bash
# Collects the real inputs of the decode / normalize / peers benchmarks into bench/inputs/
# (gitignored: they come from Debian packages, not from this repository).
#
#   bench/inputs/icons   500 PNG icons, 16–256 px, from oxygen-icon-theme (every size folder,
#                        spread evenly over the sorted list so every size and context is there)
#   bench/inputs/photos  20 JPEG photos, 1280×1024 … 5120×2880, from mate-backgrounds,
#                        ukui-wallpapers and lomiri-wallpapers-20.04
#
# Installs the packages with apt when missing (root, or sudo). The selection is by sorted path,
# so the same packages give the same files.
set -euo pipefail
cd "$(dirname "$0")"
packages=(oxygen-icon-theme mate-backgrounds ukui-wallpapers lomiri-wallpapers-20.04)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y --no-install-recommends "${missing[@]}"
fi

rm -rf inputs/icons inputs/photos
mkdir -p inputs/icons inputs/photos

# Icons: all oxygen PNGs of 16 px and up, every n-th of the sorted list to 500.
mapfile -t all < <(find /usr/share/icons/oxygen/base -name '*.png' -not -path '*/8x8/*' | LC_ALL=C sort)
count=500
for ((i = 0; i < count; i++)); do
    src=${all[$(( i * ${#all[@]} / count ))]}
    size=$(basename "$(dirname "$(dirname "$src")")")      # 48x48
    context=$(basename "$(dirname "$src")")                 # apps
    cp "$src" "inputs/icons/$(printf %03d "$i")-$size-$context-$(basename "$src")"
done

# Photos: the packages' JPEGs between 1280×1024 and 5120×2880 pixels (by area); the
# 1920×1080 copy of Elephants is left out (its 3840×2160 original is in).
photos=(
    /usr/share/backgrounds/mate/abstract/Elephants_3840x2160.jpg
    /usr/share/backgrounds/mate/desktop/GreenTraditional.jpg
    /usr/share/backgrounds/mate/nature/Aqua.jpg
    /usr/share/backgrounds/mate/nature/Blinds.jpg
    /usr/share/backgrounds/mate/nature/Dune.jpg
    /usr/share/backgrounds/mate/nature/FreshFlower.jpg
    /usr/share/backgrounds/mate/nature/Garden.jpg
    /usr/share/backgrounds/mate/nature/GreenMeadow.jpg
    /usr/share/backgrounds/mate/nature/LadyBird.jpg
    /usr/share/backgrounds/mate/nature/RainDrops.jpg
    /usr/share/backgrounds/mate/nature/Storm.jpg
    /usr/share/backgrounds/mate/nature/TwoWings.jpg
    /usr/share/backgrounds/mate/nature/Wood.jpg
    /usr/share/backgrounds/mate/nature/YellowFlower.jpg
    /usr/share/backgrounds/2004default.jpg
    /usr/share/backgrounds/firstgeneration.jpg
    /usr/share/backgrounds/rhythm.jpg
    /usr/share/backgrounds/string.jpg
    /usr/share/backgrounds/the-mouse.jpg
    /usr/share/backgrounds/Fossa_by_Jasper_Roks.jpg
)
for src in "${photos[@]}"; do cp "$src" inputs/photos/; done
echo "bench/inputs/icons: $(ls inputs/icons | wc -l) PNGs, $(du -sh inputs/icons | cut -f1)"
echo "bench/inputs/photos: $(ls inputs/photos | wc -l) JPEGs, $(du -sh inputs/photos | cut -f1)"

# SVG: every 6th Bootstrap Icon (326 square 16×16 glyphs, MIT) from ../shared/corpus when it is
# beside the checkout (override with TABICONS_CORPUS), for bench/peers.sh's SVG batch.
corpus="${TABICONS_CORPUS:-$(cd .. && dirname "$PWD")/shared/corpus}"
if [ -d "$corpus/svg/bootstrap-icons" ]; then
    rm -rf inputs/svg && mkdir -p inputs/svg
    ls "$corpus"/svg/bootstrap-icons/*.svg | awk 'NR % 6 == 1' | xargs cp -t inputs/svg
    echo "bench/inputs/svg: $(ls inputs/svg | wc -l) SVGs, $(du -sh inputs/svg | cut -f1)"
fi
