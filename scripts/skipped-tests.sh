#!/usr/bin/env bash
# scripts/skipped-tests.sh LOG: after `make test`, one summary of what the run skipped and why
# (Swift Testing prints each skipped suite or test on its own line, easy to miss among hundreds):
# each reason once, with the suites and tests it skipped under it.
set -euo pipefail
log="${1:?usage: scripts/skipped-tests.sh LOG}"
skipped=$(grep -E '^[^ ]* (Suite|Test) ".*" skipped: ' "$log" || true)
[ -n "$skipped" ] || exit 0
# "reason<TAB>Kind "name"" lines, sorted by reason then name (a test skipped twice counted once).
entries=$(printf '%s\n' "$skipped" | sed -E 's/^[^ ]* (Suite|Test) "(.*)" skipped: "?([^"]*)"?$/\3\t\1 "\2"/' | sort -u)
echo
echo "skipped $(printf '%s\n' "$entries" | wc -l) suites and tests:"
printf '%s\n' "$entries" | awk -F '\t' '$1 != reason { reason = $1; print "  " reason ":" } { print "    " $2 }'
