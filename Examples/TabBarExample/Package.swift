// swift-tools-version:6.0
// A package that uses TabIcons as a newcomer would (docs/plugin.md): icons in
// Sources/TabBarExample/Icons/, the plugin on the target, names from TabIconAssets.
import PackageDescription

let package = Package(
    name: "TabBarExample",
    dependencies: [
        // From a clone: .package(url: "https://…/TabIcons.git", from: "0.1.0").
        .package(name: "TabIcons", path: "../..")
    ],
    targets: [
        .target(
            name: "TabBarExample",
            // The icons and their settings are the plugin's inputs, not resources: the
            // renditions are.
            exclude: ["Icons", "tabicons.json"],
            plugins: [.plugin(name: "TabIconsPlugin", package: "TabIcons")]
        ),
        .testTarget(
            name: "TabBarExampleTests",
            dependencies: ["TabBarExample", .product(name: "TabIcons", package: "TabIcons")]
        )
    ]
)
