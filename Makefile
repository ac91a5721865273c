# The quick start: `make demo` normalizes TestImages/, `make test` runs the tests.
# Each installs the C libraries it needs first (scripts/install-deps.sh, only when missing).

SHELL := /bin/bash
# The Swift toolchain of this project's machines lives in /opt/swift; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin
OUT ?= out

.PHONY: deps build demo test test-asan test-tsan peak-memory fuzz inspect bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@echo "building tabicon (release)..."
	@swift build -c release --product tabicon 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
	@test -x "$$(swift build -c release --show-bin-path)/tabicon"

## Normalize the bundled icons into 1x/2x/3x PNG renditions with a manifest, and summarize.
## (Exit status 1 from tabicon means some input failed; the demo still shows what was written.)
demo: build
	@rm -rf $(OUT)
	@"$$(swift build -c release --show-bin-path)/tabicon" normalize TestImages -o $(OUT) || [ $$? -eq 1 ]

## Describe the bundled icons without writing anything.
inspect: build
	@"$$(swift build -c release --show-bin-path)/tabicon" inspect TestImages

## The whole test suite (Swift Testing, through `swift test`).
test: deps
	swift test

## The test suite under AddressSanitizer and under ThreadSanitizer (each in its own build folder,
## so the three builds do not rebuild each other). .ci/run runs both after `make test`.
test-asan: deps
	LSAN_OPTIONS="suppressions=$(CURDIR)/scripts/lsan.supp $${LSAN_OPTIONS:-}" \
	  swift test --sanitize=address --scratch-path .build-asan

test-tsan: deps
	TSAN_OPTIONS="suppressions=$(CURDIR)/scripts/tsan.supp $${TSAN_OPTIONS:-}" \
	  swift test --sanitize=thread --scratch-path .build-tsan

## Peak memory of the release CLI on every file in ../shared/corpus/bad (fails past 256 MiB).
peak-memory: build
	bash scripts/peak-memory.sh

## libFuzzer on decode and normalize: make fuzz FORMAT=png SECONDS=600 (see fuzz/run.sh).
fuzz: deps
	bash fuzz/run.sh $(or $(FORMAT),png) $(or $(SECONDS),60)

bench: deps
	swift run -c release tabicon-bench

clean:
	rm -rf .build .build-asan .build-tsan fuzz/.build $(OUT)
