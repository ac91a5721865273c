// swift-tools-version:6.0
// TabIcons: icon bytes (PNG, JPEG, WebP, SVG) in, tab-bar-ready icons out.
//
// Layers depend only downward (see ARCHITECTURE.md):
//   C libraries (system-library targets) and the two small C shims
//   → TabIconsCore → TabIconsCodecs → TabIconsNormalize → TabIcons (the side table; re-exports the three)
//   → TabIconsBatch (the batch: layouts, manifest, safe writes)
//   → TabIconsCLI → tabicon;  TabIconsBatch → tabicon-bench (Sources/tabicon-bench; bench/ keeps its
//   scripts, inputs and results)
import PackageDescription

let package = Package(
    name: "TabIcons",
    products: [
        .library(name: "TabIcons", targets: ["TabIcons"]),
        // The batch behind `tabicon normalize` (output plan, layouts, manifest, safe writes), for
        // build tools that drive it from Swift rather than through the CLI.
        .library(name: "TabIconsBatch", targets: ["TabIconsBatch"]),
        .executable(name: "tabicon", targets: ["tabicon"]),
        .executable(name: "tabicon-bench", targets: ["tabicon-bench"]),
        // `swift build` normalizes a target's Icons/ into resources with generated names (SPEC §8).
        .plugin(name: "TabIconsPlugin", targets: ["TabIconsPlugin"])
    ],
    targets: [
        // The C libraries, found through pkg-config. `.ci/run` and the Makefile install them on
        // Debian and Ubuntu; on macOS, Homebrew's formulas (named beside each; not tried here).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]),
        // libdeflate: whole-buffer deflate for the PNG writer.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // librsvg with cairo, linked only by tabicon-bench (its direct-call SVG baseline): the
        // package's own SVG path opens librsvg with dlopen (CSVGRender). No pkgConfig: its
        // header declares what the baseline calls (shim.h says why).
        // At run time the library opens librsvg itself: Debian's librsvg2-2 (librsvg2-dev to
        // build the benchmark), Homebrew's librsvg.
        .systemLibrary(name: "CRSVG", providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]),

        // libjpeg's error_exit must not return: it needs setjmp/longjmp, which Swift cannot call.
        .target(name: "CJPEGDecode", dependencies: ["CJPEG"]),
        // The PNG writer: libpng's row-filter choice, one libdeflate call, the chunks (libpng
        // cannot drive libdeflate).
        .target(name: "CPNGEncode", dependencies: ["CDeflate"]),
        // libpng's error callback must not return either: reading row by row behind setjmp
        // (streamed normalization never holds the whole image).
        .target(name: "CPNGDecode", dependencies: ["CPNG", "CDeflate"]),
        // The resampler's inner loops with SSE4.1/AVX2's 32-bit multiply, chosen at run time.
        .target(name: "CResampleKernels"),
        // XXH3-128 through the runtime-dispatched (AVX2) variant, with vzeroupper after it.
        .target(name: "CXXH3Dispatch", dependencies: ["CXXHash"]),
        // librsvg and cairo behind plain C types (no GLib or cairo type reaches Swift), opened
        // with dlopen on the first SVG (a run over rasters never maps them; no CRSVG, whose link
        // flags would reach every product), and a bounded gunzip for .svgz.
        .target(name: "CSVGRender", linkerSettings: [.linkedLibrary("z")]),

        // The library, one target a layer so that the compiler refuses an upward reference
        // (ARCHITECTURE.md): Core (the rule, the error vocabulary, bitmaps) → Codecs (one folder a
        // format, the decoder registry) → Normalize (the pipeline) → TabIcons (the side table,
        // and the one module users import: it re-exports the three below it).
        .target(name: "TabIconsCore", dependencies: ["CXXHash", "CXXH3Dispatch"]),
        .target(
            name: "TabIconsCodecs",
            dependencies: [
                "TabIconsCore", "CPNG", "CJPEG", "CWebP", "CJPEGDecode", "CPNGEncode", "CPNGDecode",
                "CSVGRender"
            ]
        ),
        .target(name: "TabIconsNormalize", dependencies: ["TabIconsCodecs", "CResampleKernels"]),
        .target(name: "TabIcons", dependencies: ["TabIconsNormalize", "TabIconsCodecs", "TabIconsCore"]),
        .target(name: "TabIconsBatch", dependencies: ["TabIcons"]),
        .target(name: "TabIconsCLI", dependencies: ["TabIcons", "TabIconsBatch"]),
        .executableTarget(name: "tabicon", dependencies: ["TabIconsCLI", "TabIconsBatch"]),
        // Build commands running the tabicon built from source (`package-icon`, `package-names`).
        .plugin(name: "TabIconsPlugin", capability: .buildTool(), dependencies: ["tabicon"]),
        .executableTarget(
            name: "tabicon-bench",
            // The C modules only for the decode scenario's direct-call baselines.
            dependencies: ["TabIcons", "TabIconsBatch", "CPNG", "CJPEGDecode", "CWebP", "CRSVG"]
        ),
        // The tests, one target a library target, each depending on the library it tests and the
        // layers below it (a suite that needs a layer above lives with that layer's tests). Shared
        // helpers live in two plain targets that only test targets depend on: TabIconsTestSupport
        // (fixtures, temporary folders, the built tabicon, test images; the fixture files beside
        // it, read by path) and TabIconsBatchTestSupport (the build-step helpers over the batch).
        .target(
            name: "TabIconsTestSupport", dependencies: ["TabIconsCodecs", "TabIconsCore"], path: "Tests/TabIconsTestSupport",
            exclude: ["Fixtures"]),
        .target(
            name: "TabIconsBatchTestSupport", dependencies: ["TabIconsBatch", "TabIconsTestSupport"],
            path: "Tests/TabIconsBatchTestSupport"),
        .testTarget(name: "TabIconsCoreTests", dependencies: ["TabIconsCore"]),
        .testTarget(
            name: "TabIconsCodecsTests",
            // CPNGEncode: each row filter against the specification's reconstruction.
            dependencies: ["TabIconsCodecs", "TabIconsCore", "CPNGEncode", "TabIconsTestSupport"]),
        .testTarget(
            name: "TabIconsNormalizeTests",
            // CResampleKernels: its portable and AVX2 loops are compared directly. Decoding/: the
            // decoders' limits checked through the normalizer; Vector/: `--vector`'s conversion.
            dependencies: ["TabIconsNormalize", "TabIconsCodecs", "TabIconsCore", "CResampleKernels", "TabIconsTestSupport"]),
        // The side table, and the library's front door (what `import TabIcons` gives a user).
        .testTarget(name: "TabIconsTests", dependencies: ["TabIcons", "TabIconsTestSupport"]),
        .testTarget(
            name: "TabIconsBatchTests",
            dependencies: ["TabIconsBatch", "TabIcons", "TabIconsTestSupport", "TabIconsBatchTestSupport"]),
        // The command line, and under BuildStep/ the batch's guarantees checked through
        // `tabicon normalize` run in process.
        .testTarget(
            name: "TabIconsCLITests",
            dependencies: ["TabIconsCLI", "TabIconsBatch", "TabIcons", "TabIconsTestSupport", "TabIconsBatchTestSupport"]),
        // The batch's front door as a build tool sees it: no `@testable`, and no `package`
        // access either (`packageAccess: false`), so it compiles against the public API alone.
        .testTarget(name: "TabIconsBatchFrontDoorTests", dependencies: ["TabIcons", "TabIconsBatch"], packageAccess: false)
    ]
)
