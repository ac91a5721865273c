# The quick start: `make demo` normalizes TestImages/, `make test` runs the tests.
# Each installs the C libraries it needs first (scripts/install-deps.sh, only when missing).

SHELL := /bin/bash
# Every recipe line fails when any command of a pipe fails, not only the last one.
.SHELLFLAGS := -o pipefail -c
# The Swift toolchain of this project's machines lives in /opt/swift; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin
OUT ?= out
PREFIX ?= /usr/local
# Swift's build progress lines, dropped from the quiet targets' output (errors and warnings stay).
PROGRESS := '^\[[0-9]+/[0-9]+\]'

.PHONY: deps build install man demo lint format test example bazel-example test-asan test-tsan fuzz-smoke peak-memory fuzz inspect bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@echo "building tabicon (release)..."
	@swift build -c release --product tabicon 2>&1 | { grep -Ev $(PROGRESS) || true; }

## A release tabicon with Swift's runtime linked in, so a build machine can run it from PREFIX/bin
## without the toolchain's libraries, and its man page (make install PREFIX="$HOME/.local", or DESTDIR for packaging).
install: deps
	@echo "building tabicon (release, static Swift runtime)..."
	@swift build -c release --static-swift-stdlib --product tabicon --scratch-path .build/static 2>&1 \
	  | { grep -Ev $(PROGRESS) || true; }
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$(swift build -c release --static-swift-stdlib --scratch-path .build/static --show-bin-path)/tabicon" \
	  "$(DESTDIR)$(PREFIX)/bin/tabicon"
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -m 644 docs/tabicon.1 "$(DESTDIR)$(PREFIX)/share/man/man1/tabicon.1"

## Regenerate docs/tabicon.1 from the option declarations (`tabicon manual`); a test fails
## while the committed page differs from what the declarations give.
man: deps
	@swift build --product tabicon 2>&1 | { grep -Ev $(PROGRESS) || true; }
	@"$$(swift build --show-bin-path)/tabicon" manual > docs/tabicon.1
	@echo "wrote docs/tabicon.1"

## Normalize the bundled icons into 1x/2x/3x PNG renditions with a manifest, summarize, and say
## where the binary is and how to run it on your own icons (README "Quick start").
## (Exit status 1 from tabicon means some input failed; the demo still shows what was written.)
demo: build
	@rm -rf $(OUT)
	@"$$(swift build -c release --show-bin-path)/tabicon" normalize TestImages -o $(OUT) || [ $$? -eq 1 ]
	@echo
	@echo "tabicon is .build/release/tabicon; make install PREFIX=\"\$$HOME/.local\" puts it in ~/.local/bin."
	@echo "Your own icons: tabicon normalize my-icons -o out, then tabicon preview -o preview.html my-icons"

## Describe the bundled icons without writing anything.
inspect: build
	@"$$(swift build -c release --show-bin-path)/tabicon" inspect TestImages

## The whole test suite (XCTest and Swift Testing, through `swift test`). Without ../shared/corpus
## beside the checkout, the tests that need it are skipped, each named with the reason.
test: deps
	@mkdir -p .build
	swift test 2>&1 | tee .build/test-output.log
	@bash scripts/skipped-tests.sh .build/test-output.log

## The code's one format (.swift-format, applied with `swift format -i -r` over the same paths):
## `swift format lint --strict` passes, or CI stops here.
SWIFT_SOURCES = Sources Tests Plugins Examples fuzz/Sources fuzz/Package.swift Package.swift
lint:
	swift format lint -r --strict $(SWIFT_SOURCES)

format:
	swift format -i -r $(SWIFT_SOURCES)

## The build-tool plugin as a user meets it (README "In a Swift package"): Examples/TabBarExample,
## copied to a temporary folder, built and tested, with what each rebuild reruns checked; then
## every Swift snippet of the documents compiled as written, and docs/library.md's build tool run
## (Examples/check-snippets.sh). The shell recipes are run by `make test` (RecipeTests).
example: deps
	bash Examples/check-plugin.sh
	bash Examples/check-snippets.sh

## Examples/bazel with the Bazel Debian ships (installed when missing): this checkout's tabicon
## (the debug build `make test` already made: the rule is under test, not the binary's speed; a
## team installs the static build, `make install`, into tools/) copied into two copies of the
## workspace at different paths sharing one disk cache, then its checks (Examples/bazel/check.sh:
## the second copy all cache hits, one changed icon one render and one assemble, the output
## normalize's byte for byte, a broken icon failing its action).
bazel-example: deps
	@bash scripts/install-deps.sh --bazel
	@swift build --product tabicon 2>&1 | { grep -Ev $(PROGRESS) || true; }
	bash Examples/bazel/check.sh "$$(swift build --show-bin-path)/tabicon"

## The suites where memory and threads matter (the codecs, the side table, the batch engine and
## its worker jail) under AddressSanitizer and under ThreadSanitizer, each in its own build folder
## so the three builds do not rebuild each other. Left to `make test`, which runs every suite
## unsanitized: the CLI's end-to-end suites (every type in the files directly in
## Tests/TabIconsCLITests/, read at each run) and a few slow suites of plain Swift logic, and for
## ThreadSanitizer the slow single-threaded codec suites; scripts/sanitizer-skip.sh names them and says why.
## SANITIZE_ALL=1 runs the whole suite under the sanitizer. .ci/run runs both after `make test`.
sanitizer_skip = $(if $(SANITIZE_ALL),,--skip "$$(bash scripts/sanitizer-skip.sh $(1))")

test-asan: deps
	LSAN_OPTIONS="suppressions=$(CURDIR)/scripts/lsan.supp $${LSAN_OPTIONS:-}" \
	  swift test --sanitize=address --scratch-path .build-asan $(call sanitizer_skip,address)

test-tsan: deps
	TSAN_OPTIONS="suppressions=$(CURDIR)/scripts/tsan.supp $${TSAN_OPTIONS:-}" \
	  swift test --sanitize=thread --scratch-path .build-tsan $(call sanitizer_skip,thread)

## Each format's fuzzer for a second in process and one through the worker jail: a smoke test
## that the fuzz package builds, that every seed (TestImages, the test fixtures with the earlier
## findings, ../shared/corpus) still runs clean, and that a short mutation finds nothing quickly.
## libFuzzer replays all the seeds before it looks at the clock, so a jailed run takes as long as
## its seeds need even past the second (1 s, not 15, since 5 Dec: CI's 25 minutes). CI runs it; `make
## fuzz` runs one format for longer, and FUZZ_SMOKE_SECONDS=30 makes the smoke longer.
FUZZ_SMOKE_SECONDS ?= 1
fuzz-smoke: deps
	for format in $$(bash fuzz/run.sh formats); do \
	  for mode in inprocess jail; do TABICONS_FUZZ_MODE=$$mode bash fuzz/run.sh "$$format" $(FUZZ_SMOKE_SECONDS) || exit 1; done; \
	done

## Peak memory of the release CLI on every file in ../shared/corpus/bad (fails past 256 MiB).
peak-memory: build
	bash scripts/peak-memory.sh

## libFuzzer on decode and normalize: make fuzz FORMAT=png SECONDS=600 [MODE=jail] (see fuzz/run.sh).
fuzz: deps
	TABICONS_FUZZ_MODE=$(or $(MODE),inprocess) bash fuzz/run.sh $(or $(FORMAT),png) $(or $(SECONDS),60)

bench: deps
	swift run -c release tabicon-bench

clean:
	rm -rf .build .build-asan .build-tsan fuzz/.build Examples/TabBarExample/.build $(OUT)
