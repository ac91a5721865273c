// swift-tools-version:6.0
// The libFuzzer target for TabIcons: decode and normalize arbitrary bytes, in process or through
// the batch's worker jail (see run.sh).
// A separate package so the main one stays free of sanitizer flags; it depends on the main
// package by path, which needs no network.
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let mainPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "TabIcons")

let package = Package(
    name: "TabIconsFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "TabIconsFuzz",
            dependencies: [
                .product(name: "TabIcons", package: mainPackage),
                // The jail mode's engine (`PreviewRun` with a `WorkerJail`).
                .product(name: "TabIconsBatch", package: mainPackage)
            ]
        )
    ]
)
