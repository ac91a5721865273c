#!/usr/bin/env bash
# scripts/skipped-tests.sh LOG: after `make test`, one summary of what the run skipped and why
# (Swift Testing prints each skipped suite or test on its own line, easy to miss among hundreds).
set -euo pipefail
log="${1:?usage: scripts/skipped-tests.sh LOG}"
skipped=$(grep -E '^[^ ]* (Suite|Test) ".*" skipped: ' "$log" || true)
[ -n "$skipped" ] || exit 0
echo
echo "skipped $(printf '%s\n' "$skipped" | wc -l) suites and tests:"
printf '%s\n' "$skipped" | sed -E 's/^[^ ]* (Suite|Test) "(.*)" skipped: "?([^"]*)"?$/  \1 "\2": \3/' | sort
