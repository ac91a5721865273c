#!/usr/bin/env bash
# scripts/skipped-tests.sh LOG: after `make test`, one summary of what the run skipped and why
# (Swift Testing prints each skipped test on its own line, easy to miss among hundreds).
set -euo pipefail
log="${1:?usage: scripts/skipped-tests.sh LOG}"
skipped=$(grep -E '^.{0,4}Test .* skipped' "$log" || true)
[ -n "$skipped" ] || exit 0
count=$(printf '%s\n' "$skipped" | wc -l)
echo
echo "skipped $count tests:"
printf '%s\n' "$skipped" | sed -E 's/^.{0,4}Test "(.*)" skipped: "?(.*[^"])"?$/  \1 (\2)/' | sort | uniq -c |
    sed -E 's/^ *1 //; s/^ *([0-9]+) (.*)$/\2 ×\1/'
