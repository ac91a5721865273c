# The quick start: `make demo` normalizes TestImages/, `make test` runs the tests.
# Each installs the C libraries it needs first (scripts/install-deps.sh, only when missing).

SHELL := /bin/bash
# The Swift toolchain of this project's machines lives in /opt/swift; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin
OUT ?= out

.PHONY: deps build demo test inspect bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	swift build -c release --product tabicon

## Normalize the bundled icons into 1x/2x/3x PNG renditions with a manifest, and summarize.
demo: build
	rm -rf $(OUT)
	"$$(swift build -c release --show-bin-path)/tabicon" normalize TestImages -o $(OUT); \
	  status=$$?; echo "exit status $$status (1 means some inputs failed, see above)"; \
	  echo "renditions and manifest in $(OUT)/"; [ $$status -le 1 ]

## Describe the bundled icons without writing anything.
inspect: build
	"$$(swift build -c release --show-bin-path)/tabicon" inspect TestImages

## The whole test suite (XCTest and Swift Testing).
test: deps
	swift test

bench: deps
	swift run -c release tabicon-bench

clean:
	rm -rf .build $(OUT)
