#!/usr/bin/env bash
# scripts/sanitizer-skip.sh address|thread: the `swift test --skip` regex of the suites that
# `make test-asan` and `make test-tsan` leave to `make test` (which runs every suite unsanitized).
#
#   1. Every type declared in the files directly in Tests/TabIconsCLITests/ (not its BuildStep/
#      folder), read from the files at each run (so a suite added, renamed or removed there needs
#      no edit here): the CLI's end-to-end suites drive the command line and spawn the built
#      tabicon, Chromium and aapt2; their memory and threads are the library's and the batch's,
#      which the suites below the CLI exercise under the sanitizers. The suites in BuildStep/ are
#      the batch's guarantees run through `tabicon normalize` in process: sanitized.
#   2. Slow suites of plain Swift logic, named below: a sanitizer multiplies their minutes and
#      checks nothing a memory-safe language does not already. A name that no longer exists
#      matches nothing, so a suite renamed here runs sanitized again (slower, never unchecked).
#   3. For ThreadSanitizer also the slow single-threaded codec and corpus suites: nothing for it
#      to see; AddressSanitizer runs them.
set -euo pipefail
sanitizer="${1:?usage: scripts/sanitizer-skip.sh address|thread}"
root="$(cd "$(dirname "$0")/.." && pwd)"

# Top-level type declarations (suites and their helpers; a helper's name matches no test).
cli=$(sed -nE 's/^(public |internal |package |private |fileprivate )?(final )?(struct|class|actor|enum) ([A-Za-z_][A-Za-z0-9_]*).*/\4/p' \
    "$root"/Tests/TabIconsCLITests/*.swift | sort -u)
# The property over 10,000 random manifests, and the SVG-to-vector-drawable conversion over the corpus.
slow=(HostileManifestPropertyTests VectorCorpusTests VectorPapirusTests)
# Decoding the public corpus, the 9000×9000 PNG and the streamed paths, the codecs' own suites
# (JPEG's aside: it decodes from many threads) and the symbol geometry: one thread each.
single_threaded=(ErrorVocabularyTests PNGMemoryLimitTests StreamedNormalizationTests StreamedMemoryEstimateTests
    SVGPanicScreeningTests HostileInputTests
    PNGDecoderTests WebPDecoderTests PNGEncoderTests WebPEncoderTests ProgressiveDCTests StreamedPNGRowDecoderTests
    PNGWholeInflateTests PNGRowFilterTests SymbolOutlinesTests SymbolTemplateTests)
case "$sanitizer" in
    address) names=($cli "${slow[@]}") ;;
    thread) names=($cli "${slow[@]}" "${single_threaded[@]}") ;;
    *) echo "scripts/sanitizer-skip.sh: address or thread, not $sanitizer" >&2; exit 2 ;;
esac
# Test IDs read Module.Suite/test(): the type name whole, between the module's dot and a slash.
printf '\\.(%s)/\n' "$(IFS='|'; echo "${names[*]}")"
